/** The ledger knows a vendor at a service however its label and base URL were typed (shared/vendor-key.ts). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { LocalStore, registerWithLedger } from '../../electron/store';
import { errorOf } from '../../electron/client/testing';

let dir: string;
let store: LocalStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ledger-vendor-key-'));
  store = new LocalStore(dir);
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

it('a label that differs in case, spaces or compatibility form, at a base URL spelt otherwise, is the same vendor to the guard and the list', async () => {
  const ledger = store.ledger();
  const bought = await registerWithLedger(ledger, {
    target: { vendor: 'Acme  Corp', baseUrl: 'https://partner.example', profileId: 'p1' },
    asset: { id: 5, title: null },
    send: async (ref) => ({ id: 'p_1', asset_id: 5, state: 'registered', client_reference: ref }),
  });
  const other = { vendor: ' ＡＣＭＥ corp ', baseUrl: 'HTTPS://Partner.Example:443/', profileId: 'p2' };
  const refused = await errorOf(registerWithLedger(ledger, { target: other, asset: { id: 5, title: null }, send: () => Promise.reject(new Error('sent')) }));
  expect(refused.code).toBe('CONFIRMATION_REQUIRED');
  expect(ledger.blockers(other, 5)).toEqual([expect.objectContaining({ purchaseId: bought.id, vendor: 'Acme  Corp' })]);
  expect(ledger.byPurchaseId(other, 'p_1')).toMatchObject({ purchaseId: 'p_1' });
  expect(ledger.list({ vendor: 'acme corp', baseUrl: 'https://partner.example/', limit: 5 })).toHaveLength(1);
  // Another vendor at that service is not held back.
  expect(ledger.blockers({ ...other, vendor: 'acme2' }, 5)).toEqual([]);
});
