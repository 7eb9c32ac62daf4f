/**
 * Opens the app's one SQLite database in a data folder (better-sqlite3): WAL, synchronous=FULL (a
 * committed write-ahead is on disk, fsync'd, before the registration leaves), a busy timeout so
 * that two app instances on one folder wait for each other's lock instead of failing, then the
 * migrations. A damaged file is moved aside for a new one holding its readable rows when its purchase
 * ledger reads whole (salvage.ts); otherwise, like a folder where no database can be opened
 * (read-only, full), it gives a problem sentence and no database: the callers refuse what needs it.
 */
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import { migrate, schemaVersion } from './migrations';
import type { Migration } from './migrations';
import { MIGRATIONS } from './migrations';
import { salvageInto } from './salvage';
import type { Salvaged } from './salvage';

export const STORE_FILE_NAME = 'partner-console.db';
/** How long a write waits for another instance's lock before it fails (ms). */
export const BUSY_TIMEOUT_MS = 5_000;
/** Between two tries of an open that SQLite answered BUSY without waiting. */
const BUSY_RETRY_MS = 25;

export interface OpenedDatabase {
  db: Database | null;
  path: string;
  /** A sentence for the user when the database was moved aside or cannot be used; else null. */
  problem: string | null;
}

export interface OpenOptions {
  now?: () => number;
  migrations?: readonly Migration[];
}

const CORRUPT_CODES = new Set(['SQLITE_NOTADB', 'SQLITE_CORRUPT']);

function errorCode(e: unknown): string {
  return typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : '';
}

function describe(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

type Driver = typeof BetterSqlite3;
let driver: Driver | null = null;

/**
 * better-sqlite3, loaded when first needed: its compiled binding fails to load where it was built
 * for another runtime (Node's ABI vs Electron's), and that must degrade the store, not stop the app.
 */
function sqlite(): Driver {
  try {
    driver ??= createRequire(import.meta.url)('better-sqlite3') as Driver;
    return driver;
  } catch (e) {
    const abi = /NODE_MODULE_VERSION/.test(describe(e));
    throw new Error(
      abi
        ? `better-sqlite3 was built for another runtime; rebuild it for this one (desktop: npx electron-builder install-app-deps; Node: npm rebuild better-sqlite3): ${describe(e)}`
        : describe(e),
    );
  }
}

function openAndMigrate(path: string, migrations: readonly Migration[], now: () => number): Database {
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
function openAndMigrateWaiting(path: string, migrations: readonly Migration[], now: () => number): Database {
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

function timestampForFileName(ms: number): string {
  return new Date(ms).toISOString().replace(/[:.]/g, '-');
}

const JOURNAL_SUFFIXES = ['-wal', '-shm'];

/** Moves a database file and its journal files (they belong to it: another file must not replay them). */
function moveDatabase(from: string, to: string): void {
  renameSync(from, to);
  for (const suffix of JOURNAL_SUFFIXES) if (existsSync(from + suffix)) renameSync(from + suffix, to + suffix);
}

function removeDatabase(path: string): void {
  for (const suffix of ['', ...JOURNAL_SUFFIXES]) rmSync(path + suffix, { force: true });
}

/** A new database file at `to` holding every readable row of the damaged one (salvage.ts); throws when the ledger cannot be read whole. */
function salvageTo(damagedPath: string, to: string, migrations: readonly Migration[], now: () => number): Salvaged {
  removeDatabase(to);
  const damaged = new (sqlite())(damagedPath, { readonly: true, fileMustExist: true });
  try {
    const fresh = openAndMigrate(to, migrations, now);
    try {
      const salvaged = salvageInto(damaged, fresh);
      fresh.pragma('wal_checkpoint(TRUNCATE)');
      return salvaged;
    } finally {
      fresh.close();
    }
  } catch (e) {
    removeDatabase(to);
    throw e;
  } finally {
    damaged.close();
  }
}

export function openDatabase(dataDir: string, options: OpenOptions = {}): OpenedDatabase {
  const now = options.now ?? Date.now;
  const migrations = options.migrations ?? MIGRATIONS;
  const path = join(dataDir, STORE_FILE_NAME);
  try {
    mkdirSync(dataDir, { recursive: true });
    return { db: openAndMigrateWaiting(path, migrations, now), path, problem: null };
  } catch (e) {
    if (!CORRUPT_CODES.has(errorCode(e)) || !existsSync(path)) {
      return { db: null, path, problem: `The purchase ledger ${path} cannot be opened (${describe(e)}). Registering purchases is off until it can.` };
    }
    // Never an empty ledger in its place (the guard would forget what was bought): its records carried over whole, or registering stays off.
    let salvaged: Salvaged;
    try {
      salvaged = salvageTo(path, `${path}.salvage`, migrations, now);
    } catch (unreadable) {
      return {
        db: null,
        path,
        problem: `The purchase ledger ${path} is damaged (${describe(e)}) and its records cannot all be read (${describe(unreadable)}). Registering purchases is off, so that nothing is bought twice; the file was left as it is. Check recent purchases with the vendor (or put back a backup of the file), then move the file out of its folder: the app then starts a new, empty ledger.`,
      };
    }
    const aside = `${path}.corrupt-${timestampForFileName(now())}`;
    try {
      moveDatabase(path, aside);
      moveDatabase(`${path}.salvage`, path);
      const lost =
        salvaged.partial.length > 0
          ? ` Some rows of ${salvaged.partial.join(', ')} (usage history or alerts, not purchases) could not be read and are missing.`
          : '';
      return {
        db: openAndMigrate(path, migrations, now),
        path,
        problem: `The purchase ledger file was damaged (${describe(e)}). It was kept as ${aside}; all ${salvaged.ledgerRecords} purchase ledger records in it were read and carried over to a new file, so registering still asks about them.${lost}`,
      };
    } catch (again) {
      return {
        db: null,
        path,
        problem: `The purchase ledger ${path} is damaged (${describe(e)}) and could not be replaced by its salvaged copy (${describe(again)}). Registering purchases is off until it is fixed or removed.`,
      };
    }
  }
}

export interface ReadOnlyOptions {
  /** Tables the reader needs: a database of an older schema without them is refused, not migrated. */
  tables?: readonly string[];
  migrations?: readonly Migration[];
}

/**
 * The database opened read only, for a reader beside the app (the report CLI): never migrated, moved
 * aside or created, since the file is also the purchase ledger. A missing, damaged or foreign file,
 * one of a newer app, or one of an older schema without the tables asked for gives a problem sentence
 * and no database. (SQLite may add its -wal and -shm files beside it: reading a WAL database needs them.)
 */
export function openDatabaseReadOnly(dataDir: string, options: ReadOnlyOptions = {}): OpenedDatabase {
  const path = join(dataDir, STORE_FILE_NAME);
  let db: Database;
  try {
    db = new (sqlite())(path, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  } catch (e) {
    return { db: null, path, problem: `Cannot open ${path} (${describe(e)}).` };
  }
  let problem: string | null;
  try {
    problem = readOnlyProblem(db, options);
  } catch (e) {
    problem = `${path} is damaged or not a Partner Console database (${describe(e)}). It was left as it is.`;
  }
  if (problem === null) return { db, path, problem: null };
  db.close();
  return { db: null, path, problem };
}

/** Why a database opened read only cannot be read as this version reads it; null when it can. Throws on a damaged file. */
function readOnlyProblem(db: Database, options: ReadOnlyOptions): string | null {
  const check = db.pragma('quick_check', { simple: true });
  if (check !== 'ok') throw new Error(`integrity check: ${String(check)}`);
  const present = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name));
  if (!present.has('schema_migrations')) return `${db.name} is not a Partner Console database (it has no schema_migrations table). It was left as it is.`;
  const version = schemaVersion(db);
  const known = Math.max(0, ...(options.migrations ?? MIGRATIONS).map((m) => m.version));
  if (version > known)
    return `${db.name} was written by a newer version of the app (schema ${version}; this one knows up to ${known}). Run the report of that version.`;
  const missing = (options.tables ?? []).filter((t) => !present.has(t));
  if (missing.length > 0) {
    return `${db.name} is of an older schema (${version}) without ${missing.join(', ')}. Open the app once to bring it up to date; it was left as it is.`;
  }
  return null;
}
