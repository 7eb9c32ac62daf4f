/**
 * A SQLite file opened for the app (better-sqlite3): WAL, synchronous=FULL (a committed write-ahead
 * is on disk, fsync'd, before the registration leaves), a busy timeout so that two app instances on
 * one folder wait for each other's lock instead of failing, a quick check, then the migrations.
 */
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import { migrate } from './migrations';
import type { Migration } from './migrations';
import { errorCode, errorMessage } from './store-errors';

/** How long a write waits for another instance's lock before it fails (ms). */
export const BUSY_TIMEOUT_MS = 5_000;
/**
 * How long a background write (one the user is not waiting on: an alert, a ledger retry) waits for the
 * lock: short, since better-sqlite3 waits on the main thread (pacing, IPC, the socket stop meanwhile).
 * What cannot land in it is kept and written later by its caller.
 */
export const BRIEF_WAIT_MS = 50;
/** Between two tries of an open that SQLite answered BUSY without waiting. */
const BUSY_RETRY_MS = 25;

type Driver = typeof BetterSqlite3;
let driver: Driver | null = null;

/**
 * better-sqlite3, loaded when first needed: its compiled binding fails to load where it was built
 * for another runtime (Node's ABI vs Electron's), and that must degrade the store, not stop the app.
 */
export function sqlite(): Driver {
  try {
    driver ??= createRequire(import.meta.url)('better-sqlite3') as Driver;
    return driver;
  } catch (e) {
    const abi = /NODE_MODULE_VERSION/.test(errorMessage(e));
    throw new Error(
      abi
        ? `better-sqlite3 was built for another runtime; rebuild it for this one (desktop: npx electron-builder install-app-deps; Node: npm rebuild better-sqlite3): ${errorMessage(e)}`
        : errorMessage(e),
    );
  }
}

/**
 * Runs `run` with the connection's lock wait at most `ms` (never longer than its own), then puts it back.
 * The one way a write on the main thread is kept from waiting out BUSY_TIMEOUT_MS.
 */
export function waitingAtMost<T>(db: Database, ms: number, run: () => T): T {
  const before = Number(db.pragma('busy_timeout', { simple: true }));
  if (before <= ms) return run();
  db.pragma(`busy_timeout = ${ms}`);
  try {
    return run();
  } finally {
    db.pragma(`busy_timeout = ${before}`);
  }
}

export function openAndMigrate(path: string, migrations: readonly Migration[], now: () => number): Database {
  const Sqlite = sqlite();
  const db = new Sqlite(path, { timeout: BUSY_TIMEOUT_MS });
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw Object.assign(new Error(`integrity check: ${String(check)}`), { code: 'SQLITE_CORRUPT' });
    migrate(db, migrations, now);
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}

/**
 * SQLite answers some lock conflicts with BUSY at once instead of waiting out the busy timeout (a
 * write begun on a snapshot another connection has just moved past: two instances opening or
 * migrating a new file at the same instant). The open is tried again for as long as a write would wait.
 */
export function openAndMigrateWaiting(path: string, migrations: readonly Migration[], now: () => number): Database {
  const waitUntil = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      return openAndMigrate(path, migrations, now);
    } catch (e) {
      if (!errorCode(e).startsWith('SQLITE_BUSY') || Date.now() >= waitUntil) throw e;
      // Synchronous like the rest of the open (at start, before the store is used).
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, BUSY_RETRY_MS);
    }
  }
}
