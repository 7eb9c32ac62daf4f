/**
 * A damaged ledger file never becomes an empty ledger that lets an asset be bought again: at start
 * its records are carried over to a new file when they all read, else registering stays off and the
 * file is left as it is; a write that meets the damage in use returns the service's answer and stops
 * registering until a restart.
 */
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Sqlite from 'better-sqlite3';
import { LocalStore, STORE_FILE_NAME, ledgerPendingWords, registerWithLedger } from '../../electron/store';
import type { SeenPurchase } from '../../electron/store';
import { errorOf } from '../../electron/client/testing';
import { PartnerError } from '../../shared/errors';

const target = { vendor: 'acme', baseUrl: 'https://partner.example', profileId: 'prof-1' };
const lostAnswer = () => Promise.reject(new PartnerError({ code: 'UNKNOWN_OUTCOME', message: 'no answer', retryable: false }));
const bought = (id: string, ref: string): SeenPurchase => ({ id, asset_id: 5, state: 'registered', client_reference: ref });

let dir: string;
const stores: LocalStore[] = [];
function open(): LocalStore {
  const store = new LocalStore(dir, { now: () => Date.UTC(2026, 0, 2) });
  stores.push(store);
  return store;
}

/** Overwrites the start of `table`'s root page (the WAL checkpointed first, so that the page is in the file). */
function damageTable(table: string): void {
  const db = new Sqlite(join(dir, STORE_FILE_NAME));
  db.pragma('wal_checkpoint(TRUNCATE)');
  const pageSize = Number(db.pragma('page_size', { simple: true }));
  const root = (db.prepare('SELECT rootpage FROM sqlite_master WHERE name = ?').get(table) as { rootpage: number }).rootpage;
  db.close();
  const fd = openSync(join(dir, STORE_FILE_NAME), 'r+');
  writeSync(fd, Buffer.alloc(64, 0xee), 0, 64, (root - 1) * pageSize);
  closeSync(fd);
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ledger-damaged-'));
});
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a damaged file at start', () => {
  it('damage outside the ledger: its records are carried over to a new file, and an unknown registration still asks before a second send', async () => {
    const first = open();
    await errorOf(registerWithLedger(first.ledger(), { target, asset: { id: 5, title: 'Five' }, send: lostAnswer }));
    const before = first.ledger().list({ limit: 10 });
    first.close();
    damageTable('alert_rule');

    const second = open();
    expect(second.available).toBe(true);
    expect(second.problem).toMatch(/damaged .*kept as .*partner-console\.db\.corrupt-2026-01-02T00-00-00-000Z; all 1 purchase ledger records .*carried over/s);
    expect(existsSync(join(dir, `${STORE_FILE_NAME}.corrupt-2026-01-02T00-00-00-000Z`))).toBe(true);
    expect(second.ledger().list({ limit: 10 })).toEqual(before);
    expect(second.ledger().blockers(target, 5)).toEqual([expect.objectContaining({ state: 'unknown', reference: before[0]!.reference })]);
    const sent: string[] = [];
    const refused = await errorOf(
      registerWithLedger(second.ledger(), { target, asset: { id: 5, title: null }, send: async (ref) => (sent.push(ref), bought('p_2', ref)) }),
    );
    expect(refused.code).toBe('CONFIRMATION_REQUIRED');
    expect(sent).toEqual([]);
    // The new file is sound: a third start finds nothing to report.
    second.close();
    expect(open().problem).toBeNull();
  });

  it('damage in the ledger itself: registering stays off with what to do, and the file is left as it is', () => {
    const first = open();
    first.ledger().beginRegistration(target, { id: 5, title: null }, 'ref-1');
    first.close();
    damageTable('purchase_ledger');
    const bytes = readFileSync(join(dir, STORE_FILE_NAME));

    const second = open();
    expect(second.available).toBe(false);
    expect(second.problem).toMatch(/damaged .*cannot all be read.*Registering purchases is off.*left as it is/s);
    expect(() => second.ledger()).toThrow(expect.objectContaining({ code: 'LEDGER_UNAVAILABLE' }));
    expect(readFileSync(join(dir, STORE_FILE_NAME)).equals(bytes)).toBe(true);
    expect(readdirSync(dir).filter((f) => f.includes('corrupt') || f.includes('salvage'))).toEqual([]);
    second.close();
    // Still off at the next start: nothing was replaced by an empty ledger.
    expect(open().available).toBe(false);
  });

  it('a file that is not a database at all: registering stays off, the file is left as it is', () => {
    writeFileSync(join(dir, STORE_FILE_NAME), 'this is not a database, '.repeat(200));
    const store = open();
    expect(store.available).toBe(false);
    expect(store.problem).toMatch(/Registering purchases is off/);
    expect(readdirSync(dir).filter((f) => f.includes('corrupt') || f.includes('salvage'))).toEqual([]);
  });
});

describe('damage met while in use', () => {
  it('a registration the service bought is returned with a warning when its answer cannot be written; registering stops until a restart, which does not forget it', async () => {
    const store = open();
    const ledger = store.ledger();
    const purchase = await registerWithLedger(ledger, {
      target,
      asset: { id: 5, title: null },
      send: async (ref) => {
        damageTable('purchase_ledger');
        return bought('p_1', ref);
      },
    });
    expect(purchase).toMatchObject({
      id: 'p_1',
      ledgerWarning: expect.stringMatching(/Purchase p_1 is registered at the service, but the purchase ledger file is damaged/),
    });
    const sent: string[] = [];
    const next = await errorOf(
      registerWithLedger(ledger, { target, asset: { id: 6, title: null }, send: async (ref) => (sent.push(ref), bought('p_2', ref)) }),
    );
    expect(next.code).toBe('LEDGER_UNAVAILABLE');
    expect(next.message).toMatch(/damaged/);
    expect(sent).toEqual([]);
    store.close();
    // After a restart the ledger cannot be read whole: registering stays off rather than forgetting p_1.
    expect(open().available).toBe(false);
  });

  it('a write lost for another reason (not damage) does not claim registering is off, and registering goes on', async () => {
    const store = open();
    const ledger = store.ledger();
    const landing = ledger.settle('an answer', () => {
      throw Object.assign(new Error('CHECK constraint failed'), { code: 'SQLITE_CONSTRAINT_CHECK' });
    });
    expect(landing).toMatchObject({ landed: false, lost: true });
    const words = ledgerPendingWords('Purchase p_1 is registered at the service', landing as { reason: string; lost?: boolean });
    expect(words).toMatch(/could not record it \(CHECK constraint failed\)\. Do not register it again/);
    expect(words).not.toMatch(/registering is off/);
    const purchase = await registerWithLedger(ledger, { target, asset: { id: 6, title: null }, send: async (ref) => bought('p_2', ref) });
    expect(purchase.id).toBe('p_2');
  });
});
