/**
 * The purchase ledger: every registration this app sent (or was about to send), in every session,
 * and every purchase it has seen since. Written before a registration leaves (the write-ahead) and
 * updated by each answer, so that after a crash, a reload or a second instance the app still knows
 * which assets may already be bought. The guard against registering twice reads it here, inside one
 * IMMEDIATE transaction with the write-ahead: two instances cannot both pass it for one asset.
 */
import type { Database } from 'better-sqlite3';
import { UNRESOLVED_STATES, blocksRegistration } from '../../shared/bridge/ledger-schemas';
import type { LedgerRecord, LedgerState } from '../../shared/bridge/ledger-schemas';
import type { ErrorCode, ErrorData } from '../../shared/errors';
import { PartnerError } from '../../shared/errors';
import { processAlive } from '../catalog/file-lock';
import type { Id } from '../../shared/service-map/values';
import { confirmationRequired } from './ledger-guard';
import { baseUrlKey, vendorKey, vendorServiceKey } from '../../shared/vendor-key';
import { LedgerWriteRetry } from './ledger-retry';
import { errorMessage, isStoreDamage } from './store-errors';
import { BRIEF_WAIT_MS, waitingAtMost } from './sqlite-open';
import type { Landing } from './ledger-retry';
import { ledgerStates, listLedger, toRecord } from './ledger-queries';
import type { LedgerQuery, Row } from './ledger-queries';

export type { LedgerQuery };

/** How long a write after a service's answer waits for the lock before the answer is shown and the write retried later. */
export const SETTLE_WAIT_MS = 1_000;
/** A background retry's wait for the lock (sqlite-open.ts BRIEF_WAIT_MS). */
export const RETRY_WAIT_MS = BRIEF_WAIT_MS;

/** The service a record belongs to: purchases are per vendor and base URL (matched as shared/vendor-key.ts folds them). */
export interface LedgerTarget {
  vendor: string;
  baseUrl: string;
  profileId: string;
}

/** What the ledger reads of a purchase answer (a purchase read through the service map). */
export interface SeenPurchase {
  id: string;
  /** null: the answer does not say (recorded as ''). Past 2^53 its digits are recorded (NumberText). */
  asset_id: Id | null;
  state: string;
  client_reference?: string;
  stateKind?: string;
  /** Set when the ledger could not be written at once: it will be, and this says so to the user. */
  ledgerWarning?: string;
  /** A 2xx registration answer whose purchase could not be read: it may exist. */
  unresolved?: boolean;
  raw?: unknown;
}

/** Why an outcome is unknown, in words for the Purchases view (the technical message is kept in `raw`). */
const UNKNOWN_BECAUSE: Partial<Record<ErrorCode, string>> = {
  UNKNOWN_OUTCOME: 'The registration was sent, but no answer that says what happened came back.',
  TIMEOUT: 'The service did not answer in time.',
  INVALID_RESPONSE: 'The answer could not be read.',
  SERVER_ERROR: 'The service failed while answering.',
};

/**
 * Failures after which nothing was bought; any other failure of a registration leaves its outcome unknown.
 * CANCELLED and NETWORK among them: of a registration, the client cancels only one it has not sent (one
 * aborted on the wire is UNKNOWN_OUTCOME), e.g. one still waiting for budget when its profile was
 * disconnected, and says NETWORK only where nothing was sent (the connection or the service's certificate
 * refused: classify.ts); a failure once it was on the wire is UNKNOWN_OUTCOME.
 */
const DEFINITE_REFUSALS: ReadonlySet<ErrorCode> = new Set(['BAD_REQUEST', 'UNAUTHORIZED', 'NOT_FOUND', 'CONFLICT', 'RATE_LIMITED', 'CANCELLED', 'NETWORK']);

/** A purchase's canonical kind: the map's, else the default dialect's word. */
function kindOf(p: SeenPurchase): string | null {
  if (p.stateKind) return p.stateKind;
  const word = p.state.trim().toLowerCase();
  return word === 'cancelled' || word === 'canceled' ? 'cancelled' : null;
}

/** A registration's record as begun: `resend` when it resumed an unresolved intent, with the body that intent was sent with. */
export interface RegistrationIntent {
  record: LedgerRecord;
  resend: boolean;
  sentBody: string | null;
}

/** What a queued write about an asset's registration is about (PurchaseLedger.settle). */
export function assetKey(target: Pick<LedgerTarget, 'vendor' | 'baseUrl'>, assetId: Id | string): string {
  const key = vendorServiceKey(target);
  return `${key.vendor}\n${key.baseUrl}\n${String(assetId)}`;
}

export interface LedgerOptions {
  now?: () => number;
  /** Masks tokens in the notes and raw answers kept (services echo tokens). */
  redact?: (text: string) => string;
  /** This process, and how to tell whether another one still runs (tests pass their own). */
  pid?: number;
  alive?: (pid: number) => boolean;
  log?: (message: string) => void;
}

/** Rows of one vendor at one service, however its label and URL were typed (shared/vendor-key.ts; the args: serviceArgs). */
const SAME_SERVICE = 'vendor_key(vendor) = ? AND base_url_key(base_url) = ?';

function serviceArgs(target: Pick<LedgerTarget, 'vendor' | 'baseUrl'>): [string, string] {
  const key = vendorServiceKey(target);
  return [key.vendor, key.baseUrl];
}

/** A registration's record as the in-flight checks read it. */
interface SendingRow {
  id: number;
  state: LedgerState;
  owner_pid: number | null;
  updated_at: number;
}

/** No registration's send lasts longer (its timeout and a 429 pause, many times over): a "sending" record older is not in flight. */
export const SENDING_AT_MOST_MS = 10 * 60_000;

export class PurchaseLedger {
  private readonly now: () => number;
  /** Records whose registration this ledger is sending now. */
  private readonly sendingHere = new Set<number>();
  private readonly redact: (text: string) => string;
  private readonly pid: number;
  private readonly alive: (pid: number) => boolean;
  private readonly retry: LedgerWriteRetry;
  private readonly log: (message: string) => void;
  /** Why the file was found damaged in use (registering is off until a restart salvages it); null while sound. */
  private damage: string | null = null;

  constructor(
    private readonly db: Database,
    options: LedgerOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.redact = options.redact ?? ((text) => text);
    this.pid = options.pid ?? process.pid;
    this.alive = options.alive ?? processAlive;
    db.function('vendor_key', { deterministic: true }, (v) => vendorKey(String(v)));
    db.function('base_url_key', { deterministic: true }, (v) => baseUrlKey(String(v)));
    this.log = options.log ?? (() => undefined);
    this.retry = new LedgerWriteRetry({ briefly: (write) => waitingAtMost(this.db, RETRY_WAIT_MS, write), log: this.log, dropped: (e) => this.failed(e) });
  }

  /**
   * A write of what the service already did: now, or (the store cannot take it now: locked, full,
   * read-only) retried in the background, in order, until it lands. Not landed: the reason, for the
   * warning the user sees. Never throws: what the service did reaches the user whatever the store does
   * (a write that cannot land is `lost`, and a damaged file turns registering off).
   */
  settle<T>(what: string, write: () => T, about?: string): Landing<T> {
    try {
      return waitingAtMost(this.db, SETTLE_WAIT_MS, () => this.retry.write(what, write, about));
    } catch (e) {
      const reason = this.failed(e);
      this.log(`Ledger write lost (${what}): ${reason}`);
      return { landed: false, reason, lost: true, ...(this.damage !== null ? { registeringOff: true as const } : {}) };
    }
  }

  /** Notes a write that failed for good (a damaged file stops registering); its reason. */
  private failed(e: unknown): string {
    const reason = errorMessage(e);
    if (isStoreDamage(e)) this.damage ??= reason;
    return reason;
  }

  /** Refuses registering once the file was found damaged: the guard can no longer read what it holds. */
  private refuseIfDamaged(): void {
    if (this.damage === null) return;
    throw new PartnerError({
      code: 'LEDGER_UNAVAILABLE',
      message: `The purchase ledger file was found damaged (${this.damage}), so registering is off: the guard against buying twice cannot trust it.`,
      hint: 'Restart the app: it carries the ledger over to a new file when its records all read, and otherwise keeps registering off and says what to do.',
      retryable: false,
    });
  }

  /** Ledger writes still waiting for the store. */
  get pendingWrites(): number {
    return this.retry.pending;
  }

  /** Stops the background retries (the store closes). */
  close(): void {
    this.retry.close();
  }

  get(id: number): LedgerRecord | null {
    const row = this.db.prepare('SELECT * FROM purchase_ledger WHERE id = ?').get(id) as Row | undefined;
    return row ? toRecord(row) : null;
  }

  /** The record of a purchase at this service, if the ledger has seen it. */
  byPurchaseId(target: LedgerTarget, purchaseId: string): LedgerRecord | null {
    const row = this.db.prepare(`SELECT * FROM purchase_ledger WHERE ${SAME_SERVICE} AND purchase_id = ?`).get(...serviceArgs(target), purchaseId) as
      Row | undefined;
    return row ? toRecord(row) : null;
  }

  /** Records of this asset at this service that stop a registration without confirmation. */
  blockers(target: LedgerTarget, assetId: string | number): LedgerRecord[] {
    const rows = this.db
      .prepare(`SELECT * FROM purchase_ledger WHERE ${SAME_SERVICE} AND asset_id = ? ORDER BY updated_at DESC, id DESC`)
      .all(...serviceArgs(target), String(assetId)) as Row[];
    return rows.map(toRecord).filter(blocksRegistration);
  }

  /**
   * The write-ahead: checks the guard and records the registration as "sending", durably, before it
   * is sent (resuming the newest confirmed "unknown" record of the asset and its reference, else a
   * new record with `reference`). Throws CONFIRMATION_REQUIRED (the blocking records in `body.records`) unless every
   * blocking record is confirmed in `seen`, in its present state (ledger-guard.ts).
   */
  beginRegistration(target: LedgerTarget, asset: { id: string | number; title: string | null }, reference: string, seen: readonly string[] = []): LedgerRecord {
    return this.beginIntent(target, asset, reference, seen).record;
  }

  /**
   * beginRegistration, saying whether it resumed an unresolved intent (a keyed resend) and the body
   * that intent was first sent with (to be sent again exactly: the key and the body must agree).
   * Refused while an earlier answer about this asset waits for the store: the guard would read it stale.
   */
  beginIntent(target: LedgerTarget, asset: { id: string | number; title: string | null }, reference: string, seen: readonly string[] = []): RegistrationIntent {
    // What earlier answers left to write first, so that the guard reads it (a write that meets a damaged file turns registering off).
    this.retry.drain();
    this.refuseIfDamaged();
    if (this.retry.pendingAbout(assetKey(target, asset.id))) {
      throw new PartnerError({
        code: 'CONFLICT',
        message: 'The purchase ledger is being updated with an earlier answer about this asset (the store is busy). Try again in a moment.',
        hint: 'Nothing was sent. Register again in a few seconds.',
        retryable: true,
      });
    }
    let resend = false;
    // Waits out the whole BUSY_TIMEOUT_MS for another instance's lock, on the main thread, on purpose:
    // nothing is sent before the write-ahead is durable, and a registration that fails for a lock held
    // a moment is worse than a click answered seconds late (the background writes wait BRIEF_WAIT_MS).
    const begin = this.db.transaction((): LedgerRecord => {
      const blocking = this.blockers(target, asset.id);
      const ask = confirmationRequired(blocking, seen);
      if (ask) throw ask;
      // A registration of this asset still on the wire (another window's, another instance's) is settled by
      // its answer alone: a confirmation given while it was unknown must not start a second intent beside it.
      for (const r of blocking) if (r.state === 'sending') this.refuseInFlight(r.id);
      const at = this.now();
      // One reference per purchase intent: registering again after an unknown outcome resends its key (also
      // after a send that is no longer running: a dead process's, or one older than any send lasts).
      const resumed = blocking.find((r) => (r.state === 'unknown' || r.state === 'sending') && r.reference !== null);
      if (resumed) {
        resend = true;
        this.db.prepare(`UPDATE purchase_ledger SET state = 'sending', owner_pid = ?, note = NULL, updated_at = ? WHERE id = ?`).run(this.pid, at, resumed.id);
        return this.get(resumed.id)!;
      }
      const info = this.db
        .prepare(
          `INSERT INTO purchase_ledger (vendor, base_url, profile_id, asset_id, asset_title, reference, state, owner_pid, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, 'sending', ?, ?, ?)`,
        )
        .run(target.vendor, target.baseUrl, target.profileId, String(asset.id), asset.title, reference, this.pid, at, at);
      return this.get(Number(info.lastInsertRowid))!;
    });
    let record: LedgerRecord;
    try {
      record = begin.immediate();
    } catch (e) {
      if (!isStoreDamage(e)) throw e;
      this.failed(e);
      this.refuseIfDamaged();
      throw e;
    }
    return { record, resend, sentBody: resend ? this.sentBody(record.id) : null };
  }

  /** The exact body text a registration was sent with (null: not known). */
  sentBody(id: number): string | null {
    const row = this.db.prepare('SELECT sent_body FROM purchase_ledger WHERE id = ?').get(id) as { sent_body: string | null } | undefined;
    return row?.sent_body ?? null;
  }

  /** Keeps the exact body text of a registration as sent (the last attempt under its key wins). */
  keepSentBody(id: number, body: string): void {
    this.db.prepare('UPDATE purchase_ledger SET sent_body = ? WHERE id = ?').run(body, id);
  }

  /** The registration's answer: registered with its purchase, or unknown when the 2xx could not be read. */
  finishRegistration(id: number, purchase: SeenPurchase): LedgerRecord {
    const finish = this.db.transaction((): LedgerRecord => {
      const record = this.get(id);
      if (!record) throw new Error(`ledger record ${id} is gone`);
      if (purchase.unresolved) {
        this.update(id, 'unknown', 'The service accepted the registration (2xx) but its answer could not be read.', purchase.raw);
        return this.get(id)!;
      }
      const asset = purchase.asset_id === null ? '' : String(purchase.asset_id);
      if (asset !== '' && asset !== record.assetId) {
        this.update(
          id,
          'unknown',
          `The service named purchase ${purchase.id} of asset ${asset}, not of asset ${record.assetId}: not recorded here. Check it with the vendor.`,
          purchase.raw,
        );
        return this.get(id)!;
      }
      if (record.purchaseId !== null && record.purchaseId !== purchase.id) {
        // Settled already with another purchase (a lookup and a confirmed resend under its reference, both
        // answered by a service that does not take the reference as a key): a row of its own, neither lost.
        const target = { vendor: record.vendor, baseUrl: record.baseUrl, profileId: record.profileId };
        return this.recordSeen(target, { ...purchase, client_reference: record.reference ?? purchase.client_reference }, record.assetTitle);
      }
      const other = this.byPurchaseId(record, purchase.id);
      if (other && other.id !== id && other.assetId !== '' && other.assetId !== record.assetId) {
        // Another asset's purchase (a service that answered with the wrong one): never taken over; this stays unresolved.
        this.update(
          id,
          'unknown',
          `The service named purchase ${purchase.id}, which the ledger holds for asset ${other.assetId}, not asset ${record.assetId}: not recorded here. Check it with the vendor.`,
          purchase.raw,
        );
        return this.get(id)!;
      }
      if (other && other.id !== id && other.reference !== null && record.reference !== null && other.reference !== record.reference) {
        // Another registration's purchase (an earlier one of this asset, under its own reference): never taken over.
        this.update(
          id,
          'unknown',
          `The service named purchase ${purchase.id}, which the ledger holds for registration ${other.reference}, not ${record.reference}: not recorded here. Look this one up by its reference, or check it with the vendor.`,
          purchase.raw,
        );
        return this.get(id)!;
      }
      // A lookup may have recorded this purchase already (another row of this asset): one row per purchase.
      if (other && other.id !== id) this.db.prepare('DELETE FROM purchase_ledger WHERE id = ?').run(other.id);
      this.db
        .prepare(
          `UPDATE purchase_ledger SET state = 'registered', purchase_id = ?, purchase_state = ?, purchase_state_kind = ?, note = NULL, raw = NULL, updated_at = ? WHERE id = ?`,
        )
        .run(purchase.id, purchase.state, kindOf(purchase), this.now(), id);
      return this.get(id)!;
    });
    return finish.immediate();
  }

  /**
   * The registration failed: "failed" after a definite refusal, otherwise "unknown". A resend of an
   * unresolved intent (`resend`: same key) stays "unknown" whatever it met: the refusal is of this
   * attempt, and the first one, under the same key, may have bought it.
   */
  failRegistration(id: number, error: ErrorData, resend = false): LedgerRecord {
    const definite = DEFINITE_REFUSALS.has(error.code) && !resend;
    const keyHeld = (error.status === 409 || error.status === 422) && error.code === 'UNKNOWN_OUTCOME';
    const note = definite
      ? error.message
      : keyHeld
        ? `The service answered ${error.status} to this registration's idempotency key: still in progress or already done. Look it up.`
        : resend && (error.code === 'CANCELLED' || error.code === 'NETWORK')
          ? `This resend was not sent (${error.code === 'CANCELLED' ? 'cancelled first' : 'the connection was refused'}), but its key (the reference) may already have bought it in an earlier attempt. Look it up.`
          : resend && (DEFINITE_REFUSALS.has(error.code) || (error.status !== undefined && error.status >= 400 && error.status < 500))
            ? `The service refused this resend${error.status ? ` (${error.status})` : ''}, but its key (the reference) may already have bought it in an earlier attempt. Look it up.`
            : (UNKNOWN_BECAUSE[error.code] ?? 'The registration ended without an answer that says what happened.');
    this.update(id, definite ? 'failed' : 'unknown', note, { error: error.message, ...(error.body !== undefined ? { body: error.body } : {}) });
    return this.get(id)!;
  }

  /**
   * A purchase seen in an answer (info, validate, cancel, a lookup): updates its record (found by
   * purchase id, else by its reference) or adds one, so that the guard knows it.
   */
  recordSeen(target: LedgerTarget, purchase: SeenPurchase, assetTitle: string | null = null): LedgerRecord {
    const seen = this.db.transaction((): LedgerRecord => {
      const byId = this.db.prepare(`SELECT * FROM purchase_ledger WHERE ${SAME_SERVICE} AND purchase_id = ?`).get(...serviceArgs(target), purchase.id) as
        Row | undefined;
      const byRef =
        byId ??
        (purchase.client_reference
          ? (this.db.prepare(`SELECT * FROM purchase_ledger WHERE ${SAME_SERVICE} AND reference = ?`).get(...serviceArgs(target), purchase.client_reference) as
              Row | undefined)
          : undefined);
      const at = this.now();
      const asset = purchase.asset_id === null ? '' : String(purchase.asset_id);
      // An answer that names another asset than the record's never rewrites it (a service mixing up purchases).
      if (byRef && byRef.asset_id !== '' && asset !== '' && byRef.asset_id !== asset) return toRecord(byRef);
      // A second purchase under a reference whose record holds another (a resend the service did not
      // deduplicate): a row of its own, so that neither is lost; the reference stays with the first.
      const second = byId === undefined && byRef !== undefined && byRef.purchase_id !== null && byRef.purchase_id !== purchase.id;
      if (byRef && !second) {
        this.db
          .prepare(
            `UPDATE purchase_ledger SET state = 'registered', purchase_id = ?, purchase_state = ?, purchase_state_kind = ?, asset_title = COALESCE(asset_title, ?), updated_at = ? WHERE id = ?`,
          )
          .run(purchase.id, purchase.state, kindOf(purchase), assetTitle, at, byRef.id);
        return this.get(byRef.id)!;
      }
      const info = this.db
        .prepare(
          `INSERT INTO purchase_ledger (vendor, base_url, profile_id, asset_id, asset_title, reference, purchase_id, state, purchase_state, purchase_state_kind, note, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, 'registered', ?, ?, ?, ?, ?)`,
        )
        .run(
          target.vendor,
          target.baseUrl,
          target.profileId,
          String(purchase.asset_id ?? ''),
          assetTitle,
          second ? null : (purchase.client_reference ?? null),
          purchase.id,
          purchase.state,
          kindOf(purchase),
          second
            ? `A second purchase under reference ${purchase.client_reference} (with ${byRef!.purchase_id}): the service did not take the reference as a key. Cancel the one not wanted.`
            : null,
          at,
          at,
        );
      return this.get(Number(info.lastInsertRowid))!;
    });
    return seen.immediate();
  }

  /** A person checked an unresolved record (no purchase found, or settled elsewhere). */
  markChecked(id: number): LedgerRecord {
    const record = this.get(id);
    if (!record) throw new PartnerError({ code: 'NOT_FOUND', message: `No ledger record #${id}.`, retryable: false });
    if (!UNRESOLVED_STATES.includes(record.state)) return record;
    this.refuseInFlight(id);
    this.update(id, 'checked', `Marked as checked ${new Date(this.now()).toISOString()}; before: ${record.note ?? record.state}`);
    return this.get(id)!;
  }

  /**
   * Nothing but its answer settles a registration a live process (this one, or another instance of
   * the app) is still sending: a lookup finds nothing yet, and "checked" would let the asset be
   * registered a second time before the first answer lands.
   */
  refuseInFlight(id: number): void {
    const row = this.db.prepare('SELECT id, state, owner_pid, updated_at FROM purchase_ledger WHERE id = ?').get(id) as SendingRow | undefined;
    if (row?.state !== 'sending' || !this.stillSending(row)) return;
    throw new PartnerError({
      code: 'CONFLICT',
      message: `Registration #${id} is still being sent: the service has not answered it yet.`,
      hint: 'Wait for its answer, which settles this record by itself; look it up only if it ends unknown.',
      retryable: true,
    });
  }

  /** Runs a registration's send: while it runs, its record is in flight here (its answer settles it). */
  async whileSending<T>(id: number, send: () => Promise<T>): Promise<T> {
    this.sendingHere.add(id);
    try {
      return await send();
    } finally {
      this.sendingHere.delete(id);
    }
  }

  /**
   * A "sending" record whose send may still run: here, one this ledger is sending now (not one whose
   * answer only waits for the store); elsewhere, one of a live process written lately (a pid alone may
   * be another program's after a reboot, and no send lasts SENDING_AT_MOST_MS).
   */
  private stillSending(row: SendingRow): boolean {
    if (row.owner_pid === this.pid) return this.sendingHere.has(row.id);
    return row.owner_pid !== null && this.now() - row.updated_at < SENDING_AT_MOST_MS && this.alive(row.owner_pid);
  }

  /**
   * At start: registrations left "sending" by a process that is gone (it died between the
   * write-ahead and the answer) become "unknown". A live instance's sends are left alone.
   */
  recoverInterrupted(): number {
    const rows = this.db.prepare(`SELECT id, state, owner_pid, updated_at FROM purchase_ledger WHERE state = 'sending'`).all() as SendingRow[];
    let n = 0;
    for (const r of rows) {
      if (r.owner_pid !== this.pid && this.stillSending(r)) continue;
      const done = this.db
        .prepare(`UPDATE purchase_ledger SET state = 'unknown', note = ?, updated_at = ? WHERE id = ? AND state = 'sending'`)
        .run('The app stopped before the service answered this registration.', this.now(), r.id);
      n += done.changes;
    }
    return n;
  }

  /** Unresolved records first, then the newest (ledger-queries.ts). */
  list(query: LedgerQuery): LedgerRecord[] {
    return listLedger(this.db, query).items;
  }

  /** list, saying whether more records match than it holds. */
  page(query: LedgerQuery): { items: LedgerRecord[]; more: boolean } {
    return listLedger(this.db, query);
  }

  /** Every state the records of this vendor, service and asset are in (the State filter's choices). */
  states(query: Omit<LedgerQuery, 'limit'>): Pick<LedgerRecord, 'state' | 'purchaseState'>[] {
    return ledgerStates(this.db, query);
  }

  unresolvedCount(): number {
    return (this.db.prepare(`SELECT COUNT(*) AS n FROM purchase_ledger WHERE state IN ('sending', 'unknown')`).get() as { n: number }).n;
  }

  vendors(): string[] {
    return (this.db.prepare('SELECT DISTINCT vendor FROM purchase_ledger ORDER BY vendor').all() as { vendor: string }[]).map((r) => r.vendor);
  }

  private update(id: number, state: LedgerState, note: string | null, raw?: unknown): void {
    this.db
      .prepare('UPDATE purchase_ledger SET state = ?, note = ?, raw = COALESCE(?, raw), updated_at = ? WHERE id = ?')
      .run(state, note === null ? null : this.redact(note), raw === undefined ? null : this.redact(JSON.stringify(raw)), this.now(), id);
  }
}
