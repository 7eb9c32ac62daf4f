/**
 * The Redis slot store: a connection to the fleet's Redis and its fallback. Redis unreachable or slow:
 * the reservation answers "unavailable" within the timeout, the caller goes on with headers only
 * (nothing is lost or failed), the state says 'fallback' (at once when unreachable; when slow, once slow
 * answers are frequent), and ioredis reconnects by itself; the next reservation after it is back uses
 * Redis again.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { budgetStoreProblem, maskStoreUrl } from '../../shared/budget-store-url';
import type { FleetSlotStore, GrantedCounts, Slot, SlotStoreStatus, Spacing } from './fleet-slot-store';
import { DEFAULT_SPACING, MAX_SLOT_WAIT_MS } from './fleet-slot-store';
import { AnswerLag } from './answer-lag';
import { StoreStatus } from './store-status';
import { PendingReservations } from './pending-reservations';
import { COUNT_KEEP_MS, GCRA_SCRIPT, GRANTED_SCRIPT, NOT_A_TIME, PACE_KEPT_MS } from './slot-scripts';

/** A reservation slower than this is "Redis is slow": headers only for this request. */
export const STORE_TIMEOUT_MS = 100;
/**
 * A store still connecting (never answered yet) is not a store that is down: the first reservations
 * wait this long for the connection and the script's first load (EVALSHA, then EVAL). Falling back at
 * once there would send every worker of a fleet started together on headers alone in the same
 * instant, beside the slots Redis grants the others: a burst of 429s at the start.
 */
export const FIRST_ANSWER_MS = 1_000;
/** A read for the views may take longer without anyone waiting on it. */
const READ_TIMEOUT_MS = 1_000;
/** Hysteresis of the state (see note()): this many slow of the last ANSWERS_KEPT, back after BACK_AFTER timely in a row. */
export const SLOW_TO_FALL_BACK = 3;
const ANSWERS_KEPT = 10;
export const BACK_AFTER = 5;

type Outcome = 'timely' | 'slow' | 'garbage' | 'failed';
type Answer<T> = { value: T } | { problem: Exclude<Outcome, 'timely'>; detail: string };

export class RedisSlotStore implements FleetSlotStore {
  private readonly redis: Redis;
  private readonly where: string;
  private readonly current: StoreStatus;
  /** Whether a reservation was answered yet (until then the first-answer allowance applies). */
  private answeredOnce = false;
  /** Outcomes of the last ANSWERS_KEPT reservations, oldest first. */
  private recent: Outcome[] = [];
  /** Measured afresh on every connection: another Redis (a failover) has another clock. */
  private lag = new AnswerLag();
  /** Timed-out reservations still unanswered: the next ones wait for them (pending-reservations.ts). */
  private readonly pending = new PendingReservations();
  /** This process, among the workers whose paces the script sums. */
  private readonly worker = `${process.pid}:${randomUUID()}`;
  /** Keys this worker told a pace under: it takes them back when it closes. */
  private readonly pacedKeys = new Set<string>();
  /** Why this store can never be used as its URL says (a database the server lacks): headers only, for good. */
  private unusable: string | null = null;
  /**
   * Whether the views' reads may bring the store back: only from slowness, which a read measures as well
   * as a reservation does. A Redis that refuses our writes (full with noeviction, a read-only replica)
   * answers reads all the same, so a fallback for any other reason waits for reservations to succeed.
   */
  private readsBringBack = false;

  constructor(
    url: string,
    private readonly log: (line: string) => void = (line) => console.error(line),
    private readonly timeoutMs = STORE_TIMEOUT_MS,
    private readonly spacing: Spacing = DEFAULT_SPACING,
  ) {
    const problem = budgetStoreProblem(url);
    if (problem) throw new Error(`budget store: the URL ${problem}`);
    this.where = maskStoreUrl(url);
    this.current = new StoreStatus({ state: 'connecting', where: this.where, kind: 'redis' });
    // The scheme as written may be upper case (the check above reads it as URL does): ioredis turns TLS on
    // only for a lower-case `rediss://`, and a password must never cross in clear behind a `rediss` shown.
    const clientUrl = url.trim().replace(/^rediss?:/i, (scheme) => scheme.toLowerCase());
    this.redis = new Redis(clientUrl, {
      ...(clientUrl.startsWith('rediss:') ? { tls: {} } : {}),
      // Fail at once while disconnected (we fall back to headers); reconnect in the background.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 1_000,
      retryStrategy: (times) => Math.min(2_000, 100 * times),
      lazyConnect: false,
    });
    // defineCommand runs EVALSHA and loads the script again after a Redis restart (NOSCRIPT).
    this.redis.defineCommand('reserveSlot', { numberOfKeys: 1, lua: GCRA_SCRIPT });
    this.redis.defineCommand('grantedCounts', { lua: GRANTED_SCRIPT });
    this.redis.on('ready', () => {
      this.lag = new AnswerLag();
      if (this.unusable === null) this.back();
    });
    this.redis.on('error', (e: Error) => {
      // A database the server does not have: ioredis goes on in database 0, another fleet's or program's.
      if (/DB index is out of range|invalid DB index/i.test(e.message)) this.unusable = `the database in the URL cannot be used (${e.message})`;
      this.fallback(this.unusable ?? e.message);
    });
    this.redis.on('close', () => {
      if (this.current.state() !== 'fallback') this.fallback('connection closed'); // keep the error's own words
    });
  }

  async reserve(key: string, limit: number, refused = false, pace?: number): Promise<Slot | null> {
    if (this.unusable !== null) return null;
    const first = !this.answeredOnce && this.current.state() !== 'fallback';
    if (this.redis.status !== 'ready') {
      if (!first) return null;
      if (!(await this.ready(FIRST_ANSWER_MS))) {
        // Connected but never ready (loading its dataset, hung, a proxy with no backend): down, not still
        // connecting, so later reservations go on the headers at once; the 'ready' event brings it back.
        if (this.current.state() !== 'fallback') this.fallback(`no answer within ${FIRST_ANSWER_MS} ms`); // an error's own words kept
        return null;
      }
    }
    const timeout = first ? FIRST_ANSWER_MS : this.timeoutMs;
    const { floorMs, mostMs, narrowMsPerSecond, startMs } = this.spacing;
    if (this.pending.any(performance.now()) && !(await this.pending.noneWithin(timeout))) {
      // As slow as if asked and timed out: a hung Redis falls back (granted shares) as after timeouts.
      this.note({ problem: 'slow', detail: `an earlier reservation is still unanswered after ${timeout} ms` }, timeout);
      return null;
    }
    // After any wait for a pending one: how late the answer is read is measured from the send.
    const askedAt = performance.now();
    if (pace !== undefined && Number.isFinite(pace)) this.pacedKeys.add(key);
    const reply = this.redis.reserveSlot(
      key,
      String(Math.max(1, limit)),
      String(COUNT_KEEP_MS),
      refused ? '1' : '0',
      String(floorMs),
      String(mostMs),
      String(narrowMsPerSecond),
      String(startMs),
      String(MAX_SLOT_WAIT_MS),
      pace !== undefined && Number.isFinite(pace) ? String(pace) : '',
      this.worker,
      String(PACE_KEPT_MS), // the script lengthens it for a slow pace (paceKeptMs)
    );
    const answered = await this.answer(
      reply,
      timeout,
      (v) => Array.isArray(v) && v.length === 5 && v.every((x) => Number.isFinite(Number(x)) && Number(x) >= 0),
    );
    if ('problem' in answered && answered.problem === 'slow') this.pending.add(askedAt, reply);
    const got = 'value' in answered ? this.plausible(key, answered) : answered;
    this.note(got, timeout);
    if (!('value' in got)) return null;
    this.answeredOnce = true;
    const [waitMs, graceMs, , storeNow, paced] = got.value.map(Number) as [number, number, number, number, number];
    return { waitMs, graceMs, lateMs: this.lag.measure(askedAt, performance.now(), storeNow), ...(paced === 1 ? { paced: true } : {}) };
  }

  /** A slot further off than anyone waits is garbage; a stored time the script reset is said in the log. */
  private plausible(key: string, got: { value: number[] }): Answer<number[]> {
    const [wait, , reset] = got.value.map(Number);
    if (reset! >= NOT_A_TIME)
      this.log(`budget store: the slot time stored under ${key} was not a time (NaN, infinite, past any clock or text: another writer?); reset to now`);
    else if (reset! > 0)
      this.log(
        `budget store: the slot time stored under ${key} was ${formatAhead(reset!)} ahead of ${this.where}'s clock with no slot of the fleet before it (a clock step, a failover or another writer?); reset to now`,
      );
    if (wait! > MAX_SLOT_WAIT_MS)
      return { problem: 'garbage', detail: `a slot ${formatAhead(wait!)} away (longer than anyone waits: a clock step, a failover or another writer?)` };
    return got;
  }

  /**
   * The state after a reservation, with hysteresis: a failure, an answer that is not our script's,
   * or a store that never answered yet means fallback at once; slow answers mean fallback once they
   * are SLOW_TO_FALL_BACK of the last ANSWERS_KEPT (one slow answer only sends that request on the
   * headers); back from slowness after BACK_AFTER timely answers in a row, counted afresh from then
   * on. A Redis slow now and then no longer flips the state (and the log and the header badge) with
   * every other request.
   */
  private note(got: Answer<unknown>, timeoutMs: number): void {
    this.recent.push('value' in got ? 'timely' : got.problem);
    if (this.recent.length > ANSWERS_KEPT) this.recent.shift();
    if ('value' in got) {
      const timely = this.recent.slice(-BACK_AFTER);
      if (this.current.state() !== 'fallback') this.set({ state: 'connected', where: this.where, kind: 'redis' });
      else if (timely.length === BACK_AFTER && timely.every((o) => o === 'timely')) this.back();
      return;
    }
    const slow = this.recent.filter((o) => o === 'slow').length;
    if (got.problem !== 'slow' || !this.answeredOnce) this.fallback(got.detail, got.problem === 'slow');
    else if (slow >= SLOW_TO_FALL_BACK) this.fallback(`${slow} of the last ${this.recent.length} reservations took longer than ${timeoutMs} ms`, true);
  }

  /** Connected again: earlier slow answers no longer count. */
  private back(): void {
    this.recent = [];
    this.set({ state: 'connected', where: this.where, kind: 'redis' });
  }

  /** Resolves true once the connection is ready, false after `ms` or when it fails first. */
  private ready(ms: number): Promise<boolean> {
    if (this.redis.status === 'ready') return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        this.redis.off('ready', onReady);
        this.redis.off('error', onError);
        resolve(ok);
      };
      const onReady = () => done(true);
      const onError = () => done(false);
      const timer = setTimeout(() => done(false), ms);
      this.redis.once('ready', onReady);
      this.redis.once('error', onError);
    });
  }

  async granted(keys: readonly string[], seconds: number): Promise<GrantedCounts | null> {
    if (this.redis.status !== 'ready' || keys.length === 0 || this.unusable !== null) return null;
    const n = Math.max(1, Math.min(Math.floor(seconds), Math.floor(COUNT_KEEP_MS / 1000) - 10));
    const startedAt = Date.now();
    const flat = await this.answer(
      this.redis.grantedCounts(keys.length, ...keys, String(n)),
      READ_TIMEOUT_MS,
      (v) => Array.isArray(v) && v.length === 1 + keys.length * n && v.every((x) => Number.isFinite(Number(x))),
    );
    // A read for the views takes no state away; while slowness (only) holds the store in fallback, a read
    // that answers within a reservation's time counts toward coming back (an idle app makes no reservation).
    if (!('value' in flat)) return null;
    if (this.current.state() === 'fallback' && this.readsBringBack && Date.now() - startedAt <= this.timeoutMs) this.note(flat, this.timeoutMs);
    const [first, ...rest] = flat.value.map(Number);
    return { fromMs: first! * 1000, counts: keys.map((_, i) => rest.slice(i * n, (i + 1) * n)) };
  }

  status(): SlotStoreStatus {
    return this.current.get();
  }

  onStatus(listener: (status: SlotStoreStatus) => void): () => void {
    return this.current.onChange(listener);
  }

  async close(): Promise<void> {
    this.current.close();
    // Our paces go with us (briefly: a Redis that does not answer lets them lapse), or a finished copy's pace
    // would keep the fleet at the limit beside consumers outside it until it lapsed.
    if (this.redis.status === 'ready' && this.pacedKeys.size > 0) {
      const taken = this.redis.pipeline([...this.pacedKeys].map((key) => ['hdel', `${key}:pace`, this.worker])).exec();
      await this.answer(taken, READ_TIMEOUT_MS / 5, () => true);
    }
    this.redis.disconnect(false);
  }

  /**
   * The command's answer, or why there is none: it failed, took longer than `ms`, or is not what our
   * script returns (something speaking Redis's protocol without running it): never trusted as a slot.
   */
  private async answer<T>(command: Promise<T>, ms: number, valid: (value: T) => boolean): Promise<Answer<T>> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const slow = new Promise<null>((resolve) => {
      // An answer that came while this process was too busy to read it waits in the socket, and Node runs
      // an expired timer before it reads sockets: read them first (setImmediate runs after the poll), so
      // a busy worker is not taken for a slow Redis, and its late slot is measured (answer-lag.ts).
      timer = setTimeout(() => setImmediate(() => resolve(null)), ms);
    });
    try {
      const value = await Promise.race([command, slow]);
      if (value === null) return { problem: 'slow', detail: `no answer within ${ms} ms` };
      if (!valid(value)) return { problem: 'garbage', detail: 'an unexpected answer: is it a Redis that runs Lua scripts?' };
      return { value };
    } catch (e) {
      return { problem: 'failed', detail: e instanceof Error ? e.message : String(e) };
    } finally {
      clearTimeout(timer);
      command.catch(() => undefined); // a late failure after the timeout is already accounted for
    }
  }

  /** `slowness`: only slow answers put it there (readsBringBack), unless it already was for another reason. */
  private fallback(detail: string, slowness = false): void {
    this.readsBringBack = slowness && (this.current.state() !== 'fallback' || this.readsBringBack);
    this.set({ state: 'fallback', where: this.where, kind: 'redis', detail });
  }

  private set(next: SlotStoreStatus): void {
    this.current.set(next, (before) =>
      this.log(
        next.state === 'connected'
          ? before === 'fallback'
            ? `budget store: ${this.where} is back; the fleet shares the budget through it again`
            : `budget store: using ${this.where}`
          : `budget store: ${this.where} unreachable (${next.detail ?? 'unknown'}); pacing from the headers alone until it is back`,
      ),
    );
  }
}

/** "1.5 s", "3 h": how far ahead a stored time was, for the log. */
function formatAhead(ms: number): string {
  if (ms < 120_000) return `${Math.round(ms / 100) / 10} s`;
  if (ms < 7_200_000) return `${Math.round(ms / 60_000)} min`;
  return ms < 172_800_000 ? `${Math.round(ms / 3_600_000)} h` : `${Math.round(ms / 86_400_000)} days`;
}
