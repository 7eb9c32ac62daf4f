/**
 * The store's schema, as ordered migrations. Each runs once, in its own IMMEDIATE transaction that
 * also records it in schema_migrations, so two app instances opening one folder at once apply it
 * exactly once (the second waits on SQLite's lock, then finds it applied).
 */
import type { Database } from 'better-sqlite3';
import { vendorServiceKey } from '../../shared/vendor-key';

export interface Migration {
  version: number;
  name: string;
  up(db: Database): void;
}

/** Migration 1: the purchase ledger (see shared/bridge/ledger-schemas.ts for the states). */
const ledger: Migration = {
  version: 1,
  name: 'purchase ledger',
  up(db) {
    db.exec(`
      CREATE TABLE purchase_ledger (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        vendor TEXT NOT NULL,
        base_url TEXT NOT NULL,
        profile_id TEXT NOT NULL,
        asset_id TEXT NOT NULL,
        asset_title TEXT,
        reference TEXT,
        purchase_id TEXT,
        state TEXT NOT NULL CHECK (state IN ('sending', 'unknown', 'registered', 'failed', 'checked')),
        purchase_state TEXT,
        purchase_state_kind TEXT,
        note TEXT,
        raw TEXT,
        owner_pid INTEGER,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE UNIQUE INDEX purchase_ledger_purchase ON purchase_ledger (vendor, base_url, purchase_id) WHERE purchase_id IS NOT NULL;
      CREATE UNIQUE INDEX purchase_ledger_reference ON purchase_ledger (vendor, base_url, reference) WHERE reference IS NOT NULL;
      CREATE INDEX purchase_ledger_asset ON purchase_ledger (vendor, base_url, asset_id);
      CREATE INDEX purchase_ledger_state ON purchase_ledger (state, updated_at);
    `);
  },
};

/** The levels of the usage history (issue 12), finest first: the table of each, and its bucket size. */
export const USAGE_LEVELS = [
  { level: 'second', table: 'usage_second', bucketMs: 1_000 },
  { level: 'minute', table: 'usage_minute', bucketMs: 60_000 },
  { level: 'hour', table: 'usage_hour', bucketMs: 3_600_000 },
] as const;

/** Migration 2: usage aggregates per (profile, vendor, endpoint) and second / minute / hour (electron/store/usage-store.ts). */
const usage: Migration = {
  version: 2,
  name: 'usage history',
  up(db) {
    for (const { table } of USAGE_LEVELS) {
      db.exec(`
        CREATE TABLE ${table} (
          profile_id TEXT NOT NULL,
          vendor TEXT NOT NULL,
          endpoint TEXT NOT NULL,
          start_ms INTEGER NOT NULL,
          requests INTEGER NOT NULL,
          throttled INTEGER NOT NULL,
          failures INTEGER NOT NULL,
          lowest_remaining INTEGER,
          use_sum REAL NOT NULL,
          use_count INTEGER NOT NULL,
          use_peak REAL,
          waited_ms REAL NOT NULL,
          foreign_requests REAL NOT NULL,
          latency TEXT NOT NULL,
          PRIMARY KEY (profile_id, vendor, endpoint, start_ms)
        ) WITHOUT ROWID;
        CREATE INDEX ${table}_time ON ${table} (start_ms);
      `);
    }
    // How far each coarser level has been rolled up from the finer one (exclusive end, epoch ms).
    db.exec('CREATE TABLE usage_rollup (level TEXT PRIMARY KEY, done_until_ms INTEGER NOT NULL)');
  },
};

/** Migration 3: alert rules per profile and the alerts they raised (electron/store/alert-store.ts). */
const alerts: Migration = {
  version: 3,
  name: 'alerts',
  up(db) {
    db.exec(`
      CREATE TABLE alert_rule (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        profile_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        endpoint TEXT,
        threshold_pct REAL,
        minutes REAL NOT NULL,
        enabled INTEGER NOT NULL
      );
      CREATE INDEX alert_rule_profile ON alert_rule (profile_id);
      CREATE TABLE alert (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        rule_id INTEGER NOT NULL,
        profile_id TEXT NOT NULL,
        vendor TEXT NOT NULL,
        kind TEXT NOT NULL,
        endpoint TEXT,
        message TEXT NOT NULL,
        started_at INTEGER NOT NULL,
        ended_at INTEGER,
        acknowledged_at INTEGER
      );
      CREATE INDEX alert_open ON alert (ended_at, started_at);
    `);
  },
};

/** Migration 4: the exact body a registration was sent with, resent as is under its idempotency key. */
const sentBody: Migration = {
  version: 4,
  name: 'ledger sent body',
  up(db) {
    db.exec('ALTER TABLE purchase_ledger ADD COLUMN sent_body TEXT');
  },
};

/**
 * Migration 5: the per-second measure of use (electron/store/usage-aggregate.ts): seconds with requests,
 * and the share of the limit served in each, summed. Older rows keep use_sum/use_count (the per-answer
 * measure, which cannot be turned into this one) and 0 here: the report says which measure a figure is.
 */
const useSeconds: Migration = {
  version: 5,
  name: 'usage per-second use',
  up(db) {
    for (const { table } of USAGE_LEVELS) {
      db.exec(`ALTER TABLE ${table} ADD COLUMN active_seconds REAL NOT NULL DEFAULT 0`);
      db.exec(`ALTER TABLE ${table} ADD COLUMN use_seconds REAL NOT NULL DEFAULT 0`);
    }
  },
};

/** Migration 6: how a service wrote the asset ids its purchases name (electron/store/id-kind-store.ts). */
const assetIdKind: Migration = {
  version: 6,
  name: 'asset id kind',
  up(db) {
    db.exec(`
      CREATE TABLE asset_id_kind (
        vendor TEXT NOT NULL,
        base_url TEXT NOT NULL,
        asset_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('number', 'string')),
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (vendor, base_url, asset_id)
      ) WITHOUT ROWID;
      CREATE INDEX asset_id_kind_latest ON asset_id_kind (vendor, base_url, updated_at);
    `);
  },
};

/**
 * Migration 7: asset id kinds keyed by the ledger's service key (" Demo " at "https://x/" is "demo" at
 * "https://x"), and where each kind was read: the catalog's reading outranks a purchase answer's.
 * Rows from migration 6 cannot tell a guess from a service's answer, so they rank as purchase answers.
 */
const assetIdKindByService: Migration = {
  version: 7,
  name: 'asset id kind by service key and source',
  up(db) {
    db.exec(`ALTER TABLE asset_id_kind ADD COLUMN source TEXT NOT NULL DEFAULT 'purchase' CHECK (source IN ('catalog', 'purchase'))`);
    const rows = db.prepare('SELECT vendor, base_url, asset_id, kind, updated_at FROM asset_id_kind ORDER BY updated_at').all() as {
      vendor: string;
      base_url: string;
      asset_id: string;
      kind: string;
      updated_at: number;
    }[];
    db.exec('DELETE FROM asset_id_kind');
    // Oldest first: where spellings of one service meet, the kind noted last stays.
    const put = db.prepare(
      `INSERT INTO asset_id_kind (vendor, base_url, asset_id, kind, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (vendor, base_url, asset_id) DO UPDATE SET kind = excluded.kind, updated_at = excluded.updated_at`,
    );
    for (const row of rows) {
      const key = vendorServiceKey({ vendor: row.vendor, baseUrl: row.base_url });
      put.run(key.vendor, key.baseUrl, row.asset_id, row.kind, row.updated_at);
    }
  },
};

/**
 * Migration 8: indexes in the order the alert list reads (firing first, newest first), for all profiles
 * and for one: the list reads its page off the index instead of sorting the whole table.
 */
const alertListOrder: Migration = {
  version: 8,
  name: 'alert list order',
  up(db) {
    db.exec(`
      CREATE INDEX alert_list ON alert ((ended_at IS NULL), started_at);
      CREATE INDEX alert_list_profile ON alert (profile_id, (ended_at IS NULL), started_at);
    `);
  },
};

export const MIGRATIONS: readonly Migration[] = [ledger, usage, alerts, sentBody, useSeconds, assetIdKind, assetIdKindByService, alertListOrder];

function appliedVersions(db: Database): Set<number> {
  const rows = db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[];
  return new Set(rows.map((r) => r.version));
}

/**
 * Applies the migrations not yet recorded, in order; returns the versions it applied. A database
 * written by a newer app (a version this one does not know) is refused rather than guessed at.
 */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS, now: () => number = Date.now): number[] {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
  const known = new Set(migrations.map((m) => m.version));
  const newer = [...appliedVersions(db)].filter((v) => !known.has(v) && v > Math.max(0, ...known));
  if (newer.length > 0) {
    throw new Error(`the database was written by a newer version of the app (schema ${Math.max(...newer)}); this one knows up to ${Math.max(0, ...known)}`);
  }
  const applied: number[] = [];
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    const step = db.transaction(() => {
      // Checked inside the lock: another instance may have applied it meanwhile.
      if (appliedVersions(db).has(m.version)) return false;
      m.up(db);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, now());
      return true;
    });
    if (step.immediate()) applied.push(m.version);
  }
  return applied;
}

export function schemaVersion(db: Database): number {
  return Math.max(0, ...appliedVersions(db));
}
