/**
 * The machine store: the budget store of every process of one user on one machine, with no server to
 * run. Copies pacing from the headers alone cannot tell a slow copy from a large crowd (each sees the
 * fleet's total and its own rate, never how many share it), so eight catalog exports on one desk kept
 * the split they found in their first second to the end. Here they reserve their slots in one SQLite
 * file on the clock they all share, as a fleet on many machines does in Redis (slot-schedule.ts holds
 * the same rules as the Redis script; machine-store-file.ts the file). The file holds only the last
 * minutes' schedule: it is never worth a wait, so a lock held too long, a damaged file or a folder we
 * cannot write sends that request on the headers alone (null), as a slow Redis does.
 */
import { randomUUID } from 'node:crypto';
import type { FleetSlotStore, GrantedCounts, Slot, SlotStoreStatus, Spacing } from './fleet-slot-store';
import { DEFAULT_SPACING, MAX_SLOT_WAIT_MS } from './fleet-slot-store';
import { fileIdentity, isDamage, openStoreFile, setAside } from './machine-store-file';
import type { OpenStore, StoreStatements } from './machine-store-file';
import { reserveSlot, usableTime } from './slot-schedule';
import type { Schedule } from './slot-schedule';
import { COUNT_KEEP_MS, paceKeptMs } from './slot-scripts';

export { PACE_KEPT_MS } from './slot-scripts';
import { StoreStatus } from './store-status';

export { machineStoreFile } from './machine-store-file';

/**
 * How long a reservation waits for another process's lock: better-sqlite3 waits on this thread, and one
 * transaction takes well under a millisecond, so a longer hold is a stuck process, not a queue.
 */
export const LOCK_WAIT_MS = 20;
/**
 * The first open of a process waits longer: a fleet's processes start together and the first one makes the
 * file WAL and its tables (16 processes on 2 cores: at most 187 ms). Later opens wait as a reservation does.
 */
const FIRST_OPEN_WAIT_MS = 500;
/** After a failure to open, the next try (each blocks up to LOCK_WAIT_MS) comes this much later. */
const REOPEN_AFTER_MS = 5_000;
/** How often the path is checked for naming the file we have open (another process set a damaged one aside). */
const IDENTITY_CHECK_MS = 1_000;
/** How often old schedules, counts and paces are deleted. */
const PRUNE_EVERY_MS = 30_000;
/** Counts past this are another writer's (as in Redis). */
const MOST_COUNT = 1e9;

export class MachineSlotStore implements FleetSlotStore {
  private store: OpenStore | null = null;
  private readonly current = new StoreStatus({ state: 'connecting', where: 'this machine', kind: 'machine' });
  private retryOpenAt = 0;
  private checkedAt = 0;
  private prunedAt = 0;
  private closed = false;
  /** This process's store, among the workers whose paces are summed. */
  private readonly worker = `${process.pid}:${randomUUID()}`;

  constructor(
    private readonly file: string,
    private readonly log: (line: string) => void = (line) => console.error(line),
    private readonly spacing: Spacing = DEFAULT_SPACING,
    private readonly now: () => number = Date.now,
  ) {
    this.open(FIRST_OPEN_WAIT_MS);
  }

  reserve(key: string, limit: number, refused = false, pace?: number): Promise<Slot | null> {
    const slot = this.run(true, ({ db, statements: s }) =>
      db
        .transaction((): Slot | null => {
          const now = this.now();
          const rate = this.fleetRate(s, key, limit, pace, now);
          const r = reserveSlot(this.schedule(s, key, now), now, rate, refused, this.spacing, MAX_SLOT_WAIT_MS);
          s.put.run(key, r.next.tat, r.next.at, r.next.spreadMs, r.next.widenedAt);
          if (r.slotAt === null) return null;
          s.count.run(key, Math.floor(r.slotAt / 1000));
          // Waiting for its slot, the worker is still here: its pace counts until it could ask again.
          if (pace !== undefined && Number.isFinite(pace)) s.paceUntil.run(r.slotAt + paceKeptMs(pace, MAX_SLOT_WAIT_MS), key, this.worker);
          return { waitMs: r.waitMs, graceMs: Math.floor(r.spreadMs), lateMs: 0, ...(rate < limit ? { paced: true } : {}) };
        })
        .immediate(),
    );
    return Promise.resolve(slot ?? null);
  }

  /**
   * The key's stored schedule, usable values only. A next slot further ahead of its last reservation than any
   * reservation could have put it (another writer, a bad edit) is none: the schedule starts at now instead of
   * refusing every slot while saying it is connected.
   */
  private schedule(s: StoreStatements, key: string, now: number): Partial<Schedule> | undefined {
    const row = s.get.get(key) as Record<string, unknown> | undefined;
    if (!row) return undefined;
    const stored = { tat: usableTime(row.tat), at: usableTime(row.at), spreadMs: usableTime(row.spread_ms), widenedAt: usableTime(row.widened_at) };
    const furthest = (stored.at ?? now) + MAX_SLOT_WAIT_MS + 1000 + this.spacing.mostMs;
    if (stored.tat !== undefined && stored.tat > now && stored.tat > furthest) stored.tat = undefined;
    return stored;
  }

  /**
   * The rate the schedule runs at: the limit, or the sum of the workers' own paces where that is lower.
   * The store spaces its workers evenly, so their fair-share pacing (which would keep whatever split each
   * copy found at its start) stands aside; but it still reads the headers, and where consumers outside
   * the store (the vendor's other systems, copies on another machine) spend the budget, every worker's
   * pace falls, and so does their sum: the store leaves those consumers their part instead of running the
   * fleet at the whole limit into their requests. A pace counts until paceKeptMs() after its worker's
   * latest slot (never further ahead than any slot could put it: a clock stepped back does not keep the gone counting).
   */
  private fleetRate(s: StoreStatements, key: string, limit: number, pace: number | undefined, now: number): number {
    if (pace === undefined || !Number.isFinite(pace)) return limit;
    s.pace.run(key, this.worker, Math.min(limit, Math.max(0, pace)), now + paceKeptMs(pace, MAX_SLOT_WAIT_MS));
    const sum = Number((s.paces.get(key, now, now + 2 * MAX_SLOT_WAIT_MS) as { sum: unknown } | undefined)?.sum);
    return Number.isFinite(sum) && sum > 0 ? Math.min(limit, Math.max(1, sum)) : limit;
  }

  granted(keys: readonly string[], seconds: number): Promise<GrantedCounts | null> {
    if (keys.length === 0) return Promise.resolve(null);
    const n = Math.max(1, Math.min(Math.floor(seconds), Math.floor(COUNT_KEEP_MS / 1000) - 10));
    const first = Math.floor(this.now() / 1000) - n;
    const counts = this.run(false, ({ statements: s }) =>
      keys.map((key) => {
        const out = new Array<number>(n).fill(0);
        for (const row of s.granted.all(key, first, first + n - 1) as { second: unknown; n: unknown }[]) {
          const c = Number(row.n);
          const at = Number(row.second) - first;
          if (Number.isInteger(c) && c >= 0 && c < MOST_COUNT && Number.isInteger(at) && at >= 0 && at < n) out[at] = c;
        }
        return out;
      }),
    );
    return Promise.resolve(counts === undefined ? null : { fromMs: first * 1000, counts });
  }

  status(): SlotStoreStatus {
    return this.current.get();
  }

  onStatus(listener: (status: SlotStoreStatus) => void): () => void {
    return this.current.onChange(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.current.close();
    try {
      this.store?.statements.forget.run(this.worker); // our paces go with us, not when they lapse
    } catch {
      // busy or failing: they lapse by themselves
    }
    this.shut();
  }

  /**
   * `work` inside the file's lock, or undefined when the store cannot answer now (the request goes on the
   * headers). Only a reservation says the store works: a read can succeed where every write fails (a full
   * disk, a read-only file).
   */
  private run<T>(reservation: boolean, work: (store: OpenStore) => T): T | undefined {
    if (this.closed) return undefined;
    const now = this.now();
    if (this.store && now - this.checkedAt >= IDENTITY_CHECK_MS) {
      this.checkedAt = now;
      // Another process set a damaged file aside (or someone deleted it): the path names another file now.
      if (fileIdentity(this.file) !== this.store.identity) this.shut();
    }
    if (!this.store && now >= this.retryOpenAt) this.open(LOCK_WAIT_MS);
    const store = this.store;
    if (!store) return undefined;
    try {
      const value = work(store);
      this.prune(store, now);
      if (reservation) this.set({ state: 'connected', where: 'this machine', kind: 'machine' });
      return value;
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      // Another process holds the lock longer than a reservation takes: this one request on the headers.
      if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return undefined;
      this.failed(e, store.identity);
      return undefined;
    }
  }

  private open(waitMs: number): void {
    let identity: string | null = null;
    try {
      identity = fileIdentity(this.file);
      this.store = openStoreFile(this.file, waitMs, LOCK_WAIT_MS);
      this.checkedAt = this.now();
    } catch (e) {
      this.failed(e, identity);
    }
  }

  /** Old schedules, counts and paces go, now and then (a schedule unused that long starts afresh, as in Redis). */
  private prune(store: OpenStore, now: number): void {
    if (now - this.prunedAt < PRUNE_EVERY_MS) return;
    this.prunedAt = now;
    try {
      store.statements.prune(now, COUNT_KEEP_MS, 2 * MAX_SLOT_WAIT_MS);
    } catch {
      // busy or failing: the next prune deletes them
    }
  }

  /**
   * Headers only until the next try. A file that is not ours to read (damaged, tables of another shape) is
   * set aside, if the path still names it, and the next reservation starts a new one.
   */
  private failed(e: unknown, identity: string | null): void {
    this.shut();
    const now = this.now();
    const why = e instanceof Error ? e.message : String(e);
    const aside = isDamage(e) ? setAside(this.file, identity, now) : null;
    // Set aside by us, or already replaced by another process: the path names a new file to open at once.
    const replaced = aside !== null || (isDamage(e) && identity !== null && fileIdentity(this.file) !== identity);
    this.retryOpenAt = replaced ? 0 : now + REOPEN_AFTER_MS;
    const detail = aside !== null ? `${why}; set aside as ${aside}, a new one is started` : isDamage(e) && !replaced ? `${why}; move or delete the file` : why;
    this.set({ state: 'fallback', where: 'this machine', kind: 'machine', detail });
  }

  private shut(): void {
    try {
      this.store?.db.close();
    } catch {
      // closing a broken handle: nothing more to do with it
    }
    this.store = null;
  }

  private set(next: SlotStoreStatus): void {
    // The default of every catalog export: said when it fails and when it is back, not on every start.
    this.current.set(next, (before) => {
      if (next.state === 'fallback')
        this.log(`budget store: this machine's store (${this.file}) cannot be used (${next.detail ?? 'unknown'}); pacing from the headers alone until it can`);
      else if (before === 'fallback') this.log(`budget store: this machine's store (${this.file}) is back; its processes share the budget through it again`);
    });
  }
}
