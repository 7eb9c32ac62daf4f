/**
 * A damaged database's readable rows, carried into a new one. The purchase ledger must come over
 * whole: a ledger missing records would let an asset be bought a second time without asking, so
 * when it cannot be read whole the salvage fails (the caller keeps registering off). The other
 * tables (usage history, alerts) keep what reads, and say what did not.
 */
import type { Database } from 'better-sqlite3';
import { errorMessage, isWriteFailure } from './store-errors';

/** The one table that must be read whole. */
const LEDGER_TABLE = 'purchase_ledger';

export interface Salvaged {
  /** Ledger records carried over (all of them). */
  ledgerRecords: number;
  /** Other tables some of whose rows could not be read or written (now missing). */
  partial: string[];
}

function columns(db: Database, table: string): string[] {
  return (db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string }[]).map((c) => c.name);
}

function tables(db: Database): string[] {
  const rows = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations'`).all();
  return (rows as { name: string }[]).map((r) => r.name);
}

/** Copies `table`'s readable rows; whole: every row read and written. Throws when the new file cannot be written (full, read-only): no row is missing then, the salvage is. */
function copyTable(from: Database, to: Database, table: string): { rows: number; whole: boolean; error: string | null } {
  const wanted = new Set(columns(to, table));
  const cols = columns(from, table).filter((c) => wanted.has(c));
  const list = cols.map((c) => `"${c}"`).join(', ');
  const insert = to.prepare(`INSERT INTO "${table}" (${list}) VALUES (${cols.map(() => '?').join(', ')})`);
  // Exact integers (a rowid or a count past 2^53 comes over as it was).
  const read = from.prepare(`SELECT ${list} FROM "${table}"`).raw(true).safeIntegers(true);
  let rows = 0;
  let error: string | null = null;
  try {
    for (const row of read.iterate() as Iterable<unknown[]>) {
      try {
        insert.run(...row);
        rows += 1;
      } catch (e) {
        if (isWriteFailure(e)) throw e;
        error ??= errorMessage(e);
      }
    }
  } catch (e) {
    if (isWriteFailure(e)) throw e;
    error ??= errorMessage(e);
  }
  return { rows, whole: error === null, error };
}

/**
 * Copies `damaged`'s rows into `fresh` (migrated, empty), in one transaction. Throws, with nothing
 * written, when the ledger cannot be read whole (or the file's list of tables cannot be read), or
 * when `fresh` cannot be written (its error's code says so: store-errors.ts isWriteFailure).
 */
export function salvageInto(damaged: Database, fresh: Database): Salvaged {
  const copy = fresh.transaction((): Salvaged => {
    const present = tables(damaged);
    if (!present.includes(LEDGER_TABLE)) throw new Error(`its ${LEDGER_TABLE} table is not listed`);
    const ledger = copyTable(damaged, fresh, LEDGER_TABLE);
    if (!ledger.whole) throw new Error(`${ledger.rows} of its records read, then: ${ledger.error}`);
    const known = new Set(tables(fresh));
    const partial = present.filter((t) => t !== LEDGER_TABLE && known.has(t) && !copyTable(damaged, fresh, t).whole);
    return { ledgerRecords: ledger.rows, partial };
  });
  return copy.immediate();
}
