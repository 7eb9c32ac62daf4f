/**
 * The machine store: the budget store of every process of one user on one machine, with no server to
 * run. Copies pacing from the headers alone cannot tell a slow copy from a large crowd (each sees the
 * fleet's total and its own rate, never how many share it), so eight catalog exports on one desk kept
 * the split they found in their first second to the end. Here they reserve their slots in one SQLite
 * file on the clock they all share, as a fleet on many machines does in Redis (slot-schedule.ts holds
 * the same rules as the Redis script). The file holds only the last minutes' schedule: it is never
 * worth a wait, so a lock held too long, a damaged file or a folder we cannot write sends that request
 * on the headers alone (null), as a slow Redis does.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Database, Statement } from 'better-sqlite3';
import { sqlite } from '../store/sqlite-open';
import type { FleetSlotStore, GrantedCounts, Slot, SlotStoreStatus, Spacing } from './fleet-slot-store';
import { DEFAULT_SPACING, MAX_SLOT_WAIT_MS } from './fleet-slot-store';
import { reserveSlot, usableTime } from './slot-schedule';
import { StoreStatus } from './store-status';
import type { Schedule } from './slot-schedule';
import { COUNT_KEEP_MS } from './slot-scripts';

/**
 * How long a reservation waits for another process's lock: better-sqlite3 waits on this thread, and one
 * transaction takes well under a millisecond, so a longer hold is a stuck process, not a queue.
 */
export const LOCK_WAIT_MS = 20;
/** How long opening the file waits for the lock of the others opening it. */
const OPEN_WAIT_MS = 2_000;
/** After a failure to open, the next reservation tries again this much later (each try is a file system call). */
const REOPEN_AFTER_MS = 5_000;
/** How often old schedules and counts are deleted. */
const PRUNE_EVERY_MS = 30_000;
/** A worker that reserved nothing for this long is gone: its pace no longer counts. */
export const PACE_KEPT_MS = 2_000;

/** Where the machine store lives: PARTNER_CONSOLE_STORE_DIR, else the user's cache folder. */
export function machineStoreFile(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  const dir = env.PARTNER_CONSOLE_STORE_DIR?.trim();
  if (dir) return join(dir, 'budget-slots.sqlite');
  const home = homedir();
  const cache =
    platform === 'win32'
      ? (env.LOCALAPPDATA ?? join(home, 'AppData', 'Local'))
      : platform === 'darwin'
        ? join(home, 'Library', 'Caches')
        : env.XDG_CACHE_HOME?.trim() || join(home, '.cache');
  return join(cache, 'partner-console', 'budget-slots.sqlite');
}

interface Statements {
  pace: Statement<[string, string, number, number]>;
  paces: Statement<[string, number]>;
  get: Statement<[string]>;
  put: Statement<[string, number, number, number, number]>;
  count: Statement<[string, number]>;
  granted: Statement<[string, number, number]>;
}

export class MachineSlotStore implements FleetSlotStore {
  private db: Database | null = null;
  private statements: Statements | null = null;
  private readonly current = new StoreStatus({ state: 'connecting', where: 'this machine', kind: 'machine' });
  private retryOpenAt = 0;
  /** This process's store, among the workers whose paces are summed. */
  private readonly worker = `${process.pid}:${randomUUID()}`;
  private prunedAt = 0;
  private closed = false;

  constructor(
    private readonly file: string,
    private readonly log: (line: string) => void = (line) => console.error(line),
    private readonly spacing: Spacing = DEFAULT_SPACING,
    private readonly now: () => number = Date.now,
  ) {
    this.open();
  }

  reserve(key: string, limit: number, refused = false, pace?: number): Promise<Slot | null> {
    return Promise.resolve(
      this.run((s, db) =>
        db
          .transaction((): Slot | null => {
            const now = this.now();
            const rate = this.fleetRate(s, key, limit, pace, now);
            const row = s.get.get(key) as Record<string, unknown> | undefined;
            const stored: Partial<Schedule> | undefined = row && {
              tat: usableTime(row.tat),
              at: usableTime(row.at),
              spreadMs: usableTime(row.spread_ms),
              widenedAt: usableTime(row.widened_at),
            };
            const r = reserveSlot(stored, now, rate, refused, this.spacing, MAX_SLOT_WAIT_MS);
            s.put.run(key, r.next.tat, r.next.at, r.next.spreadMs, r.next.widenedAt);
            if (r.slotAt === null) return null;
            s.count.run(key, Math.floor(r.slotAt / 1000));
            return { waitMs: r.waitMs, graceMs: Math.floor(r.spreadMs), lateMs: 0, ...(rate < limit ? { paced: true } : {}) };
          })
          .immediate(),
      ) ?? null,
    );
  }

  /**
   * The rate the schedule runs at: the limit, or the sum of the workers' own paces where that is lower.
   * The store spaces its workers evenly, so their fair-share pacing (which would keep whatever split each
   * copy found at its start) stands aside; but it still reads the headers, and where consumers outside
   * the store (the vendor's other systems, copies on another machine) spend the budget, every worker's
   * pace falls, and so does their sum: the store leaves those consumers their part instead of running the
   * fleet at the whole limit into their requests. A pace not renewed within PACE_KEPT_MS is a worker gone.
   */
  private fleetRate(s: Statements, key: string, limit: number, pace: number | undefined, now: number): number {
    if (pace === undefined || !Number.isFinite(pace)) return limit;
    s.pace.run(key, this.worker, Math.min(limit, Math.max(0, pace)), now);
    const sum = Number((s.paces.get(key, now - PACE_KEPT_MS) as { sum: unknown } | undefined)?.sum);
    return Number.isFinite(sum) && sum > 0 ? Math.min(limit, Math.max(1, sum)) : limit;
  }

  granted(keys: readonly string[], seconds: number): Promise<GrantedCounts | null> {
    if (keys.length === 0) return Promise.resolve(null);
    const n = Math.max(1, Math.min(Math.floor(seconds), Math.floor(COUNT_KEEP_MS / 1000) - 10));
    const first = Math.floor(this.now() / 1000) - n;
    const counts = this.run((s) =>
      keys.map((key) => {
        const out = new Array<number>(n).fill(0);
        for (const row of s.granted.all(key, first, first + n - 1) as { second: number; n: unknown }[]) {
          const c = Number(row.n);
          if (Number.isInteger(c) && c >= 0) out[row.second - first] = c;
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
    this.shut();
  }

  /** `work` inside the file's lock, or undefined when the store cannot answer now (the request goes on the headers). */
  private run<T>(work: (s: Statements, db: Database) => T): T | undefined {
    if (this.closed) return undefined;
    if (!this.db && this.now() >= this.retryOpenAt) this.open();
    const db = this.db;
    const s = this.statements;
    if (!db || !s) return undefined;
    try {
      const value = work(s, db);
      try {
        this.prune(db);
      } catch {
        // busy or failing: the next prune deletes them
      }
      this.set({ state: 'connected', where: 'this machine', kind: 'machine' });
      return value;
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      // Another process holds the lock longer than a reservation takes: this one request on the headers.
      if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return undefined;
      this.failed(e, code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB');
      return undefined;
    }
  }

  private open(): void {
    try {
      mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
      // Opening waits longer than a reservation: a fleet's processes start together and each opens the file
      // (the first makes it WAL and its tables), once, before its first request.
      const db = new (sqlite())(this.file, { timeout: OPEN_WAIT_MS });
      try {
        db.pragma('journal_mode = WAL');
        // A lost schedule costs one second of pacing from the headers: not worth an fsync per request.
        db.pragma('synchronous = OFF');
        db.exec(`
          CREATE TABLE IF NOT EXISTS slot_schedule (
            key TEXT PRIMARY KEY, tat REAL, at REAL, spread_ms REAL, widened_at REAL
          ) WITHOUT ROWID;
          CREATE TABLE IF NOT EXISTS slot_count (
            key TEXT NOT NULL, second INTEGER NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (key, second)
          ) WITHOUT ROWID;
          CREATE TABLE IF NOT EXISTS slot_pace (
            key TEXT NOT NULL, worker TEXT NOT NULL, pace REAL, at REAL, PRIMARY KEY (key, worker)
          ) WITHOUT ROWID;`);
        this.statements = {
          pace: db.prepare('INSERT OR REPLACE INTO slot_pace (key, worker, pace, at) VALUES (?, ?, ?, ?)'),
          // Only numbers a worker could have written count (another writer's text or NaN is none).
          paces: db.prepare("SELECT SUM(pace) AS sum FROM slot_pace WHERE key = ? AND at > ? AND typeof(pace) IN ('real', 'integer') AND pace >= 0"),
          get: db.prepare('SELECT tat, at, spread_ms, widened_at FROM slot_schedule WHERE key = ?'),
          put: db.prepare('INSERT OR REPLACE INTO slot_schedule (key, tat, at, spread_ms, widened_at) VALUES (?, ?, ?, ?, ?)'),
          count: db.prepare(
            // A count another writer left as text or a fraction restarts at this slot.
            `INSERT INTO slot_count (key, second, n) VALUES (?, ?, 1) ON CONFLICT (key, second) DO UPDATE SET
               n = CASE WHEN typeof(n) = 'integer' AND n >= 0 THEN n + 1 ELSE 1 END`,
          ),
          granted: db.prepare('SELECT second, n FROM slot_count WHERE key = ? AND second BETWEEN ? AND ?'),
        };
        db.pragma(`busy_timeout = ${LOCK_WAIT_MS}`);
        this.db = db;
      } catch (e) {
        db.close();
        throw e;
      }
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      this.failed(e, code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB');
    }
  }

  /** Old schedules and counts go, now and then (a schedule unused that long starts afresh, as in Redis). */
  private prune(db: Database): void {
    const now = this.now();
    if (now - this.prunedAt < PRUNE_EVERY_MS) return;
    this.prunedAt = now;
    db.prepare('DELETE FROM slot_schedule WHERE NOT (at > ?)').run(now - COUNT_KEEP_MS);
    db.prepare('DELETE FROM slot_count WHERE NOT (second > ?)').run(Math.floor((now - COUNT_KEEP_MS) / 1000));
    db.prepare('DELETE FROM slot_pace WHERE NOT (at > ?)').run(now - PACE_KEPT_MS);
  }

  /** Headers only until the next try; a damaged file (it holds minutes of schedule, nothing else) is started afresh. */
  private failed(e: unknown, damaged: boolean): void {
    this.shut();
    this.retryOpenAt = damaged ? 0 : this.now() + REOPEN_AFTER_MS;
    if (damaged) {
      for (const suffix of ['', '-wal', '-shm']) rmSync(this.file + suffix, { force: true });
    }
    const why = e instanceof Error ? e.message : String(e);
    this.set({ state: 'fallback', where: 'this machine', kind: 'machine', detail: damaged ? `${why}; the file is started afresh` : why });
  }

  private shut(): void {
    try {
      this.db?.close();
    } catch {
      // closing a broken handle: nothing more to do with it
    }
    this.db = null;
    this.statements = null;
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
