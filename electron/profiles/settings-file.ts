/**
 * The settings file, through `conf` (atomic writes: a crash mid-write never corrupts it).
 * Read and validated by us first: a file that is not valid JSON or not our shape is moved aside
 * (config.json.corrupt-<timestamp>) and reported, never silently replaced or cleared; a file whose only
 * faults are preferences keeps its profiles, and those preferences go back to their defaults (reported).
 */
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import Conf from 'conf';
import { asWrittenProfile, namesAsWritten, withVouchedMirror } from './legacy-names';
import { NamesRecordError, openNamesSidecar } from './names-sidecar';
import { persistedStateSchema, SETTINGS_FILE_VERSION } from './profile-types';
import type { PersistedState } from './profile-types';
import { saveWithNamesRecord } from './settings-save';

export const SETTINGS_FILE_NAME = 'config.json';
const PROJECT_NAME = 'partner-console';

export interface LoadedSettingsFile {
  state: PersistedState;
  /** A sentence for appInfo.settingsProblem, or null. */
  problem: string | null;
  write(state: PersistedState): void;
  path: string;
}

export function emptyState(): PersistedState {
  return { version: SETTINGS_FILE_VERSION, profiles: [], activeId: null, settings: {} };
}

function timestampForFileName(ms: number): string {
  return new Date(ms).toISOString().replace(/[:.]/g, '-');
}

/**
 * Why the file cannot be used, or null when it is fine; the parsed state when it is (`dropped`: preferences
 * back to their defaults; `migrated`: profiles' names are not as this build writes them (read into the maps from an
 * older build's file, or missing as the build before wrote them): written back once, for both builds to read).
 */
function readState(
  path: string,
  noPageSize: ReadonlySet<string>,
): { state: PersistedState | null; reason: string | null; dropped?: string[]; migrated?: boolean } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { state: null, reason: null };
    return { state: null, reason: `it could not be read (${code ?? (e as Error).message})` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { state: null, reason: `it is not valid JSON (${(e as Error).message})` };
  }
  const held = (json as { profiles?: unknown } | null)?.profiles;
  const raw = Array.isArray(held) ? (held as unknown[]) : null;
  if (raw) json = { ...(json as object), profiles: raw.map((p) => withVouchedMirror(p, noPageSize)) };
  const migrated = (state: PersistedState) => raw !== null && state.profiles.some((p, i) => !namesAsWritten(raw[i], asWrittenProfile(p)));
  const parsed = persistedStateSchema.safeParse(json);
  if (!parsed.success) {
    const repaired = withoutBadPreferences(json, parsed.error.issues);
    if (repaired) return { state: repaired.state, reason: null, dropped: repaired.dropped, migrated: migrated(repaired.state) };
    const first = parsed.error.issues[0];
    const where = first && first.path.length > 0 ? first.path.join('.') : 'the top level';
    return { state: null, reason: `it does not hold valid settings (${where}: ${first?.message ?? 'invalid'})` };
  }
  return { state: parsed.data, reason: null, migrated: migrated(parsed.data) };
}

/**
 * A file whose only faults are preferences (a hand-edited value out of range, say): those go back to their
 * defaults, named in the problem with the value that was there, and the profiles and other settings are
 * kept. Anything else wrong (a profile, the shape) is not repaired here: the whole file is set aside.
 */
function withoutBadPreferences(
  json: unknown,
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): { state: PersistedState; dropped: string[] } | null {
  if (typeof json !== 'object' || json === null || !issues.every((i) => i.path[0] === 'settings' && typeof i.path[1] === 'string')) return null;
  const source = json as { settings?: unknown };
  if (typeof source.settings !== 'object' || source.settings === null) return null;
  const settings = { ...(source.settings as Record<string, unknown>) };
  const dropped: string[] = [];
  for (const issue of issues) {
    const key = issue.path[1] as string;
    if (!(key in settings)) continue;
    dropped.push(`settings.${key} = ${JSON.stringify(settings[key])?.slice(0, 60)} (${issue.message})`);
    delete settings[key];
  }
  const again = persistedStateSchema.safeParse({ ...source, settings });
  return again.success ? { state: again.data, dropped } : null;
}

export function loadSettingsFile(dataDir: string, now: () => number = Date.now): LoadedSettingsFile {
  const path = join(dataDir, SETTINGS_FILE_NAME);
  const sidecar = openNamesSidecar(dataDir);
  const read = readState(path, sidecar.noPageSize);
  let problem: string | null = read.dropped?.length
    ? `Some preferences in the settings file were invalid and are back to their defaults: ${read.dropped.join('; ')}. Profiles and the other settings are kept.`
    : null;
  let state = read.state;
  const reason = read.reason;
  if (reason !== null && existsSync(path)) {
    const aside = `${path}.corrupt-${timestampForFileName(now())}`;
    try {
      renameSync(path, aside);
      problem = `The settings file was unusable: ${reason}. It was kept as ${aside}; the app started with default settings and no saved profiles.`;
    } catch (e) {
      // Cannot move it: do not overwrite it either; run on defaults in memory and say so.
      problem = `The settings file ${path} is unusable (${reason}) and could not be moved aside (${(e as Error).message}); changes will not be saved until it is fixed or removed.`;
      return { state: emptyState(), problem, path, write: () => refuseWrite(problem!) };
    }
    state = null;
  }
  const conf = new Conf<Record<string, unknown>>({
    cwd: dataDir,
    projectName: PROJECT_NAME,
    configName: 'config',
    fileExtension: 'json',
    clearInvalidConfig: false,
    // Tokens are sealed, but nobody else on the machine needs to read the file at all.
    configFileMode: 0o600,
  });
  const writeConfig = (next: PersistedState) => {
    conf.store = asFile(next);
  };
  if (state) {
    try {
      saveWithNamesRecord(sidecar, state, state, read.migrated ? writeConfig : () => {});
    } catch (e) {
      // config.json read-only for now: the names stay read into the maps in memory, and the next save writes them.
      if (e instanceof NamesRecordError) problem = joined(problem, `${e.message}. The profiles are all read; saving fails until it can be written.`);
    }
  }
  let onDisk = state;
  return {
    state: state ?? emptyState(),
    problem,
    path: conf.path,
    write(next: PersistedState) {
      saveWithNamesRecord(sidecar, onDisk, next, writeConfig);
      onDisk = next;
    },
  };
}

function joined(first: string | null, second: string): string {
  return first === null ? second : `${first} ${second}`;
}

/** What is written: each profile with the two names an older build requires beside its map (legacy-names.ts). */
function asFile(state: PersistedState): Record<string, unknown> {
  return { ...state, profiles: state.profiles.map(asWrittenProfile) };
}

function refuseWrite(problem: string): never {
  throw new Error(problem);
}
