/** The store's database: migrations (fresh, re-run, from v1 to a later version), corrupt and unopenable files. */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalStore, MIGRATIONS, STORE_FILE_NAME, migrate, openDatabase, schemaVersion } from '../../electron/store';
import type { Migration } from '../../electron/store';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'store-mig-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const tables = (db: Sqlite.Database) =>
  (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`).all() as { name: string }[]).map((r) => r.name);

describe('migrations', () => {
  it('creates the ledger and the usage history on a fresh database, in WAL with synchronous=FULL and a busy timeout', () => {
    const opened = openDatabase(dir);
    expect(opened.problem).toBeNull();
    const db = opened.db!;
    expect(tables(db)).toEqual([
      'alert',
      'alert_rule',
      'asset_id_kind',
      'purchase_ledger',
      'schema_migrations',
      'usage_hour',
      'usage_minute',
      'usage_rollup',
      'usage_second',
    ]);
    expect(schemaVersion(db)).toBe(8);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2); // FULL
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    db.close();
  });

  it('opens a database another instance is migrating at the same instant: a BUSY that SQLite did not wait out is tried again', () => {
    let busy = 2;
    const contended: Migration = {
      version: 1,
      name: 'contended',
      up: (db) => {
        if (busy-- > 0) throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY_SNAPSHOT' });
        db.exec('CREATE TABLE contended (id INTEGER)');
      },
    };
    const opened = openDatabase(dir, { migrations: [contended] });
    expect(opened.problem).toBeNull();
    expect(tables(opened.db!)).toContain('contended');
    opened.db!.close();
  });

  it('applies nothing twice when run again (and on reopen)', () => {
    const db = openDatabase(dir).db!;
    expect(migrate(db)).toEqual([]);
    db.close();
    const again = openDatabase(dir).db!;
    expect(again.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all()).toEqual([
      { version: 1, name: 'purchase ledger' },
      { version: 2, name: 'usage history' },
      { version: 3, name: 'alerts' },
      { version: 4, name: 'ledger sent body' },
      { version: 5, name: 'usage per-second use' },
      { version: 6, name: 'asset id kind' },
      { version: 7, name: 'asset id kind by service key and source' },
      { version: 8, name: 'alert list order' },
    ]);
    again.close();
  });

  it('moves a v1 database to the current version, keeping its rows; a failing step is rolled back whole', () => {
    const v1 = openDatabase(dir, { migrations: MIGRATIONS.slice(0, 1) }).db!;
    expect(schemaVersion(v1)).toBe(1);
    v1.prepare(
      `INSERT INTO purchase_ledger (vendor, base_url, profile_id, asset_id, reference, state, created_at, updated_at) VALUES ('v', 'u', 'p', '7', 'r1', 'unknown', 1, 1)`,
    ).run();
    v1.close();
    const broken: Migration = {
      version: 9,
      name: 'broken',
      up: (db) => {
        db.exec('CREATE TABLE half_done (id INTEGER)');
        throw new Error('boom');
      },
    };
    const opened = openDatabase(dir, { migrations: [...MIGRATIONS, broken] });
    // Migrations 2 to 8 applied; 9 failed: reported, and neither its table nor its record is left behind.
    expect(opened.db).toBeNull();
    expect(opened.problem).toContain('boom');
    const raw = new Sqlite(join(dir, STORE_FILE_NAME));
    expect(tables(raw)).toContain('usage_second');
    expect(tables(raw)).not.toContain('half_done');
    expect(schemaVersion(raw)).toBe(8);
    expect(raw.prepare('SELECT reference FROM purchase_ledger').all()).toEqual([{ reference: 'r1' }]);
    raw.close();
    const fixed = openDatabase(dir);
    expect(fixed.problem).toBeNull();
    fixed.db!.close();
  });

  it("moves migration 6's asset id kinds to the ledger's service key, the kind noted last staying", () => {
    const v6 = openDatabase(dir, { migrations: MIGRATIONS.slice(0, 6) }).db!;
    const put = v6.prepare('INSERT INTO asset_id_kind (vendor, base_url, asset_id, kind, updated_at) VALUES (?, ?, ?, ?, ?)');
    put.run(' Demo ', 'https://a.example/', '42', 'string', 1);
    put.run('demo', 'https://a.example', '42', 'number', 2);
    put.run('ＤＥＭＯ', 'https://a.example', '43', 'number', 1);
    v6.close();
    const db = openDatabase(dir).db!;
    expect(db.prepare('SELECT vendor, base_url, asset_id, kind, source FROM asset_id_kind ORDER BY asset_id').all()).toEqual([
      { vendor: 'demo', base_url: 'https://a.example', asset_id: '42', kind: 'number', source: 'purchase' },
      { vendor: 'demo', base_url: 'https://a.example', asset_id: '43', kind: 'number', source: 'purchase' },
    ]);
    db.close();
  });

  it('refuses a database written by a newer app instead of guessing', () => {
    const db = openDatabase(dir).db!;
    db.prepare(`INSERT INTO schema_migrations (version, name, applied_at) VALUES (9, 'future', 1)`).run();
    db.close();
    const opened = openDatabase(dir);
    expect(opened.db).toBeNull();
    expect(opened.problem).toMatch(/newer version of the app \(schema 9\)/);
    // Not moved aside: it is not corrupt, only newer.
    expect(readdirSync(dir).filter((f) => f.includes('corrupt'))).toEqual([]);
  });
});

describe('a database that cannot be used', () => {
  it('keeps registering off for a file that is not a database, and leaves it (never an empty ledger in its place)', () => {
    writeFileSync(join(dir, STORE_FILE_NAME), 'this is not a database, '.repeat(200));
    const store = new LocalStore(dir, { now: () => Date.UTC(2026, 0, 2) });
    expect(store.available).toBe(false);
    expect(store.problem).toMatch(/is damaged .*cannot all be read .*Registering purchases is off/s);
    expect(readdirSync(dir).filter((f) => f.includes('corrupt'))).toEqual([]);
    store.close();
  });

  it('turns registering off with the reason when the folder cannot hold a database', () => {
    const notAFolder = join(dir, 'file');
    writeFileSync(notAFolder, 'x');
    const store = new LocalStore(notAFolder);
    expect(store.available).toBe(false);
    expect(store.problem).toMatch(/cannot be opened .*Registering purchases is off/);
    expect(() => store.ledger()).toThrow(expect.objectContaining({ code: 'LEDGER_UNAVAILABLE', message: expect.stringContaining('registering is off') }));
    store.close();
  });
});
