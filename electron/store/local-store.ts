/**
 * The app's local store in its data folder: one SQLite database (database.ts) and what lives in it
 * (today the purchase ledger). When the database cannot be opened the store is degraded: `problem`
 * says why, and `ledger()` refuses with LEDGER_UNAVAILABLE, so that no registration goes out
 * without the guard.
 */
import { dirname } from 'node:path';
import type { Database } from 'better-sqlite3';
import { PartnerError } from '../../shared/errors';
import { openDatabase } from './database';
import type { OpenOptions } from './database';
import { PurchaseLedger } from './ledger';
import type { LedgerOptions } from './ledger';
import { AlertStore } from './alert-store';
import { IdKindStore } from './id-kind-store';
import { UsageStore } from './usage-store';
import type { UsageStoreOptions } from './usage-store';

export class LocalStore {
  readonly path: string;
  /** Why the store was reset or cannot be used, for the user; null when all is well. */
  readonly problem: string | null;
  private readonly db: Database | null;
  private readonly purchaseLedger: PurchaseLedger | null;
  private readonly others: (() => void)[] = [];

  constructor(dataDir: string, options: OpenOptions & LedgerOptions = {}) {
    const opened = openDatabase(dataDir, options);
    this.path = opened.path;
    this.problem = opened.problem;
    this.db = opened.db;
    this.purchaseLedger = opened.db ? new PurchaseLedger(opened.db, options) : null;
    this.purchaseLedger?.recoverInterrupted();
  }

  get available(): boolean {
    return this.purchaseLedger !== null;
  }

  /** The ledger; throws LEDGER_UNAVAILABLE when the database could not be opened. */
  ledger(): PurchaseLedger {
    if (this.purchaseLedger) return this.purchaseLedger;
    throw new PartnerError({
      code: 'LEDGER_UNAVAILABLE',
      message: 'The purchase ledger cannot be used, so registering is off: a registration must be recorded before it is sent.',
      hint: this.problem ?? undefined,
      retryable: false,
    });
  }

  /**
   * The usage history on a connection of its own (synchronous=NORMAL: history may lose its last
   * second to a power cut; the ledger may not). null when the store cannot be used.
   */
  openUsage(options: UsageStoreOptions): UsageStore | null {
    const opened = this.db ? openDatabase(dirname(this.path)) : null;
    if (!opened?.db) return null;
    opened.db.pragma('synchronous = NORMAL');
    const usage = new UsageStore(opened.db, options);
    this.others.push(() => {
      usage.close();
      opened.db?.close();
    });
    return usage;
  }

  /** Alert rules and alerts (on the ledger's connection: few, small writes); null when the store cannot be used. */
  alerts(): AlertStore | null {
    return this.db ? new AlertStore(this.db) : null;
  }

  /** How services wrote the asset ids their purchases name; null when the store cannot be used. */
  idKinds(): IdKindStore | null {
    return this.db ? new IdKindStore(this.db) : null;
  }

  close(): void {
    for (const close of this.others.splice(0)) close();
    this.purchaseLedger?.close();
    if (this.db?.open) this.db.close();
  }
}
