/**
 * The Purchases State filter past 500 records: a service state word is filtered in main, over the
 * whole ledger, so the oldest cancelled purchases are listed however many records came after them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { LocalStore } from '../../electron/store';
import type { PurchaseLedger } from '../../electron/store';

let dir: string;
let store: LocalStore;
let clock = 1_000;
/** What the view asks for a service state word (renderer ledgerFilterOf; tests/unit/renderer/ledger-state-filter.test.ts). */
const serviceState = (word: string) => ({ state: 'registered' as const, purchaseState: word });
const target = { vendor: 'acme', baseUrl: 'https://partner.example', profileId: 'prof-1' };

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ledger-filter-'));
  store = new LocalStore(dir, { now: () => clock++ });
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

function seed(ledger: PurchaseLedger): void {
  for (let i = 0; i < 600; i++) ledger.recordSeen(target, { id: `P-${i}`, asset_id: i, state: i < 50 ? 'cancelled' : 'validated' });
}

it('with 600 records of which the oldest 50 are cancelled, "cancelled" lists all 50', () => {
  const ledger = store.ledger();
  seed(ledger);
  const listed = ledger.page({ ...serviceState('cancelled'), limit: 500 });
  expect(listed.items).toHaveLength(50);
  expect(listed.items.every((r) => r.purchaseState === 'cancelled')).toBe(true);
  expect(listed.more).toBe(false);
});

it('says when the list stops at its limit, and offers every state of the whole ledger', () => {
  const ledger = store.ledger();
  seed(ledger);
  ledger.recordSeen(target, { id: 'P-plain', asset_id: 'x', state: '' });
  expect(ledger.page({ ...serviceState('validated'), limit: 500 })).toMatchObject({ more: true });
  expect(ledger.page({ ...serviceState('validated'), limit: 550 }).more).toBe(false);
  // A purchase without a service word shows (and filters) as "registered".
  expect(ledger.page({ ...serviceState('registered'), limit: 10 }).items.map((r) => r.purchaseId)).toEqual(['P-plain']);
  expect(ledger.states({})).toEqual([
    { state: 'registered', purchaseState: 'cancelled' },
    { state: 'registered', purchaseState: 'registered' },
    { state: 'registered', purchaseState: 'validated' },
  ]);
});
