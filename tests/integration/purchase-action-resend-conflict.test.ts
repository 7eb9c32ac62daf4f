/**
 * Cancel and Validate are resent after an answer is lost. When the lost attempt did the action, the
 * resend's 409 is not a refusal: a purchase info says it is done, and the ledger ends with that state.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createAppServices, memoryVault } from '../../electron/app';
import type { AppServices } from '../../electron/app';
import { startSimulator } from '../../electron/simulator';
import type { RunningSimulator } from '../../electron/simulator';
import { callApp, shownProfile, until } from '../helpers/app-calls';
import { sentTo } from '../helpers/sim-counts';

let sim: RunningSimulator;
let app: AppServices;
let dir: string;
/** Paths whose next answer is lost after the service acted (the connection reset as the answer came). */
const loseNext = new Set<string>();

/** Real fetch to the simulator; the answer of a path in `loseNext` is read, then lost once. */
const losingFetch: typeof fetch = async (input, init) => {
  const res = await fetch(input, init);
  const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
  if (!loseNext.delete(path)) return res;
  await res.arrayBuffer();
  throw new TypeError('fetch failed', { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) });
};

beforeEach(async () => {
  sim = await startSimulator({ port: 0, catalogSize: 20 });
  dir = mkdtempSync(join(tmpdir(), 'resend-conflict-'));
  app = await createAppServices({
    shell: 'web',
    dataDir: dir,
    vault: memoryVault(),
    version: '0.0.0-test',
    embeddedSimulator: false,
    fetch: losingFetch,
    initialProfiles: [{ name: 'Sim', vendor: 'demo', baseUrl: sim.url, addTokens: ['demo-token-1'] }],
    log: () => undefined,
  });
  await until(async () => (await callApp(app, 'connection', {})).state === 'connected');
});

afterEach(async () => {
  loseNext.clear();
  await app.dispose();
  await sim.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function registered(): Promise<{ profileId: string; purchaseId: string; assetId: string | number }> {
  const profileId = await shownProfile(app);
  const assetId = (await callApp(app, 'listAssets', { profileId, lastId: null, pageSize: 1 })).items[0]!.id;
  const p = await callApp(app, 'registerPurchase', { profileId, assetId, assetTitle: 'A' });
  return { profileId, purchaseId: p.id, assetId };
}

it('a Cancel whose answer was lost: the resend 409 is shown as done, and the ledger says cancelled', async () => {
  const { profileId, purchaseId, assetId } = await registered();
  loseNext.add('/purchase/cancel');
  const answer = await app.dispatch('cancelPurchase', { profileId, purchaseId });
  expect(sentTo(sim, 'cancelPurchase')).toBe(2);
  expect(answer).toMatchObject({ ok: true, value: { id: purchaseId, stateKind: 'cancelled' } });
  expect(answer.ok && (answer.value as { warnings: string[] }).warnings.join(' ')).toMatch(/409.*cancelled/);
  const [record] = (await callApp(app, 'ledgerList', { assetId })).items;
  expect(record).toMatchObject({ purchaseId, purchaseStateKind: 'cancelled' });
});

it('a Validate whose answer was lost: the resend 409 is shown as done', async () => {
  const { profileId, purchaseId } = await registered();
  loseNext.add('/purchase/validate-purchase-before-payment');
  const answer = await app.dispatch('validatePurchase', { profileId, purchaseId });
  expect(sentTo(sim, 'validatePurchase')).toBe(2);
  expect(answer).toMatchObject({ ok: true, value: { id: purchaseId, stateKind: 'validated' } });
});

it('a 409 to a first attempt is the plain refusal it was, with no lookup', async () => {
  const { profileId, purchaseId } = await registered();
  await callApp(app, 'cancelPurchase', { profileId, purchaseId });
  const lookups = sentTo(sim, 'purchaseInfo');
  expect(await app.dispatch('cancelPurchase', { profileId, purchaseId })).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
  expect(await app.dispatch('validatePurchase', { profileId, purchaseId })).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
  expect(sentTo(sim, 'purchaseInfo')).toBe(lookups);
});
