/**
 * A salvage of a damaged ledger that is cut off (a kill, a failing rename or link) never leaves the
 * ledger's path empty, and a start never begins an empty ledger beside a salvaged or damaged one:
 * the next start ends the swap, or refuses with what to do. A salvage that cannot write its new file
 * (full disk, read-only folder) says so and leaves the ledger as it is.
 */
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Sqlite from 'better-sqlite3';
import { LocalStore, MIGRATIONS, STORE_FILE_NAME } from '../../electron/store';
import type { OpenOptions } from '../../electron/store/database';

const target = { vendor: 'acme', baseUrl: 'https://partner.example', profileId: 'prof-1' };

let dir: string;
const stores: LocalStore[] = [];
function open(options: OpenOptions = {}): LocalStore {
  const store = new LocalStore(dir, { now: () => Date.UTC(2026, 0, 2), ...options });
  stores.push(store);
  return store;
}
const ledgerPath = () => join(dir, STORE_FILE_NAME);
const leftovers = () => readdirSync(dir).filter((f) => f !== STORE_FILE_NAME);

/** A ledger holding one registration of asset 5 (title: its size), then damaged outside the ledger. */
function damagedWithPurchase(title: string | null = null): void {
  const first = open();
  first.ledger().beginRegistration(target, { id: 5, title }, 'ref-1');
  first.close();
  const db = new Sqlite(ledgerPath());
  db.pragma('wal_checkpoint(TRUNCATE)');
  const pageSize = Number(db.pragma('page_size', { simple: true }));
  const root = (db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'alert_rule'").get() as { rootpage: number }).rootpage;
  db.close();
  const fd = openSync(ledgerPath(), 'r+');
  writeSync(fd, Buffer.alloc(64, 0xee), 0, 64, (root - 1) * pageSize);
  closeSync(fd);
}

function expectStillGuarded(store: LocalStore, because: string): void {
  expect(store.available, `${because}: ${store.problem}`).toBe(true);
  expect(store.ledger().blockers(target, 5), because).toEqual([expect.objectContaining({ reference: 'ref-1' })]);
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ledger-salvage-'));
});
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a salvage cut off at a file step', () => {
  it('at every step: that start is never an empty ledger, and the next start has the record', () => {
    damagedWithPurchase();
    const steps: string[] = [];
    const whole = open({ beforeFileStep: (step) => void steps.push(step) });
    expectStillGuarded(whole, 'uninterrupted');
    expect(steps).toEqual(expect.arrayContaining(['finish salvage', 'replace']));

    for (const [at, step] of steps.entries()) {
      for (const s of stores.splice(0)) s.close();
      rmSync(dir, { recursive: true, force: true });
      dir = mkdtempSync(join(tmpdir(), 'ledger-salvage-'));
      damagedWithPurchase();
      let n = 0;
      const cut = open({
        beforeFileStep: () => {
          if (n++ === at) throw Object.assign(new Error(`operation not permitted (before ${step})`), { code: 'EPERM' });
        },
      });
      expect(cut.available, `cut off before ${step}`).toBe(false);
      expect(cut.problem).toMatch(/Registering purchases is off/);
      expect(existsSync(ledgerPath()), `cut off before ${step}: the path keeps a file`).toBe(true);
      cut.close();
      expectStillGuarded(open(), `the start after one cut off before ${step}`);
    }
  });

  it('cut off after the damaged file lost its write-ahead log to the aside: its salvage is still put in place, not the file alone', () => {
    damagedWithPurchase();
    // Another instance holds the damaged file open with a record (asset 6) only in its write-ahead log.
    const other = new Sqlite(ledgerPath());
    other.pragma('wal_autocheckpoint = 0');
    other
      .prepare(
        "INSERT INTO purchase_ledger (vendor, base_url, profile_id, asset_id, reference, state, created_at, updated_at) VALUES (?, ?, ?, '6', 'ref-6', 'unknown', 1, 1)",
      )
      .run(target.vendor, target.baseUrl, target.profileId);
    const steps: string[] = [];
    const cut = open({
      beforeFileStep: (step) => {
        steps.push(step);
        if (step === 'replace') throw Object.assign(new Error('operation not permitted'), { code: 'EPERM' });
      },
    });
    expect(steps).toEqual(['finish salvage', 'keep file', 'keep-wal', 'keep-shm', 'drop-wal', 'drop-shm', 'replace']);
    expect(cut.available).toBe(false);
    cut.close();
    other.close();

    const next = open();
    expectStillGuarded(next, 'after the cut');
    expect(next.ledger().blockers(target, 6)).toEqual([expect.objectContaining({ reference: 'ref-6' })]);
    // The damaged file's log was kept with it, under its aside name.
    expect(leftovers().filter((f) => f.includes('.corrupt-') && f.endsWith('-wal'))).toHaveLength(1);
  });

  it('the path emptied by a swap cut off between two renames (an earlier version): the finished salvage is put back', () => {
    damagedWithPurchase();
    expectStillGuarded(open(), 'salvaged');
    for (const s of stores.splice(0)) s.close();
    // What the earlier swap left: the salvaged copy not yet at the path.
    renameSync(ledgerPath(), `${ledgerPath()}.salvage`);

    const next = open();
    expectStillGuarded(next, 'put back');
    expect(next.problem).toMatch(/salvage .*cut off.* finished now/s);
    expect(leftovers().filter((f) => f.includes('salvage'))).toEqual([]);
  });

  it('a damaged file kept aside and no ledger: refuses to start an empty one, and says what to do', () => {
    damagedWithPurchase();
    renameSync(ledgerPath(), `${ledgerPath()}.corrupt-2026-01-01T00-00-00-000Z`);

    const store = open();
    expect(store.available).toBe(false);
    expect(store.problem).toMatch(/missing.*corrupt-2026-01-01T00-00-00-000Z.*not start a new, empty ledger.*Put back/s);
    expect(existsSync(ledgerPath())).toBe(false);
    store.close();
    expect(open().available).toBe(false);
  });
});

describe('a salvage that cannot write its new file', () => {
  it('a full disk is said as such, the ledger is left as it is, and a start with room salvages it', () => {
    damagedWithPurchase('x'.repeat(20_000));
    const bytes = readFileSync(ledgerPath());
    // The new file may not grow past its migrated size: SQLite answers SQLITE_FULL, as on a full disk.
    const full = [
      ...MIGRATIONS,
      { version: 999, name: 'no room', up: (db: Sqlite.Database) => void db.pragma(`max_page_count = ${Number(db.pragma('page_count', { simple: true }))}`) },
    ];

    const store = open({ migrations: full });
    expect(store.available).toBe(false);
    expect(store.problem).toMatch(/could not be written.*full.*Free space.*writable.*restart/s);
    expect(store.problem).not.toMatch(/cannot all be read|empty ledger|move the file/);
    expect(readFileSync(ledgerPath()).equals(bytes)).toBe(true);
    expect(leftovers().filter((f) => f.includes('salvage') || f.includes('corrupt'))).toEqual([]);
    store.close();

    expectStillGuarded(open(), 'with room');
  });
});
