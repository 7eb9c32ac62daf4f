/**
 * Opens the app's one SQLite database in a data folder (sqlite-open.ts). A damaged file is replaced
 * by a new one holding its readable rows when its purchase ledger reads whole (salvage.ts), the
 * damaged file kept aside (salvage-files.ts); otherwise, like a folder where no database can be
 * opened (read-only, full), it gives a problem sentence and no database: the callers refuse what
 * needs it. Never an empty ledger in place of one that held records: the guard would forget what was bought.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { schemaVersion } from './migrations';
import type { Migration } from './migrations';
import { MIGRATIONS } from './migrations';
import { salvageInto } from './salvage';
import type { Salvaged } from './salvage';
import { asidePath, finishSalvage, keptAside, removeDatabase, salvagedPath, stagingPath, swapIn } from './salvage-files';
import type { FileStep } from './salvage-files';
import { BUSY_TIMEOUT_MS, openAndMigrate, openAndMigrateWaiting, sqlite } from './sqlite-open';
import { errorMessage, isStoreDamage, isWriteFailure } from './store-errors';

export const STORE_FILE_NAME = 'partner-console.db';

export interface OpenedDatabase {
  db: Database | null;
  path: string;
  /** A sentence for the user when the database was moved aside or cannot be used; else null. */
  problem: string | null;
}

export interface OpenOptions {
  now?: () => number;
  migrations?: readonly Migration[];
  /** Called before each step of a salvage that changes the folder (a test stops it there, as a crash would). */
  beforeFileStep?: FileStep;
}

const OFF = 'Registering purchases is off';

/** A finished salvage of the damaged file at `path`, in salvagedPath(path); throws when it cannot be written or the ledger cannot be read whole. */
function salvage(path: string, migrations: readonly Migration[], now: () => number, step: FileStep): Salvaged {
  const staging = stagingPath(path);
  removeDatabase(staging);
  const damaged = new (sqlite())(path, { readonly: true, fileMustExist: true });
  try {
    const fresh = openAndMigrate(staging, migrations, now);
    let salvaged: Salvaged;
    try {
      salvaged = salvageInto(damaged, fresh);
      // One file, no journal beside it: what is renamed is the whole salvage.
      if (fresh.pragma('journal_mode = DELETE', { simple: true }) !== 'delete') throw new Error('the new file keeps its write-ahead log');
    } finally {
      fresh.close();
    }
    finishSalvage(path, step);
    return salvaged;
  } catch (e) {
    removeDatabase(staging);
    throw e;
  } finally {
    damaged.close();
  }
}

/** The sentence after a damaged file was replaced by its salvage. */
function salvagedWords(damage: unknown, aside: string, salvaged: Salvaged): string {
  const lost =
    salvaged.partial.length > 0
      ? ` Some rows of ${salvaged.partial.join(', ')} (usage history or alerts, not purchases) could not be read and are missing.`
      : '';
  return `The purchase ledger file was damaged (${errorMessage(damage)}). It was kept as ${aside}; all ${salvaged.ledgerRecords} purchase ledger records in it were read and carried over to a new file, so registering still asks about them.${lost}`;
}

/** The damaged file at `path` replaced by its salvage, or why not (registering off, the file left as it is). */
function replaceDamaged(path: string, damage: unknown, migrations: readonly Migration[], now: () => number, step: FileStep): OpenedDatabase {
  let salvaged: Salvaged;
  try {
    salvaged = salvage(path, migrations, now, step);
  } catch (failure) {
    const problem = isWriteFailure(failure)
      ? `The purchase ledger ${path} is damaged (${errorMessage(damage)}); its records read, but the new file for them could not be written in its folder (${errorMessage(failure)}). ${OFF}; the file was left as it is. Free space on the disk, or make the folder writable, then restart the app: it carries the records over then.`
      : `The purchase ledger ${path} is damaged (${errorMessage(damage)}) and its records cannot all be read (${errorMessage(failure)}). ${OFF}, so that nothing is bought twice; the file was left as it is. Check recent purchases with the vendor (or put back a backup of the file), then move the file out of its folder: the app then starts a new, empty ledger.`;
    return { db: null, path, problem };
  }
  return swapAndOpen(path, migrations, now, step, (aside) => salvagedWords(damage, aside, salvaged));
}

/** The finished salvage swapped in and opened; `words` say what happened, given where the replaced file was kept. */
function swapAndOpen(path: string, migrations: readonly Migration[], now: () => number, step: FileStep, words: (aside: string) => string): OpenedDatabase {
  const aside = asidePath(path, now());
  try {
    swapIn(path, aside, step);
    return { db: openAndMigrate(path, migrations, now), path, problem: words(aside) };
  } catch (failure) {
    return {
      db: null,
      path,
      problem: `The purchase ledger ${path} could not be replaced by its salvaged copy ${salvagedPath(path)} (${errorMessage(failure)}). ${OFF}; both files were kept, and the next start tries again${isWriteFailure(failure) ? ' (free space on the disk, or make the folder writable, first)' : ''}.`,
    };
  }
}

/** A start that must not open or create the file at `path`: a salvage cut off, or a damaged ledger kept aside with none in its place. */
function interrupted(path: string, migrations: readonly Migration[], now: () => number, step: FileStep): OpenedDatabase | null {
  if (existsSync(salvagedPath(path))) {
    const replaced = existsSync(path);
    return swapAndOpen(path, migrations, now, step, (aside) =>
      replaced
        ? `A salvage of the damaged purchase ledger was cut off; it was finished now: the salvaged ledger is in place, and the file it replaced was kept as ${aside}.`
        : `A salvage of the damaged purchase ledger was cut off; it was finished now: the salvaged ledger is in place.`,
    );
  }
  const aside = existsSync(path) ? [] : keptAside(path);
  if (aside.length === 0) return null;
  return {
    db: null,
    path,
    problem: `The purchase ledger ${path} is missing, but a damaged ledger was kept beside it (${aside.join(', ')}). ${OFF}: the app does not start a new, empty ledger that knows none of the purchases. Put back the ledger (or a backup of it) as ${path}; or, after checking recent purchases with the vendor, move the .corrupt files out of the folder: the app then starts a new, empty ledger.`,
  };
}

export function openDatabase(dataDir: string, options: OpenOptions = {}): OpenedDatabase {
  const now = options.now ?? Date.now;
  const migrations = options.migrations ?? MIGRATIONS;
  const step = options.beforeFileStep ?? (() => undefined);
  const path = join(dataDir, STORE_FILE_NAME);
  try {
    mkdirSync(dataDir, { recursive: true });
    const resumed = interrupted(path, migrations, now, step);
    if (resumed) return resumed;
    return { db: openAndMigrateWaiting(path, migrations, now), path, problem: null };
  } catch (e) {
    if (!isStoreDamage(e) || !existsSync(path)) {
      return { db: null, path, problem: `The purchase ledger ${path} cannot be opened (${errorMessage(e)}). ${OFF} until it can.` };
    }
    return replaceDamaged(path, e, migrations, now, step);
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
    return { db: null, path, problem: `Cannot open ${path} (${errorMessage(e)}).` };
  }
  let problem: string | null;
  try {
    problem = readOnlyProblem(db, options);
  } catch (e) {
    problem = `${path} is damaged or not a Partner Console database (${errorMessage(e)}). It was left as it is.`;
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
