/**
 * The six purchase operations over the rate-aware client, called and read through the profile's
 * service map (shared/service-map/): no field name of a service's payloads is written here.
 * Arguments are checked before anything is sent. Answers are read tolerantly: a 2xx is never an
 * error because its body does not fit; the result names the fields it could not read (`missing`)
 * and carries the body (`raw`). Errors are PartnerErrors (shared/errors.ts):
 *   BAD_REQUEST (bad argument, not sent; or 400), UNAUTHORIZED, NOT_FOUND (unknown purchase),
 *   CONFLICT (the purchase's state forbids it), RATE_LIMITED, SERVER_ERROR, NETWORK, TIMEOUT,
 *   CANCELLED, INVALID_RESPONSE (a URL answer without a usable http(s) link), and for register
 *   only UNKNOWN_OUTCOME.
 *
 * Registration is the one operation that creates something and the service promises no
 * idempotency, so the client never resends it after an unknown outcome (a 400 created nothing: when its
 * message names the asset field the map guessed wrong, it is sent once more that way, learned-names.ts). Each registration carries
 * a client reference (where the map has a field for it); any 2xx answer means a purchase may
 * exist, so it is returned as registered, `unresolved` when its id could not be read. If the
 * outcome is unknown, the error names the reference and how to look it up before registering again,
 * and carries it as body.client_reference (the service's own body, if any, as body.response).
 * The reference also travels as an idempotency key header (map: idempotencyHeader): a service that
 * honours it answers a resend the user confirms with the first answer; the client still never
 * resends on its own. A 409 to a keyed registration is "still in progress or already done: look it up".
 */
import { randomUUID } from 'node:crypto';
import { ENDPOINTS } from '../../shared/endpoints';
import type { EndpointId } from '../../shared/endpoints';
import { PartnerError, isPartnerError } from '../../shared/errors';
import { readPurchaseOrDetect, readUrlOrDetect } from '../../shared/service-map/fallback';
import { validateFrom400 } from '../../shared/service-map/learn';
import { LearnedNames } from '../service-map/learned-names';
import { checkedAfterConflict } from './conflict-lookup';
import type { AttemptWatch } from './conflict-lookup';
import { readPurchaseList } from '../../shared/service-map/read';
import type { PurchaseRead, Read } from '../../shared/service-map/read';
import { lookupRequest, purchaseRequest, registerRequest, validateRequest } from '../../shared/service-map/requests';
import type { RequestParts } from '../../shared/service-map/requests';
import { parseJsonExact } from '../../shared/json/parse-exact';
import { stringifyJsonExact } from '../../shared/json/stringify-exact';
import { DEFAULT_SERVICE_MAP } from '../../shared/service-map/schema';
import type { ServiceMap } from '../../shared/service-map/schema';
import type { Id } from '../../shared/service-map/values';
import { NumberText } from '../../shared/json/number-text';
import type { ApiResponse, Priority, RequestOptions } from '../client';

/** The part of PartnerClient used here (structural, so tests can pass a fake). */
export interface PurchaseClient {
  request<T = unknown>(endpoint: EndpointId, options?: RequestOptions): Promise<ApiResponse<T>>;
}

export interface PurchaseCallOptions {
  signal?: AbortSignal;
  /** Default 'interactive' (a user's click). */
  priority?: Priority;
  /** A specific token of the vendor. */
  token?: string;
}

/** A call whose attempts are watched (conflict-lookup.ts). */
type WatchedOptions = PurchaseCallOptions & { onSample?: AttemptWatch };

export interface RegisterOptions extends PurchaseCallOptions {
  /** The client reference to send (e.g. one a ledger wrote first); default a fresh one. */
  reference?: string;
  /** The intent's body under its key (the ledger keeps it): resent exactly when known, else the one built is kept. */
  body?: IntentBody;
}

/** A registration intent's body as first sent (exact JSON text), and how to keep the one sent now. */
export interface IntentBody {
  sent: string | null;
  keep(text: string): void;
}

export interface PurchaseServiceOptions {
  /** How this service is called and read; default the built-in simulator's dialect. */
  map?: ServiceMap;
  /** The session's request names, with what the service's 400s taught (default: the map's, this service only). */
  names?: LearnedNames;
  /** Makes a fresh client reference per registration (default: 'pc-' + a random UUID). */
  newReference?: () => string;
  now?: () => number;
}

/** A purchase as read, with what could not be read (asset_id '' when the answer does not say). */
export interface Purchase extends Omit<PurchaseRead, 'asset_id'> {
  [field: string]: unknown;
  asset_id: Id;
  missing: string[];
  warnings: string[];
  /** The answer, when part of it could not be read. */
  raw?: unknown;
  /** A registration answered 2xx whose purchase id could not be read: it may exist. */
  unresolved?: boolean;
}

export interface PurchaseUrl {
  purchaseId: string;
  url: string;
  expiresAt: string | null;
  missing: string[];
  warnings: string[];
  /** How the answer was read (a detected layout to save), not a fault. */
  notes?: string[];
  raw?: unknown;
}

const MAX_ID_LENGTH = 200;

function badArgument(endpoint: EndpointId, message: string): PartnerError {
  return new PartnerError({ code: 'BAD_REQUEST', message: `${ENDPOINTS[endpoint].label}: ${message}. Not sent.`, endpoint, retryable: false });
}

function checkId(endpoint: EndpointId, name: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw badArgument(endpoint, `${name} must be a non-empty string`);
  if (value.length > MAX_ID_LENGTH) throw badArgument(endpoint, `${name} is longer than ${MAX_ID_LENGTH} characters`);
  return value.trim();
}

function checkAssetId(endpoint: EndpointId, value: unknown): Id {
  if (value instanceof NumberText) return value;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  if (typeof value === 'string' && value.trim() !== '' && value.length <= MAX_ID_LENGTH) return value.trim();
  throw badArgument(endpoint, 'assetId must be a whole number or a non-empty id');
}

/** The read purchase, with `raw` only when something was missing. */
function withReadInfo(read: Read<PurchaseRead> & { notes?: string[] }): Purchase {
  const { asset_id, ...rest } = read.value;
  const notes = read.notes?.length ? { notes: read.notes } : {};
  return { ...rest, asset_id: asset_id ?? '', missing: read.missing, warnings: read.warnings, ...notes, ...(read.missing.length > 0 ? { raw: read.raw } : {}) };
}

/** What a 400 taught (a request name), said with the result as information. */
function withNote(purchase: Purchase, note: string | null): Purchase {
  return note === null ? purchase : { ...purchase, notes: [...((purchase.notes as string[] | undefined) ?? []), note] };
}

/** The service's own message in an error answer (Yii2: `{name, message, code, status}`), else ours. */
function serviceWords(e: PartnerError): string {
  const body = e.data.body as { message?: unknown } | undefined;
  return typeof body?.message === 'string' ? body.message : e.message.replace(/^.*?answered \d+[^:]*:/, '');
}

/**
 * The items of a lookup that are this registration's: its reference read and equal (no readable
 * reference is no match), and its asset equal where both are known. The rest is named in a warning.
 */
function matchingReference(items: Purchase[], reference: string, assetId: number | string | undefined): { items: Purchase[]; warnings: string[] } {
  const asset = assetId === undefined ? '' : String(assetId);
  const unreadable = items.filter((p) => p.client_reference === undefined).length;
  const otherRef = items.filter((p) => p.client_reference !== undefined && p.client_reference !== reference).length;
  const sameRef = items.filter((p) => p.client_reference === reference);
  const kept = sameRef.filter((p) => asset === '' || p.asset_id === '' || String(p.asset_id) === asset);
  const otherAsset = sameRef.length - kept.length;
  const warnings: string[] = [];
  if (unreadable > 0)
    warnings.push(
      `${unreadable} item(s) of the lookup's answer carry no readable reference (service map: purchase.reference): not taken as reference ${reference}.`,
    );
  if (otherRef > 0)
    warnings.push(
      `${otherRef} item(s) of the lookup's answer carry another reference than ${reference}: the service seems to ignore the lookup's filter; they were left out.`,
    );
  if (otherAsset > 0) warnings.push(`${otherAsset} item(s) with reference ${reference} are of another asset than ${asset}: left out.`);
  return { items: kept, warnings };
}

export class PurchaseService {
  readonly map: ServiceMap;
  /** How validate is sent, once a 400 showed the map's way wrong (this session only; the warning says what to save). */
  private learnedValidate: ServiceMap['validate'] | null = null;
  private readonly newReference: () => string;
  private readonly now: () => number;
  private readonly names: LearnedNames;
  /** Registrations, validations and cancels under way: closing the client would abort them, and an aborted one's outcome is unknown. */
  private readonly underWay = new Set<Promise<unknown>>();

  constructor(
    private readonly client: PurchaseClient,
    options: PurchaseServiceOptions = {},
  ) {
    this.map = options.map ?? DEFAULT_SERVICE_MAP;
    this.names = options.names ?? new LearnedNames(this.map);
    this.newReference = options.newReference ?? (() => `pc-${randomUUID()}`);
    this.now = options.now ?? Date.now;
  }

  /** Whether the service can find purchases by their registration's reference (the map says). */
  get canFindByReference(): boolean {
    return this.map.lookupByReference !== null;
  }

  /** A purchase by id. */
  async info(purchaseId: string, options: PurchaseCallOptions = {}): Promise<Purchase> {
    return this.act('purchaseInfo', purchaseId, options);
  }

  /**
   * Purchases registered with a client reference (how to find out what an unknown outcome did).
   * Only items whose readable reference is this one (and asset, where both are known) are returned:
   * a service that ignores the filter must not make another registration's purchase look like this one.
   */
  async findByReference(
    reference: string,
    options: PurchaseCallOptions & { assetId?: number | string } = {},
  ): Promise<{ items: Purchase[]; missing: string[]; warnings: string[]; raw?: unknown }> {
    const ref = checkId('purchaseInfo', 'reference', reference);
    const { assetId, ...callOptions } = options;
    const parts = lookupRequest(this.map, ref);
    if (parts === null) {
      throw new PartnerError({
        code: 'NOT_FOUND',
        message: 'This service has no lookup of purchases by reference (service map: lookupByReference is off).',
        hint: "Open the purchase by its id instead, or set the lookup in the profile's service map if the service has one.",
        retryable: false,
      });
    }
    const res = await this.client.request('purchaseInfo', { ...callOptions, ...parts });
    const read = readPurchaseList(res.body, this.map);
    const answered = read.value.map((p) => withReadInfo({ value: p, missing: [], warnings: [], raw: undefined }));
    const { items, warnings } = matchingReference(answered, ref, assetId);
    const all = [...read.warnings, ...warnings];
    const keepRaw = read.missing.length > 0 || warnings.length > 0;
    return { items, missing: read.missing, warnings: all, ...(keepRaw ? { raw: read.raw } : {}) };
  }

  /**
   * Registers a purchase of an asset; sent once, never resent blindly. Any 2xx is a purchase that
   * may exist: returned as registered, `unresolved` (with the raw answer) when its id is unreadable.
   */
  register(assetId: Id, options: RegisterOptions = {}): Promise<Purchase> {
    return this.tracked(this.sendRegistration(assetId, options));
  }

  /** Resolves once every registration, validation and cancel under way now has ended (answered or failed). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.underWay]);
  }

  private tracked<T>(call: Promise<T>): Promise<T> {
    this.underWay.add(call);
    const done = (): void => void this.underWay.delete(call);
    call.then(done, done);
    return call;
  }

  private async sendRegistration(assetId: Id, options: RegisterOptions): Promise<Purchase> {
    const asset = checkAssetId('registerPurchase', assetId);
    const reference = options.reference ?? this.newReference();
    const { reference: _chosen, body: intent, ...callOptions } = options;
    let res: ApiResponse;
    let learnedNote: string | null = null;
    try {
      if (intent?.sent != null) {
        // A resend under the intent's key: exactly the body first sent (another map or id form would be another request to the service).
        const { headers } = registerRequest(this.names.map, asset, reference);
        res = await this.client.request('registerPurchase', { ...callOptions, body: parseJsonExact(intent.sent), ...(headers ? { headers } : {}) });
      } else {
        // A 400 naming the asset field the map guessed wrong created nothing: sent once more that way.
        const build = (m: ServiceMap): RequestParts => {
          const parts = registerRequest(m, asset, reference);
          intent?.keep(stringifyJsonExact(parts.body)!);
          return parts;
        };
        ({ res, note: learnedNote } = await this.names.send(this.client, 'register.assetIdField', 'registerPurchase', build, callOptions));
      }
    } catch (e) {
      if (isPartnerError(e) && e.code === 'UNKNOWN_OUTCOME') {
        throw new PartnerError({
          ...e.data,
          message: `${e.message} Registration reference: ${reference}.`,
          hint: this.canFindByReference
            ? `It may or may not have been registered. Before registering again, look it up by its reference ${reference} (Find a purchase).`
            : `It may or may not have been registered. This service has no lookup by reference: check with the vendor before registering again (reference ${reference}).`,
          // The reference as data, so the renderer need not parse it out of the words.
          body: { client_reference: reference, ...(e.data.body !== undefined ? { response: e.data.body } : {}) },
        });
      }
      // 409 (in flight) or 422 (the key with another body): the key's first request may have bought it.
      if (isPartnerError(e) && (e.code === 'CONFLICT' || e.data.status === 422) && this.map.idempotencyHeader !== null) throw this.keyConflict(e, reference);
      throw e;
    }
    const read = readPurchaseOrDetect(res.body, this.map);
    const purchase = withNote(withReadInfo(read), learnedNote);
    const unresolved = purchase.id === '';
    const warnings = unresolved
      ? [
          ...purchase.warnings,
          `The service accepted the registration (HTTP ${res.status}) but its answer names no purchase id: a purchase may exist (reference ${reference}).`,
        ]
      : purchase.warnings;
    return {
      ...purchase,
      // What was sent, where the answer does not say.
      asset_id: purchase.asset_id === '' ? asset : purchase.asset_id,
      // The reference is how this purchase is found again; keep it on the result even if not echoed.
      client_reference: purchase.client_reference ?? reference,
      ...(purchase.state === '' ? { state: 'registered', stateKind: 'registered' as const, actions: this.actionsOf('registered') } : {}),
      warnings,
      ...(unresolved ? { unresolved: true, raw: read.raw } : {}),
    };
  }

  /** Validates a purchase before payment; sends the purchase's or the asset's id, as the map says (a 409 is checked, as Cancel's). */
  validate(purchaseId: string, options: PurchaseCallOptions & { assetId?: Id } = {}): Promise<Purchase> {
    const { assetId: _asset, ...callOptions } = options;
    const lookup = (): Promise<Purchase> => this.info(purchaseId, callOptions);
    return this.tracked(checkedAfterConflict('validatePurchase', purchaseId, (onSample) => this.sendValidation(purchaseId, { ...options, onSample }), lookup));
  }

  private async sendValidation(purchaseId: string, options: WatchedOptions & { assetId?: Id }): Promise<Purchase> {
    const id = checkId('validatePurchase', 'purchaseId', purchaseId);
    const { assetId, ...callOptions } = options;
    const send = async (shape: ServiceMap['validate']): Promise<ApiResponse> => {
      let asset: Id = id;
      if (shape.takes === 'asset') {
        // The asset of the purchase: given, or asked for (one purchase info).
        const known = assetId ?? (await this.info(id, callOptions)).asset_id;
        if (known === '') throw badArgument('validatePurchase', "this service validates by the asset's id, and the purchase's asset is not known");
        asset = checkAssetId('validatePurchase', known);
      }
      return this.client.request('validatePurchase', {
        ...callOptions,
        ...validateRequest({ ...this.map, validate: shape }, { purchaseId: id, assetId: asset }),
      });
    };
    const shape = this.learnedValidate ?? this.map.validate;
    try {
      return this.purchaseFrom((await send(shape)).body, id);
    } catch (e) {
      // A 400 created nothing: if its words name what the service wanted, send once more that way.
      const learned = isPartnerError(e) && e.data.status === 400 ? validateFrom400(serviceWords(e), shape) : null;
      if (learned === null) throw e;
      const purchase = this.purchaseFrom((await send(learned)).body, id);
      this.learnedValidate = learned;
      const how = `${learned.takes === 'asset' ? "the asset's id" : "the purchase's id"} as ${learned.in} \`${learned.name}\``;
      return {
        ...purchase,
        warnings: [
          ...purchase.warnings,
          `Validate was refused as the service map says (400) and sent again with ${how}, as the service's answer asked. Save validate = ${JSON.stringify(learned)} in the profile's service map.`,
        ],
      };
    }
  }

  /** The download link of a validated purchase. */
  async downloadUrl(purchaseId: string, options: PurchaseCallOptions = {}): Promise<PurchaseUrl> {
    return this.link('downloadUrl', purchaseId, options);
  }

  /** The view link of a purchase. */
  async viewUrl(purchaseId: string, options: PurchaseCallOptions = {}): Promise<PurchaseUrl> {
    return this.link('viewUrl', purchaseId, options);
  }

  /** Cancels a purchase (a 409 is checked with a purchase info: a resend's 409 may mean it is done). */
  cancel(purchaseId: string, options: PurchaseCallOptions = {}): Promise<Purchase> {
    const lookup = (): Promise<Purchase> => this.info(purchaseId, options);
    return this.tracked(
      checkedAfterConflict('cancelPurchase', purchaseId, (onSample) => this.act('cancelPurchase', purchaseId, { ...options, onSample }), lookup),
    );
  }

  /**
   * A 409 to a keyed registration: the service holds a registration with this key, in flight or
   * done. Its outcome is not known here (never "failed": that would let the asset be bought again).
   */
  private keyConflict(e: PartnerError, reference: string): PartnerError {
    const lookup = this.canFindByReference ? `look it up by its reference ${reference} (Find a purchase)` : `check with the vendor (reference ${reference})`;
    return new PartnerError({
      ...e.data,
      code: 'UNKNOWN_OUTCOME',
      message: `Registration ${reference} is still in progress or already done at the service (it answered ${e.data.status ?? 409} to its ${this.map.idempotencyHeader} ${reference}): look it up. Service said: ${serviceWords(e).trim()}`,
      hint: `Before registering again, ${lookup}.`,
      retryable: false,
      body: { client_reference: reference, idempotency: 'in-progress-or-done', ...(e.data.body !== undefined ? { response: e.data.body } : {}) },
    });
  }

  private actionsOf(word: string): Purchase['actions'] {
    return [...(this.map.states.find((s) => s.state === word)?.actions ?? [])];
  }

  private async act(endpoint: 'purchaseInfo' | 'cancelPurchase', purchaseId: string, options: WatchedOptions): Promise<Purchase> {
    const id = checkId(endpoint, 'purchaseId', purchaseId);
    const { res, note } = await this.names.send(this.client, 'purchaseId', endpoint, (m) => purchaseRequest(m, endpoint, id), options);
    return withNote(this.purchaseFrom(res.body, id), note);
  }

  /** A purchase answer; the id asked for stands in where the answer gives none. */
  private purchaseFrom(body: unknown, purchaseId: string): Purchase {
    const purchase = withReadInfo(readPurchaseOrDetect(body, this.map));
    return purchase.id === '' ? { ...purchase, id: purchaseId, raw: body } : purchase;
  }

  private async link(endpoint: 'downloadUrl' | 'viewUrl', purchaseId: string, options: PurchaseCallOptions): Promise<PurchaseUrl> {
    const id = checkId(endpoint, 'purchaseId', purchaseId);
    const { res, note } = await this.names.send(this.client, 'purchaseId', endpoint, (m) => purchaseRequest(m, endpoint, id), options);
    const read = readUrlOrDetect(res.body, this.map, this.now());
    if (read.value.url === null) {
      // Nothing to open: the one answer that cannot be shown as a result. The body travels with the error.
      throw new PartnerError({
        code: 'INVALID_RESPONSE',
        message: `${ENDPOINTS[endpoint].label} answered without an http(s) link at \`${this.map.url.url}\` (service map: url.url).`,
        endpoint,
        retryable: false,
        body: res.body,
      });
    }
    const all = [...read.notes, ...(note === null ? [] : [note])];
    const notes = all.length > 0 ? { notes: all } : {};
    return {
      purchaseId: id,
      url: read.value.url,
      expiresAt: read.value.expiresAt,
      missing: read.missing,
      warnings: read.warnings,
      ...notes,
      ...(read.missing.length > 0 ? { raw: read.raw } : {}),
    };
  }
}
