/** A registration whose answer is lost: the simulator buys it and drops the connection, so the ledger holds it unresolved. */
import { expect } from 'vitest';
import type { AppServices } from '../../electron/app';
import type { RunningSimulator } from '../../electron/simulator';
import type { LedgerRecord } from '../../shared/bridge/ledger-schemas';
import { callApp } from './app-calls';

/** Registers `assetId` at the profile the page shows while every answer is dropped; the unresolved record it leaves. */
export async function loseRegistration(app: AppServices, sim: RunningSimulator, profileId: string, assetId: string | number): Promise<LedgerRecord> {
  sim.control.setFaults({ dropRate: 1 });
  try {
    expect(await app.dispatch('registerPurchase', { profileId, assetId, assetTitle: 'A' })).toMatchObject({ ok: false, error: { code: 'UNKNOWN_OUTCOME' } });
  } finally {
    sim.control.setFaults({ dropRate: 0 });
  }
  const [record] = (await callApp(app, 'ledgerList', { assetId, state: 'unresolved', limit: 10 })).items;
  expect(record).toMatchObject({ state: 'unknown' });
  return record!;
}
