/**
 * The budget store: where the workers of a fleet reserve their slots before sending (DESIGN.md "The
 * budget store"). The default is local: no store, each process paces from the headers alone. The
 * Redis store reserves each request's slot atomically with GCRA (one Lua script per request, as
 * redis-cell does): the key holds only the theoretical arrival time (TAT) on Redis's own clock, so
 * workers on many machines never exceed the limit together, whatever their clocks say. The same
 * script counts the slot it grants per second, so the fleet's use can be read back (fleetUse).
 * The header model still runs in every worker and corrects for consumers outside the store.
 *
 * Redis unreachable or slow: the reservation answers "unavailable" within the timeout, the caller
 * goes on with headers only (nothing is lost or failed), the state says 'fallback' (at once when
 * unreachable; when slow, once slow answers are frequent), and ioredis reconnects by itself; the
 * next reservation after it is back uses Redis again.
 */
import { Redis } from 'ioredis';
import type { Result } from 'ioredis';
import { budgetStoreProblem, maskStoreUrl } from '../../shared/budget-store-url';
import { MAX_RETRY_AFTER_MS } from './backoff';

export { budgetStoreProblem } from '../../shared/budget-store-url';

/** The contract's words (budgetStoreStateSchema): 'fallback' means headers only until Redis answers again. */
export type BudgetStoreState = 'connecting' | 'connected' | 'fallback';

export interface BudgetStoreStatus {
  state: BudgetStoreState;
  /** Where (redis://host:port/db), any credentials masked. */
  where: string;
  /** Why it is in fallback, in words. */
  detail?: string;
}

/** Slots granted per second of the store's clock, per key, oldest first; complete seconds only. */
export interface GrantedCounts {
  /** Epoch ms (the store's clock) of the first second. */
  fromMs: number;
  /** One array per key asked, `seconds` long. */
  counts: number[][];
}

export interface BudgetStore {
  /**
   * Reserves one slot of `limit` per second under `key`: resolves with the ms to wait before
   * sending (0: now) and the grace for sending late, or null when the store is unavailable (go on
   * with headers only). `refused`: the caller's last request under this key was answered 429 (the
   * fleet's slots were too close).
   */
  reserve(key: string, limit: number, refused?: boolean): Promise<Slot | null>;
  /** The slots granted under each key in the last `seconds` complete seconds, or null when unavailable. */
  granted(keys: readonly string[], seconds: number): Promise<GrantedCounts | null>;
  status(): BudgetStoreStatus;
  onStatus(listener: (status: BudgetStoreStatus) => void): () => void;
  close(): Promise<void>;
}

/** How long a per-second count outlives its second: the longest fleetUse window (300 s) and a margin. */
export const COUNT_KEEP_MS = 310_000;

/**
 * GCRA without burst: slots (1000 + spread) / limit ms apart on Redis's clock, so that no second
 * (whatever its alignment on the service) holds more than `limit` of the fleet's requests while each
 * reaches the service within `spread` ms of its slot. The spread adapts (see Spacing): it is kept
 * per key beside the TAT as { ms, at, widened }, narrows by ARGV[6] ms per second of Redis's clock
 * down to ARGV[4], and at most once a second a caller's report of a 429 (ARGV[3] = '1') doubles it
 * (at least to ARGV[7], at most ARGV[5]). Returns { the wait, the spread, the reset (below) } in whole ms.
 * The granted slot is counted under `<key>:n:<second>` for the second it falls in. That second is
 * Redis's, not the worker's: the workers' clocks disagree, Redis's is the one every slot was
 * scheduled on, so each slot lands in exactly one second and the counts line up with the schedule.
 * (The count key is derived in the script from that clock, so it cannot be passed in KEYS: this
 * needs a single Redis, not a cluster, as the TAT key's script does.)
 * A stored TAT ahead of Redis's clock is trusted only as a backlog of our own slots: one was counted
 * in the widest interval before it; otherwise (another writer, a key from a host whose clock was
 * ahead) it is reset to now and the third value says by how many ms. When Redis's clock is behind
 * the one the key's last slot was granted on (a clock step back, a failover), the TAT moves back by
 * as much, so the fleet does not wait out the difference.
 */
export const GCRA_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit = tonumber(ARGV[1])
local keep = tonumber(ARGV[2])
local floor, most, narrow, start = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local sk = KEYS[1] .. ':spread'
local s = redis.call('HMGET', sk, 'ms', 'at', 'widened')
local before = tonumber(s[2])
local spread = tonumber(s[1]) or start
local widened = tonumber(s[3]) or 0
spread = math.max(floor, spread - math.max(0, now - (tonumber(s[2]) or now)) * narrow / 1000)
if ARGV[3] == '1' and now - widened >= 1000 then
  spread = math.min(most, math.max(start, spread * 2))
  widened = now
end
redis.call('HSET', sk, 'ms', tostring(spread), 'at', tostring(now), 'widened', tostring(widened))
redis.call('PEXPIRE', sk, keep)
local interval = (1000 + spread) / limit
local tat = tonumber(redis.call('GET', KEYS[1]) or '0') or 0
local reset = 0
if tat > now then
  -- A TAT ahead of now is a backlog of our own slots only if one was granted in the widest interval before it.
  local names = {}
  for sec = math.floor((tat - 1 - (1000 + most)) / 1000), math.floor((tat - 1) / 1000) do names[#names + 1] = KEYS[1] .. ':n:' .. sec end
  local led = false
  for _, c in ipairs(redis.call('MGET', unpack(names))) do if c then led = true end end
  if not led then
    reset = tat - now
    tat = now
  elseif before and before > now then
    -- Redis's clock went back (a step, a failover to a host behind): the schedule moves back with it.
    tat = tat - (before - now)
  end
end
if tat < now then tat = now end
local after = tat + interval
redis.call('SET', KEYS[1], tostring(after), 'PX', math.ceil(after - now) + 1000)
local second = math.floor(tat / 1000)
local n = KEYS[1] .. ':n:' .. second
redis.call('INCR', n)
redis.call('PEXPIRE', n, (second + 1) * 1000 - now + keep)
return { math.floor(tat - now), math.floor(spread), math.floor(reset) }
`;

/**
 * A reserved slot: send after `waitMs`; sent more than `graceMs` later than that, the request may land in
 * a second the fleet's other slots have already filled (the spread the slots were spaced by).
 */
export interface Slot {
  waitMs: number;
  graceMs: number;
}

/**
 * The counts of the last ARGV[1] complete seconds of Redis's clock for every key, in one round
 * trip: { first second, counts of key 1..., counts of key 2... }.
 */
export const GRANTED_SCRIPT = `
local last = tonumber(redis.call('TIME')[1]) - 1
local n = tonumber(ARGV[1])
local first = last - n + 1
local out = { first }
for i = 1, #KEYS do
  local names = {}
  for s = first, last do names[#names + 1] = KEYS[i] .. ':n:' .. s end
  local counts = redis.call('MGET', unpack(names))
  for j = 1, n do out[#out + 1] = tonumber(counts[j] or '0') end
end
return out
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    /** GCRA_SCRIPT: [the wait, the spread, how far ahead a stored TAT was reset (0: none)] in ms for the slot granted under key. */
    reserveSlot(key: string, limit: string, keepMs: string, refused: '0' | '1', floorMs: string, mostMs: string, narrowMsPerS: string, startMs: string): Result<number[], Context>;
    /** GRANTED_SCRIPT: numkeys, keys..., seconds. */
    grantedCounts(numKeys: number, ...keysThenSeconds: string[]): Result<number[], Context>;
  }
}

/**
 * How far apart the store spaces slots: (1000 + spread) / limit ms. Slots are granted on Redis's clock
 * but reach the service later by a varying amount (timers, the network, the service's own queue).
 * Under a whole-second limiter one slot late into an already full second is a 429 for someone, and
 * any second of arrivals holds at most `limit` while each arrives within `spread` ms of its slot. How
 * much that varies depends on the machines and the network, so the spread is learnt per key, in
 * Redis, by the fleet: it starts at a width that was safe with 16 processes on 2 cores, narrows
 * slowly while nobody is refused, and doubles when a worker reports a 429 (at most once a second, so
 * the burst of reports one late slot causes counts once). A whole-second service with little
 * variation then gets nearly its limit; a continuous one, where a late slot costs nothing, too.
 * Measured with 16 processes on 2 cores, idle (bench --only fleet, whole-second): a fixed 0 ms gave
 * 0 x 429 at 1.000, 10 ms 0 x 429 at 0.990, 25 ms 0 x 429 at 0.976; loaded by other work earlier,
 * 0 ms gave 2-5% 429s and 25 ms 0-0.4%.
 */
export interface Spacing {
  /** The spread a key starts with (and goes back to after COUNT_KEEP_MS without use). */
  startMs: number;
  /** The narrowest it gets. */
  floorMs: number;
  /** The widest (the fleet then sends at 1000 / (1000 + this) of the limit). */
  mostMs: number;
  /** How fast it narrows while nobody is refused, in ms per second. */
  narrowMsPerSecond: number;
}

export const DEFAULT_SPACING: Spacing = { startMs: 25, floorMs: 5, mostMs: 250, narrowMsPerSecond: 1 };

/**
 * A wait longer than a caller ever sleeps for a slot (partner-client caps it at MAX_RETRY_AFTER_MS)
 * is not a schedule anyone keeps: garbage, headers only.
 */
export const MAX_SLOT_WAIT_MS = MAX_RETRY_AFTER_MS;

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

export class RedisBudgetStore implements BudgetStore {
  private readonly redis: Redis;
  private readonly where: string;
  private current: BudgetStoreStatus;
  private readonly listeners = new Set<(status: BudgetStoreStatus) => void>();
  private closed = false;
  /** Whether a reservation was answered yet (until then the first-answer allowance applies). */
  private answeredOnce = false;
  /** Outcomes of the last ANSWERS_KEPT reservations, oldest first. */
  private recent: Outcome[] = [];

  constructor(
    url: string,
    private readonly log: (line: string) => void = (line) => console.error(line),
    private readonly timeoutMs = STORE_TIMEOUT_MS,
    private readonly spacing: Spacing = DEFAULT_SPACING,
  ) {
    const problem = budgetStoreProblem(url);
    if (problem) throw new Error(`budget store: the URL ${problem}`);
    this.where = maskStoreUrl(url);
    this.current = { state: 'connecting', where: this.where };
    this.redis = new Redis(url.trim(), {
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
    this.redis.on('ready', () => this.back());
    this.redis.on('error', (e: Error) => this.fallback(e.message));
    this.redis.on('close', () => {
      if (this.current.state !== 'fallback') this.fallback('connection closed'); // keep the error's own words
    });
  }

  async reserve(key: string, limit: number, refused = false): Promise<Slot | null> {
    const first = !this.answeredOnce && this.current.state !== 'fallback';
    if (this.redis.status !== 'ready' && !(first && (await this.ready(FIRST_ANSWER_MS)))) return null;
    const timeout = first ? FIRST_ANSWER_MS : this.timeoutMs;
    const { floorMs, mostMs, narrowMsPerSecond, startMs } = this.spacing;
    const reply = this.redis.reserveSlot(key, String(Math.max(1, limit)), String(COUNT_KEEP_MS), refused ? '1' : '0', String(floorMs), String(mostMs), String(narrowMsPerSecond), String(startMs));
    const answered = await this.answer(reply, timeout, (v) => Array.isArray(v) && v.length === 3 && v.every((x) => Number.isFinite(Number(x)) && Number(x) >= 0));
    const got = 'value' in answered ? this.plausible(key, answered) : answered;
    this.note(got, timeout);
    if (!('value' in got)) return null;
    this.answeredOnce = true;
    return { waitMs: Number(got.value[0]), graceMs: Number(got.value[1]) };
  }

  /** A slot further off than anyone waits is garbage; a stored time the script reset is said in the log. */
  private plausible(key: string, got: { value: number[] }): Answer<number[]> {
    const [wait, , reset] = got.value.map(Number);
    if (reset! > 0) this.log(`budget store: the slot time stored under ${key} was ${formatAhead(reset!)} ahead of ${this.where}'s clock with no slot of the fleet before it (a clock step, a failover or another writer?); reset to now`);
    if (wait! > MAX_SLOT_WAIT_MS) return { problem: 'garbage', detail: `a slot ${formatAhead(wait!)} away (longer than anyone waits: a clock step, a failover or another writer?)` };
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
      if (this.current.state !== 'fallback') this.set({ state: 'connected', where: this.where });
      else if (timely.length === BACK_AFTER && timely.every((o) => o === 'timely')) this.back();
      return;
    }
    const slow = this.recent.filter((o) => o === 'slow').length;
    if (got.problem !== 'slow' || !this.answeredOnce) this.fallback(got.detail);
    else if (slow >= SLOW_TO_FALL_BACK) this.fallback(`${slow} of the last ${this.recent.length} reservations took longer than ${timeoutMs} ms`);
  }

  /** Connected again: earlier slow answers no longer count. */
  private back(): void {
    this.recent = [];
    this.set({ state: 'connected', where: this.where });
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
    if (this.redis.status !== 'ready' || keys.length === 0) return null;
    const n = Math.max(1, Math.min(Math.floor(seconds), Math.floor(COUNT_KEEP_MS / 1000) - 10));
    const startedAt = Date.now();
    const flat = await this.answer(
      this.redis.grantedCounts(keys.length, ...keys, String(n)),
      READ_TIMEOUT_MS,
      (v) => Array.isArray(v) && v.length === 1 + keys.length * n && v.every((x) => Number.isFinite(Number(x))),
    );
    // A read for the views takes no state away; while slowness holds the store in fallback, a read that
    // answers within a reservation's time counts toward coming back (an idle app makes no reservation).
    if (!('value' in flat)) return null;
    if (this.current.state === 'fallback' && Date.now() - startedAt <= this.timeoutMs) this.note(flat, this.timeoutMs);
    const [first, ...rest] = flat.value.map(Number);
    return { fromMs: first! * 1000, counts: keys.map((_, i) => rest.slice(i * n, (i + 1) * n)) };
  }

  status(): BudgetStoreStatus {
    return { ...this.current };
  }

  onStatus(listener: (status: BudgetStoreStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    this.redis.disconnect(false);
  }

  /**
   * The command's answer, or why there is none: it failed, took longer than `ms`, or is not what our
   * script returns (something speaking Redis's protocol without running it): never trusted as a slot.
   */
  private async answer<T>(command: Promise<T>, ms: number, valid: (value: T) => boolean): Promise<Answer<T>> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const slow = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), ms);
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

  private fallback(detail: string): void {
    this.set({ state: 'fallback', where: this.where, detail });
  }

  private set(next: BudgetStoreStatus): void {
    if (this.closed) return;
    const before = this.current.state;
    this.current = next;
    if (next.state === before) return;
    this.log(
      next.state === 'connected'
        ? before === 'fallback'
          ? `budget store: ${this.where} is back; the fleet shares the budget through it again`
          : `budget store: using ${this.where}`
        : `budget store: ${this.where} unreachable (${next.detail ?? 'unknown'}); pacing from the headers alone until it is back`,
    );
    for (const l of [...this.listeners]) {
      try {
        l(this.status());
      } catch {
        // a listener's bug must not break pacing
      }
    }
  }
}

/** "1.5 s", "3 h": how far ahead a stored time was, for the log. */
function formatAhead(ms: number): string {
  if (ms < 120_000) return `${Math.round(ms / 100) / 10} s`;
  if (ms < 7_200_000) return `${Math.round(ms / 60_000)} min`;
  return ms < 172_800_000 ? `${Math.round(ms / 3_600_000)} h` : `${Math.round(ms / 86_400_000)} days`;
}

/** `--budget-store` / the profile's budgetStore: undefined or '' means local (headers only). */
export function createBudgetStore(url: string | undefined, log?: (line: string) => void): BudgetStore | null {
  if (url === undefined || url.trim() === '') return null;
  return new RedisBudgetStore(url.trim(), log);
}

/** The store key of one bucket: base URL + vendor + endpoint. */
export function storeKey(baseUrl: string, vendor: string, endpoint: string): string {
  return `partner-console:budget:${baseUrl}:${vendor}:${endpoint}`;
}
