/**
 * Opens the app's one SQLite database in a data folder (better-sqlite3): WAL, synchronous=FULL (a
 * committed write-ahead is on disk, fsync'd, before the registration leaves), a busy timeout so
 * that two app instances on one folder wait for each other's lock instead of failing, then the
 * migrations. A file that is not a database (or is corrupt) is moved aside, like the settings file,
 * and a fresh one is started; a folder where no database can be opened (read-only, full) gives a
 * problem sentence and no database: the callers refuse what needs it.
 */
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import { migrate, schemaVersion } from './migrations';
import type { Migration } from './migrations';
import { MIGRATIONS } from './migrations';

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
    const aside = `${path}.corrupt-${timestampForFileName(now())}`;
    try {
      renameSync(path, aside);
      // Its journal files belong to the old file; a fresh database must not replay them.
      for (const suffix of ['-wal', '-shm']) if (existsSync(path + suffix)) renameSync(path + suffix, aside + suffix);
      return {
        db: openAndMigrate(path, migrations, now),
        path,
        problem: `The purchase ledger was unusable (${describe(e)}). It was kept as ${aside}; a new, empty ledger was started, so purchases registered before are not listed.`,
      };
    } catch (again) {
      return {
        db: null,
        path,
        problem: `The purchase ledger ${path} is unusable (${describe(e)}) and could not be replaced (${describe(again)}). Registering purchases is off until it is fixed or removed.`,
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
