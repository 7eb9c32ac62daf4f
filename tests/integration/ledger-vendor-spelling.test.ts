/**
 * The guard knows a vendor by its label as a person means it: two profiles of one vendor whose
 * vendor field differs only in case or surrounding spaces share one ledger guard.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createAppServices, memoryVault } from '../../electron/app';
import type { AppServices } from '../../electron/app';
import { startSimulator } from '../../electron/simulator';
import type { RunningSimulator } from '../../electron/simulator';
import { callApp, until } from '../helpers/app-calls';

let sim: RunningSimulator;
let dir: string;
let app: AppServices;
beforeEach(async () => {
  sim = await startSimulator({ port: 0, catalogSize: 20 });
  dir = mkdtempSync(join(tmpdir(), 'ledger-vendor-'));
  app = await createAppServices({
    shell: 'desktop',
    dataDir: dir,
    vault: memoryVault(),
    version: '0',
    openExternal: async () => undefined,
    log: () => undefined,
    embeddedSimulator: false,
  });
});
afterEach(async () => {
  await app.dispose();
  await sim.stop();
  rmSync(dir, { recursive: true, force: true });
});

it('"demo" and " Demo " at one service are one vendor: the second Register asks first, and a lookup from either profile is allowed', async () => {
  const a = await callApp(app, 'saveProfile', { name: 'Prod', vendor: 'demo', baseUrl: sim.url, addTokens: ['demo-token-1'] });
  const b = await callApp(app, 'saveProfile', { name: 'Prod (ops laptop)', vendor: ' Demo ', baseUrl: `${sim.url}/`, addTokens: ['demo-token-2'] });
  await callApp(app, 'selectProfile', { id: a.id });
  await callApp(app, 'selectProfile', { id: b.id });
  await until(async () => (await callApp(app, 'connection', {})).state === 'connected');
  const asset = (await callApp(app, 'listAssets', { profileId: a.id, lastId: null, pageSize: 1 })).items[0]!.id;
  const first = await callApp(app, 'registerPurchase', { profileId: a.id, assetId: asset, assetTitle: 'A' });
  const second = await app.dispatch('registerPurchase', { profileId: b.id, assetId: asset, assetTitle: 'A' });
  expect(second).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_REQUIRED', message: expect.stringContaining(first.id) } });
  const [record] = (await callApp(app, 'ledgerList', { assetId: asset, limit: 10 })).items;
  // Profile B may look up the record profile A wrote (same vendor, same service).
  const looked = await callApp(app, 'ledgerResolve', { profileId: b.id, id: record!.id, action: 'lookup' });
  expect(looked.record).toMatchObject({ state: 'registered', purchaseId: first.id });
});
