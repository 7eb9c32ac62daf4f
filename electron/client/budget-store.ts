/**
 * The budget store: where the workers of a fleet reserve their slots before sending (DESIGN.md "The
 * budget store"). The default is local: no store, each process paces from the headers alone. The
 * Redis store reserves each request's slot atomically with GCRA (one Lua script per request, run by
 * EVALSHA, as redis-cell does): the key holds only the theoretical arrival time (TAT) on Redis's own
 * clock, so workers on many machines never exceed the limit together, whatever their clocks say.
 * The header model still runs in every worker and corrects for consumers outside the store.
 *
 * Redis unreachable or slow: the reservation answers "unavailable" within the timeout, the caller
 * goes on with headers only (nothing is lost or failed), the state says so, and ioredis reconnects
 * by itself; the next reservation after it is back uses Redis again.
 */
import { Redis } from 'ioredis';

export type BudgetStoreState = 'shared' | 'unavailable';

export interface BudgetStoreStatus {
  state: BudgetStoreState;
  /** Where (redis://host:port/db, no credentials). */
  where: string;
  /** Why it is unavailable, in words. */
  detail?: string;
}

export interface BudgetStore {
  /**
   * Reserves one slot of `limit` per second under `key`: resolves with the ms to wait before
   * sending (0: now), or null when the store is unavailable (go on with headers only).
   */
  reserve(key: string, limit: number): Promise<number | null>;
  status(): BudgetStoreStatus;
  onStatus(listener: (status: BudgetStoreStatus) => void): () => void;
  close(): Promise<void>;
}

/**
 * GCRA without burst: slots T = 1000/limit ms apart on Redis's clock, so that no second (whatever
 * its alignment on the service) holds more than `limit` of the fleet's requests. Returns the wait.
 */
export const GCRA_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval = tonumber(ARGV[1])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local after = tat + interval
redis.call('SET', KEYS[1], tostring(after), 'PX', math.ceil(after - now) + 1000)
return tat - now
`;

/** A reservation slower than this is "Redis is slow": headers only for this request. */
export const STORE_TIMEOUT_MS = 100;

export class RedisBudgetStore implements BudgetStore {
  private readonly redis: Redis;
  private readonly where: string;
  private current: BudgetStoreStatus;
  private readonly listeners = new Set<(status: BudgetStoreStatus) => void>();
  private sha: string | null = null;

  constructor(
    url: string,
    private readonly log: (line: string) => void = (line) => console.error(line),
    private readonly timeoutMs = STORE_TIMEOUT_MS,
  ) {
    const parsed = new URL(url);
    if (parsed.protocol !== 'redis:') throw new Error(`budget store: expected redis://host:port/db, got ${parsed.protocol}`);
    this.where = `redis://${parsed.hostname}:${parsed.port || '6379'}${parsed.pathname === '/' ? '' : parsed.pathname}`;
    this.current = { state: 'unavailable', where: this.where, detail: 'connecting' };
    this.redis = new Redis(url, {
      // Fail at once while disconnected (we fall back to headers); reconnect in the background.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 1_000,
      retryStrategy: (times) => Math.min(2_000, 100 * times),
      lazyConnect: false,
    });
    this.redis.on('ready', () => this.set({ state: 'shared', where: this.where }));
    this.redis.on('error', (e: Error) => this.set({ state: 'unavailable', where: this.where, detail: e.message }));
    this.redis.on('end', () => this.set({ state: 'unavailable', where: this.where, detail: 'closed' }));
    this.redis.on('close', () => this.set({ state: 'unavailable', where: this.where, detail: 'connection closed' }));
  }

  async reserve(key: string, limit: number): Promise<number | null> {
    if (this.redis.status !== 'ready') return null;
    const interval = 1000 / Math.max(1, limit);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const slow = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), this.timeoutMs);
    });
    try {
      const wait = await Promise.race([this.run(key, interval), slow]);
      if (wait === null) this.set({ state: 'unavailable', where: this.where, detail: `no answer within ${this.timeoutMs} ms` });
      return wait;
    } catch (e) {
      this.set({ state: 'unavailable', where: this.where, detail: e instanceof Error ? e.message : String(e) });
      return null;
    } finally {
      clearTimeout(timer);
    }
  }

  status(): BudgetStoreStatus {
    return { ...this.current };
  }

  onStatus(listener: (status: BudgetStoreStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.listeners.clear();
    this.redis.disconnect(false);
  }

  private async run(key: string, interval: number): Promise<number> {
    this.sha ??= (await this.redis.script('LOAD', GCRA_SCRIPT)) as string;
    try {
      return Number(await this.redis.evalsha(this.sha, 1, key, String(interval)));
    } catch (e) {
      if (!(e instanceof Error) || !/NOSCRIPT/.test(e.message)) throw e;
      this.sha = null; // Redis restarted and lost its scripts: load again
      return this.run(key, interval);
    }
  }

  private set(next: BudgetStoreStatus): void {
    const changed = next.state !== this.current.state;
    this.current = next;
    if (!changed) return;
    this.log(next.state === 'shared' ? `budget store: using ${this.where}` : `budget store: ${this.where} unavailable (${next.detail ?? 'unknown'}); pacing from the headers alone until it is back`);
    for (const l of [...this.listeners]) {
      try {
        l(this.status());
      } catch {
        // a listener's bug must not break pacing
      }
    }
  }
}

/** What is wrong with a budget store URL (redis://host:port/db), or null when it is fine. */
export function budgetStoreProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return 'must be a redis://host:port/db URL';
  }
  if (parsed.protocol !== 'redis:') return `must be a redis://host:port/db URL, not ${parsed.protocol}`;
  if (parsed.hostname === '') return 'needs a host';
  const db = parsed.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d{1,2}$/.test(db)) return `has a database "${db}" that is not a number`;
  return null;
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
