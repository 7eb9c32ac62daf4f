/**
 * Vendor profiles and app settings, persisted atomically in <dataDir>/config.json. Tokens are sealed
 * with the TokenVault before they are stored; `openTokens` opens them in memory for the client only.
 * The renderer gets views: a token is an id and a masked form. Ephemeral profiles (web mode flags)
 * live in memory only.
 */
import { randomUUID } from 'node:crypto';
import { isAbsolute, join } from 'node:path';
import { baseUrlProblem } from '../../shared/base-url';
import { maskStoreUrl } from '../../shared/budget-store-url';
import { PAGE_SIZE_DEFAULT } from '../../shared/catalog';
import { PartnerError } from '../../shared/errors';
import { TOKEN_SCHEME } from '../../shared/token-scheme';
import { DEFAULT_SERVICE_MAP, parseServiceMap } from '../../shared/service-map/schema';
import type { ServiceMap } from '../../shared/service-map/schema';
import { normalizeBaseUrl } from '../../shared/base-url';
import { DEFAULT_TOKEN_PRESENTATION } from '../client/types';
import { formNames, profileServiceMap, withFormNames } from '../service-map/profile-map';
import type { TokenVault } from '../app/token-vault';
import { maskToken, redactText } from './mask-token';
import type { PersistedState, ProfileInput, ProfileRecord, ProfileView, Settings, StoredProfile, StoredToken } from './profile-types';
import { loadSettingsFile } from './settings-file';
import type { LoadedSettingsFile } from './settings-file';

// Profiles store base URLs in the client's one spelling; re-exported for profiles/index.
export { normalizeBaseUrl };

export interface ProfileStoreOptions {
  dataDir: string;
  vault: TokenVault;
  now?: () => number;
}

export const DEFAULT_TIMEOUT_MS = 15_000;
/** Generous: the biggest page the service documents is far below this. */
export const DEFAULT_MAX_RESPONSE_MIB = 64;

function badRequest(message: string, hint?: string): PartnerError {
  return new PartnerError({ code: 'BAD_REQUEST', message, retryable: false, ...(hint ? { hint } : {}) });
}

function notFound(message: string): PartnerError {
  return new PartnerError({ code: 'NOT_FOUND', message, retryable: false });
}

/** What an HTTP header can carry as a token: visible ASCII, no spaces (the client refuses the rest). */
const TOKEN_CHARS = /^[\x21-\x7e]+$/;

export class ProfileStore {
  readonly settingsProblem: string | null;
  readonly path: string;
  private readonly file: LoadedSettingsFile;
  private readonly now: () => number;
  private state: PersistedState;
  private readonly ephemeral = new Map<string, StoredProfile>();
  /** Plain tokens this process has seen (opened or added): masked wherever text leaves the main process. */
  private readonly known = new Set<string>();

  constructor(private readonly options: ProfileStoreOptions) {
    this.now = options.now ?? Date.now;
    this.file = loadSettingsFile(options.dataDir, this.now);
    this.state = this.file.state;
    this.settingsProblem = this.file.problem;
    this.path = this.file.path;
  }

  get tokenStorage(): TokenVault['kind'] {
    return this.options.vault.kind;
  }

  // ---- profiles

  list(): ProfileView[] {
    return [...this.state.profiles, ...this.ephemeral.values()].map((p) => toView(p));
  }

  get(id: string): ProfileRecord | undefined {
    const stored = this.state.profiles.find((p) => p.id === id);
    if (stored) return { ...stored, persisted: true };
    const eph = this.ephemeral.get(id);
    return eph ? { ...eph, persisted: false } : undefined;
  }

  view(id: string): ProfileView {
    const record = this.get(id);
    if (!record) throw notFound(`No profile with id "${id}".`);
    return toView(record);
  }

  /**
   * Creates (no id) or updates a profile. `ephemeral`: kept in memory only (web mode flags).
   * Throws BAD_REQUEST when the result would have no token, NOT_FOUND for an unknown id.
   */
  save(input: ProfileInput, options: { ephemeral?: boolean } = {}): ProfileView {
    const at = this.now();
    const existing = input.id === undefined ? undefined : this.get(input.id);
    if (input.id !== undefined && !existing) throw notFound(`No profile with id "${input.id}" to update.`);
    const removeIds = new Set(input.removeTokenIds);
    const unknownIds = [...removeIds].filter((id) => !existing?.tokens.some((t) => t.id === id));
    if (unknownIds.length > 0) throw badRequest(`Unknown token id(s) to remove: ${unknownIds.join(', ')}.`);
    const kept = (existing?.tokens ?? []).filter((t) => !removeIds.has(t.id));
    const keptPlain = new Set(kept.flatMap((t) => this.tryOpen(t)));
    const added: StoredToken[] = [];
    const presentation = input.tokenPresentation ?? existing?.tokenPresentation ?? DEFAULT_TOKEN_PRESENTATION;
    const scheme = presentation.scheme?.trim() || null;
    if (scheme !== null && !TOKEN_SCHEME.test(scheme))
      throw badRequest(`tokenPresentation.scheme must be one word (letters, digits, -._~ and the like), got "${scheme.slice(0, 40)}".`);
    for (const [i, token] of input.addTokens.entries()) {
      const plain = token.trim();
      if (plain !== '' && !TOKEN_CHARS.test(plain)) {
        throw badRequest(`addTokens.${i}: a token may hold only visible ASCII characters (no spaces or line breaks).`);
      }
      if (plain === '' || keptPlain.has(plain)) continue; // the same token twice gives nothing
      keptPlain.add(plain);
      this.known.add(plain);
      added.push({ id: `t_${randomUUID().slice(0, 8)}`, sealed: this.seal(plain), masked: maskToken(plain) });
    }
    const tokens = [...kept, ...added];
    if (tokens.length === 0) throw badRequest('A profile needs at least one token.', 'Add the vendor token the Partner service gave you.');
    const urlProblem = baseUrlProblem(input.baseUrl);
    if (urlProblem) throw badRequest(`The base URL ${urlProblem}.`);
    const profile: StoredProfile = {
      id: existing?.id ?? `p_${randomUUID()}`,
      name: input.name.trim(),
      vendor: input.vendor.trim(),
      baseUrl: normalizeBaseUrl(input.baseUrl),
      tokens,
      tokenPresentation: { header: presentation.header, scheme },
      ...mapWithFormNames(input, existing),
      ...(!input.serviceMap && existing?.serviceMap && existing.serviceMapDetected ? { serviceMapDetected: true } : {}),
      // An older profile's names, edited in the form, are still names only: detected at first contact as before.
      ...(!input.serviceMap && existing?.serviceMapNamesOnly ? { serviceMapNamesOnly: true } : {}),
      ...this.keptBudgetStore(input.budgetStore, existing),
      createdAt: existing?.createdAt ?? at,
      updatedAt: at,
    };
    const persist = existing ? existing.persisted : !options.ephemeral;
    if (persist) {
      const profiles = existing ? this.state.profiles.map((p) => (p.id === profile.id ? profile : p)) : [...this.state.profiles, profile];
      this.commit({ ...this.state, profiles });
    } else {
      this.ephemeral.set(profile.id, profile);
    }
    return toView(profile);
  }

  /**
   * Stores a profile's service map (the form's two names are read from it).
   * `detected`: found by detection, not yet reviewed by the user (a save without it is the user's own).
   */
  saveServiceMap(id: string, map: ServiceMap, options: { detected?: boolean } = {}): ProfileView {
    const record = this.get(id);
    if (!record) throw notFound(`No profile with id "${id}".`);
    const { persisted, serviceMapDetected: _was, serviceMapNamesOnly: _namesOnly, ...stored } = record;
    const profile: StoredProfile = {
      ...stored,
      ...(options.detected ? { serviceMapDetected: true } : {}),
      serviceMap: map,
      updatedAt: this.now(),
    };
    if (persisted) this.commit({ ...this.state, profiles: this.state.profiles.map((p) => (p.id === id ? profile : p)) });
    else this.ephemeral.set(id, profile);
    return toView(profile);
  }

  remove(id: string): void {
    const record = this.get(id);
    if (!record) throw notFound(`No profile with id "${id}".`);
    if (!record.persisted) {
      this.ephemeral.delete(id);
      if (this.state.activeId === id) this.commit({ ...this.state, activeId: null });
      return;
    }
    this.commit({
      ...this.state,
      profiles: this.state.profiles.filter((p) => p.id !== id),
      activeId: this.state.activeId === id ? null : this.state.activeId,
    });
  }

  /** Ids of a profile's tokens that the vault can no longer open (memory-only tokens from an earlier run). */
  lostTokenIds(id: string): string[] {
    const tokens = this.get(id)?.tokens ?? [];
    return tokens
      .filter((t) => {
        try {
          this.options.vault.open(t.sealed);
          return false;
        } catch {
          return true;
        }
      })
      .map((t) => t.id);
  }

  /** The plain tokens of a profile, in memory, for its client. Throws when the vault cannot open them. */
  openTokens(id: string): string[] {
    const record = this.get(id);
    if (!record) throw notFound(`No profile with id "${id}".`);
    return record.tokens.map((t) => {
      let plain: string;
      try {
        plain = this.options.vault.open(t.sealed);
      } catch (e) {
        throw new PartnerError({
          code: 'UNAUTHORIZED',
          message: `The token ${t.masked} of profile "${record.name}" could not be decrypted (${redactText((e as Error).message, this.known)}).`,
          hint: 'Remove the token from the profile and add it again.',
          retryable: false,
        });
      }
      this.known.add(plain);
      return plain;
    });
  }

  /** Every plain token this process has seen, for masking logs and error texts. */
  knownTokens(): string[] {
    return [...this.known];
  }

  /** The header names that carry tokens in some profile (for masking request logs), lower case. */
  tokenHeaders(): Set<string> {
    return new Set([...this.state.profiles, ...this.ephemeral.values()].map((p) => p.tokenPresentation.header.toLowerCase()));
  }

  get activeId(): string | null {
    return this.state.activeId;
  }

  /** Remembers the active profile (any id the app knows, the built-in demo's included). */
  setActive(id: string | null): void {
    if (this.state.activeId === id) return;
    this.commit({ ...this.state, activeId: id });
  }

  // ---- settings

  settings(): Settings {
    const s = this.state.settings;
    return {
      theme: s.theme ?? 'system',
      // A relative folder from a hand-edited file would land wherever the app was started: the default instead.
      downloadDir: s.downloadDir !== undefined && isAbsolute(s.downloadDir) ? s.downloadDir : join(this.options.dataDir, 'downloads'),
      pageSize: s.pageSize ?? PAGE_SIZE_DEFAULT,
      timeoutMs: s.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      // Absent means the default (DEFAULT_MAX_RESPONSE_MIB), read where the cap is applied.
      ...(s.maxResponseMiB === undefined ? {} : { maxResponseMiB: s.maxResponseMiB }),
      ...(s.giveUpAfterMinutes === undefined ? {} : { giveUpAfterMinutes: s.giveUpAfterMinutes }),
      ...(s.usageHistory === undefined ? {} : { usageHistory: s.usageHistory }),
    };
  }

  saveSettings(patch: Partial<Settings>): Settings {
    const next = { ...this.state.settings };
    for (const [key, value] of Object.entries(patch) as [keyof Settings, unknown][]) {
      if (value === undefined) continue;
      if (key === 'downloadDir') {
        const dir = String(value).trim();
        if (dir === '') {
          delete next.downloadDir; // back to the default
          continue;
        }
        if (!isAbsolute(dir)) throw badRequest(`downloadDir must be an absolute path, got "${dir}".`);
        next.downloadDir = dir;
      } else {
        (next as Record<string, unknown>)[key] = value;
      }
    }
    this.commit({ ...this.state, settings: next });
    return this.settings();
  }

  /** The profile's budget store URL with its credentials (opened from the vault); undefined: none. */
  openBudgetStore(id: string): string | undefined {
    const record = this.get(id);
    if (!record?.budgetStore || record.budgetStoreSealed === undefined) return record?.budgetStore;
    try {
      return this.options.vault.open(record.budgetStoreSealed);
    } catch {
      // Sealed by an earlier run's memory vault: without credentials, Redis says what is missing.
      return withoutCredentials(record.budgetStore);
    }
  }

  /**
   * The budget store to keep: absent or the view's masked form keeps the stored one, '' removes it. A URL
   * with credentials is sealed as tokens are; the file holds only its masked form.
   */
  private keptBudgetStore(input: string | undefined, existing: StoredProfile | undefined): Pick<StoredProfile, 'budgetStore' | 'budgetStoreSealed'> {
    const stored = existing?.budgetStore;
    const keep = input === undefined || (stored !== undefined && input === maskStoreUrl(stored));
    if (keep && existing?.budgetStoreSealed) return { budgetStore: stored, budgetStoreSealed: existing.budgetStoreSealed };
    // Kept as it is, or sealed now when an earlier version wrote its password in plain.
    const url = keep ? (stored ?? '') : input.trim();
    if (!url) return {};
    return withoutCredentials(url) === url ? { budgetStore: url } : { budgetStore: maskStoreUrl(url), budgetStoreSealed: this.seal(url) };
  }

  private seal(plain: string): string {
    try {
      return this.options.vault.seal(plain);
    } catch (e) {
      throw new PartnerError({
        code: 'INTERNAL',
        message: `The token could not be encrypted for storage (${redactText((e as Error).message, [plain])}); it was not saved.`,
        retryable: false,
      });
    }
  }

  private tryOpen(token: StoredToken): string[] {
    try {
      return [this.options.vault.open(token.sealed)];
    } catch {
      return [];
    }
  }

  /** Writes first, then takes the new state: a failed write leaves memory as the file is. */
  private commit(next: PersistedState): void {
    try {
      this.file.write(next);
    } catch (e) {
      throw new PartnerError({
        code: 'INTERNAL',
        message: `Could not save the settings file ${this.path}: ${(e as Error).message}`,
        hint: 'Check that the data directory is writable and the disk is not full.',
        retryable: true,
      });
    }
    this.state = next;
  }
}

/**
 * The map a save keeps: an imported one as it is; else the profile's (or the default dialect) with the
 * form's two names written in where the user changed them. The default dialect unchanged stays no
 * map, so that the profile is still detected at its first contact.
 */
function mapWithFormNames(input: ProfileInput, existing: StoredProfile | undefined): Pick<StoredProfile, 'serviceMap'> {
  if (input.serviceMap) return { serviceMap: input.serviceMap };
  const base = profileServiceMap(existing ?? {});
  const map = withFormNames(base, input);
  if (map === DEFAULT_SERVICE_MAP) return {};
  const parsed = parseServiceMap(map);
  if (!parsed.ok) throw badRequest(`The page-size parameter or the id field cannot be used: ${parsed.errors.join('; ')}.`);
  return { serviceMap: parsed.map };
}

export function toView(profile: StoredProfile, demo = false): ProfileView {
  return {
    id: profile.id,
    name: profile.name,
    vendor: profile.vendor,
    baseUrl: profile.baseUrl,
    demo,
    tokens: profile.tokens.map((t) => ({ id: t.id, masked: t.masked })),
    tokenPresentation: { ...profile.tokenPresentation },
    ...formNames(profileServiceMap(profile)),
    ...(profile.budgetStore ? { budgetStore: maskStoreUrl(profile.budgetStore) } : {}),
  };
}

/** A store URL without its user name and password (the same text when it has none). */
function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    // An earlier version kept `?password=` as written: it is a credential too (now refused on use).
    const inQuery = [...parsed.searchParams.keys()].filter((k) => /^(password|pass|username|user)$/i.test(k));
    if (parsed.username === '' && parsed.password === '' && inQuery.length === 0) return url;
    parsed.username = '';
    parsed.password = '';
    for (const k of inQuery) parsed.searchParams.delete(k);
    return parsed.toString();
  } catch {
    return url;
  }
}
