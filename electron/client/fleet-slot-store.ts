/**
 * The fleet slot store: where the workers of a fleet reserve their slots before sending (DESIGN.md "The
 * budget store"). Without a store each process paces from the headers alone; the machine store
 * (machine-slot-store.ts) spaces the processes of one machine through a file. The Redis store (redis-slot-store.ts) reserves each request's slot atomically with GCRA (slot-scripts.ts):
 * the key holds only the theoretical arrival time (TAT) on Redis's own clock, so workers on many
 * machines never exceed the limit together, whatever their clocks say. The same script counts the slot
 * it grants per second, so the fleet's use can be read back (fleet-use.ts). The header model still runs
 * in every worker and corrects for consumers outside the store. Which store a scope uses, and when it
 * is closed, is scope-stores.ts's business alone.
 */
import { MAX_RETRY_AFTER_MS } from './backoff';

/** The contract's words (budgetStoreStateSchema): 'fallback' means headers only until Redis answers again. */
export type SlotStoreState = 'connecting' | 'connected' | 'fallback';

export interface SlotStoreStatus {
  state: SlotStoreState;
  /** Redis (a fleet on many machines) or the machine store (machine-slot-store.ts: the processes of one machine). */
  kind: 'redis' | 'machine';
  /** Where (redis://host:port/db, any credentials masked; "this machine"). */
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

export interface FleetSlotStore {
  /**
   * Reserves one slot of `limit` per second under `key`: resolves with the ms to wait before
   * sending (0: now) and the grace for sending late, or null when the store is unavailable (go on
   * with headers only). `refused`: the caller's last request under this key was answered 429 (the
   * fleet's slots were too close). `pace`: the caller's own fair-share pace from the headers (requests per
   * second); both stores space their slots by the sum of the live workers' paces where that is under the
   * limit (consumers outside the store take the rest) and say so in `Slot.paced`.
   */
  reserve(key: string, limit: number, refused?: boolean, pace?: number): Promise<Slot | null>;
  /** The slots granted under each key in the last `seconds` complete seconds, or null when unavailable. */
  granted(keys: readonly string[], seconds: number): Promise<GrantedCounts | null>;
  status(): SlotStoreStatus;
  onStatus(listener: (status: SlotStoreStatus) => void): () => void;
  close(): Promise<void>;
}

/**
 * A reserved slot: send after `waitMs`; sent more than `graceMs` later than that, the request may land in
 * a second the fleet's other slots have already filled (the spread the slots were spaced by).
 */
export interface Slot {
  waitMs: number;
  graceMs: number;
  /** How late its answer was read (answer-lag.ts): the slot was due that much before `waitMs` from now. */
  lateMs?: number;
  /** The schedule ran at the sum of the workers' paces, under the limit: the store sees consumers outside it. */
  paced?: boolean;
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
 * 0 ms gave 2-5% 429s and 25 ms 0-0.4%. The floor: of 8,931 requests of six such runs (after their
 * first 5 s), 6% reached the service more than 5 ms after their slot, 0.6% more than 10 ms.
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

export const DEFAULT_SPACING: Spacing = { startMs: 25, floorMs: 10, mostMs: 250, narrowMsPerSecond: 1 };

/**
 * A wait longer than a caller ever sleeps for a slot (slot-pacer.ts caps it at MAX_RETRY_AFTER_MS)
 * is not a schedule anyone keeps: garbage, headers only.
 */
export const MAX_SLOT_WAIT_MS = MAX_RETRY_AFTER_MS;

/** The store key of one bucket: base URL + vendor + endpoint. */
export function storeKey(baseUrl: string, vendor: string, endpoint: string): string {
  return `partner-console:budget:${baseUrl}:${vendor}:${endpoint}`;
}
