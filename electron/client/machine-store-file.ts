/**
 * The machine store's file (machine-slot-store.ts): where it lives, how it is opened, and what is done with
 * one that cannot be read. Every process of the user on the machine opens the same path, so a damaged file
 * is never deleted under the others: it is renamed aside (they keep their handle on it until they see the
 * path name another file, within a second), and only by a process that still has that very file open.
 */
import { existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import type { Database, Statement } from 'better-sqlite3';
import { sqlite } from '../store/sqlite-open';

/** The number is the tables' shape: a later shape is a new file, never a migration under running processes. */
export const STORE_FILE_NAME = 'budget-slots-1.sqlite';

/**
 * Where the machine store lives: PARTNER_CONSOLE_STORE_DIR, else the user's cache folder. Only absolute
 * folders count (the XDG rule): a relative one would give each working folder a store of its own.
 */
export function machineStoreFile(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  const absolute = (dir: string | undefined): string | undefined => (dir?.trim() && isAbsolute(dir.trim()) ? dir.trim() : undefined);
  const dir = absolute(env.PARTNER_CONSOLE_STORE_DIR);
  if (dir) return join(dir, STORE_FILE_NAME);
  const home = homedir();
  const cache =
    platform === 'win32'
      ? (absolute(env.LOCALAPPDATA) ?? join(home, 'AppData', 'Local'))
      : platform === 'darwin'
        ? join(home, 'Library', 'Caches')
        : (absolute(env.XDG_CACHE_HOME) ?? join(home, '.cache'));
  return join(cache, 'partner-console', STORE_FILE_NAME);
}

export interface StoreStatements {
  pace: Statement<[string, string, number, number]>;
  paces: Statement<[string, number, number]>;
  paceUntil: Statement<[number, string, string]>;
  forget: Statement<[string]>;
  get: Statement<[string]>;
  put: Statement<[string, number, number, number, number]>;
  count: Statement<[string, number]>;
  granted: Statement<[string, number, number]>;
  prune: (now: number, keepMs: number, pacesAheadMs: number) => void;
}

/** The file as one process has it open: its handle, its statements, and which file it is (the path may come to name another). */
export interface OpenStore {
  db: Database;
  statements: StoreStatements;
  identity: string | null;
}

/** Which file the path names now (device and inode), or null when none. */
export function fileIdentity(file: string): string | null {
  try {
    const s = statSync(file);
    return `${s.dev}:${s.ino}`;
  } catch {
    return null;
  }
}

/**
 * Opens (creating) the file, waiting at most `waitMs` for another process's lock, and `lockWaitMs` in every
 * transaction after that. WAL with synchronous=NORMAL:
 * a commit is not fsync'd (a lost schedule costs a second of pacing from the headers), and a power cut loses
 * the last commits but never corrupts the file.
 */
export function openStoreFile(file: string, waitMs: number, lockWaitMs: number): OpenStore {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const db = new (sqlite())(file, { timeout: waitMs });
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec(`
      CREATE TABLE IF NOT EXISTS slot_schedule (
        key TEXT PRIMARY KEY, tat REAL, at REAL, spread_ms REAL, widened_at REAL
      ) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS slot_count (
        key TEXT NOT NULL, second INTEGER NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (key, second)
      ) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS slot_pace (
        key TEXT NOT NULL, worker TEXT NOT NULL, pace REAL, until REAL, PRIMARY KEY (key, worker)
      ) WITHOUT ROWID;`);
    // Only numbers a worker could have written count: another writer's text or NaN is none.
    const numeric = (column: string) => `typeof(${column}) IN ('real', 'integer')`;
    const pruneSchedules = db.prepare(`DELETE FROM slot_schedule WHERE NOT (${numeric('at')} AND at > ?)`);
    const pruneCounts = db.prepare(`DELETE FROM slot_count WHERE NOT (${numeric('second')} AND second > ?)`);
    const prunePaces = db.prepare(`DELETE FROM slot_pace WHERE NOT (${numeric('until')} AND until > ? AND until <= ?)`);
    const statements: StoreStatements = {
      pace: db.prepare('INSERT OR REPLACE INTO slot_pace (key, worker, pace, until) VALUES (?, ?, ?, ?)'),
      paces: db.prepare(
        `SELECT SUM(pace) AS sum FROM slot_pace WHERE key = ? AND ${numeric('pace')} AND pace >= 0 AND ${numeric('until')} AND until > ? AND until <= ?`,
      ),
      paceUntil: db.prepare('UPDATE slot_pace SET until = ? WHERE key = ? AND worker = ?'),
      forget: db.prepare('DELETE FROM slot_pace WHERE worker = ?'),
      get: db.prepare('SELECT tat, at, spread_ms, widened_at FROM slot_schedule WHERE key = ?'),
      put: db.prepare('INSERT OR REPLACE INTO slot_schedule (key, tat, at, spread_ms, widened_at) VALUES (?, ?, ?, ?, ?)'),
      // A count another writer left as text or a fraction restarts at this slot.
      count: db.prepare(
        `INSERT INTO slot_count (key, second, n) VALUES (?, ?, 1) ON CONFLICT (key, second) DO UPDATE SET
           n = CASE WHEN typeof(n) = 'integer' AND n >= 0 THEN n + 1 ELSE 1 END`,
      ),
      granted: db.prepare('SELECT second, n FROM slot_count WHERE key = ? AND second BETWEEN ? AND ?'),
      prune: (now, keepMs, pacesAheadMs) => {
        pruneSchedules.run(now - keepMs);
        pruneCounts.run(Math.floor((now - keepMs) / 1000));
        prunePaces.run(now, now + pacesAheadMs);
      },
    };
    db.pragma(`busy_timeout = ${lockWaitMs}`);
    return { db, statements, identity: fileIdentity(file) };
  } catch (e) {
    db.close();
    throw e;
  }
}

/** SQLite's word for a file that is not (or no longer) ours to read: damaged, not a database, or tables of another shape. */
export function isDamage(e: unknown): boolean {
  const code = (e as { code?: unknown }).code;
  return code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB' || code === 'SQLITE_ERROR';
}

/**
 * Moves a damaged file (with its -wal and -shm) aside as `<file>.damaged-<time>`, so the next open starts a
 * new one: only while the path still names the file we found damaged (`identity`; null: the one we could not
 * open), since another process may have replaced it already. Returns where it went, or null.
 */
export function setAside(file: string, identity: string | null, now: number): string | null {
  const current = fileIdentity(file);
  if (current === null || (identity !== null && current !== identity)) return null;
  const aside = `${file}.damaged-${now}`;
  try {
    // The write-ahead log first: a new file must never find the old one's log beside it and replay it.
    for (const suffix of ['-wal', '-shm']) if (existsSync(file + suffix)) renameSync(file + suffix, aside + suffix);
    renameSync(file, aside);
    return aside;
  } catch {
    return null; // held open where a rename is refused (Windows), or gone meanwhile: headers only until it can be
  }
}
