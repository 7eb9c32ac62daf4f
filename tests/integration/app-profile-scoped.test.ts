/**
 * Issue 21 §2, through the app's own dispatch on the embedded simulator (vendor demo and vendor
 * acme, both connected): a page that shows profile A keeps acting on A after another page (browser
 * mode) or a switch (the desktop app) made B active, and a call naming a profile that is not
 * connected is refused, nothing sent, never run on the active one instead.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallName, CallResponse } from '../../shared/bridge/contract';
import { createAppServices, memoryVault } from '../../electron/app';
import type { AppServices } from '../../electron/app';
import { callApp, until } from '../helpers/app-calls';
import { PROFILE_SCOPED_CALLS, PROFILE_SCOPED_EXAMPLES } from '../helpers/profile-scoped-calls';

let dir: string;
let app: AppServices;
/** The asset the first test registers on demo (its record is used by the later tests). */
let registeredAsset: string | number;

const call = <N extends CallName>(name: N, request: unknown): Promise<CallResponse<N>> => callApp(app, name, request);
const ledgerOf = async (assetId: string | number) => (await call('ledgerList', { assetId, limit: 100 })).items;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'app-profile-scoped-'));
  app = await createAppServices({ shell: 'web', dataDir: dir, vault: memoryVault(), version: '0.0.0', log: () => undefined });
  await until(async () => (await call('connection', {})).state === 'connected', 10_000);
  await call('connectProfile', { id: 'demo-acme' });
  await until(async () => (await call('connectedProfiles', {})).items.every((p) => p.connection.state === 'connected'), 10_000);
});

afterAll(async () => {
  await app?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('a call goes to the profile the page showed', () => {
  it("page 1 shows demo; page 2 makes acme active; page 1's Register goes to demo (its token, its ledger), not to acme", async () => {
    // Page 1 shows the active profile's catalog.
    const shown = (await call('connection', {})).profileId!;
    expect(shown).toBe('demo');
    const asset = (await call('listAssets', { profileId: shown, lastId: null, pageSize: 1 })).items[0]!;
    // Page 2 switches the active profile.
    await call('selectProfile', { id: 'demo-acme' });
    expect(await call('connection', {})).toMatchObject({ profileId: 'demo-acme', vendor: 'acme' });

    const purchase = await call('registerPurchase', { profileId: shown, assetId: asset.id, assetTitle: asset.title ?? null });
    registeredAsset = asset.id;
    expect(String(purchase.asset_id)).toBe(String(asset.id));
    // The ledger holds it under demo's profile and vendor.
    expect(await ledgerOf(asset.id)).toEqual([
      expect.objectContaining({ vendor: 'demo', profileId: 'demo', state: 'registered', purchaseId: purchase.id, reference: purchase.client_reference }),
    ]);
    // demo's service holds it, asked with demo's token; acme's has no such registration.
    const atDemo = await call('purchaseInfo', { profileId: 'demo', purchaseId: purchase.id });
    expect(atDemo).toMatchObject({ id: purchase.id, client_reference: purchase.client_reference });
    const atAcme = await app.dispatch('purchaseInfo', { profileId: 'demo-acme', purchaseId: purchase.id });
    if (atAcme.ok) expect((atAcme.value as CallResponse<'purchaseInfo'>).client_reference).not.toBe(purchase.client_reference);
    else expect(atAcme.error.code).toBe('NOT_FOUND');
    // The request went out on demo's client.
    const sent = (await call('requestLog', { endpoint: 'registerPurchase', status: null, limit: 50 })).entries;
    expect(sent.map((e) => e.vendor)).toEqual(['demo']);
  });

  it("the page's other actions on that purchase stay with demo too", async () => {
    const [record] = await ledgerOf(registeredAsset);
    expect(await call('validatePurchase', { profileId: 'demo', purchaseId: record!.purchaseId })).toMatchObject({ id: record!.purchaseId, state: 'validated' });
    expect(await call('findPurchases', { profileId: 'demo', reference: record!.reference })).toMatchObject({
      items: [expect.objectContaining({ id: record!.purchaseId })],
    });
    expect(await call('ledgerResolve', { profileId: 'demo', id: record!.id, action: 'lookup' })).toMatchObject({ record: { vendor: 'demo' } });
    // Looking a demo record up through acme's profile asks the wrong service: refused.
    expect(await app.dispatch('ledgerResolve', { profileId: 'demo-acme', id: record!.id, action: 'lookup' })).toMatchObject({
      ok: false,
      error: { code: 'BAD_REQUEST', message: expect.stringContaining('made with vendor demo') },
    });
  });
});

describe('a call naming a profile that is not connected is refused', () => {
  it('every vendor-scoped call, with a typed error that names the profile', async () => {
    const [record] = await ledgerOf(registeredAsset);
    for (const name of PROFILE_SCOPED_CALLS) {
      const example = name === 'ledgerResolve' ? { ...PROFILE_SCOPED_EXAMPLES.ledgerResolve, id: record!.id } : PROFILE_SCOPED_EXAMPLES[name];
      const answer = await app.dispatch(name, { ...example, profileId: 'p_nobody' });
      expect(answer, name).toMatchObject({
        ok: false,
        error: { code: 'PROFILE_NOT_CONNECTED', message: 'Profile "p_nobody" is not connected: nothing was sent.', retryable: false },
      });
    }
  });

  it("page 1's profile disconnected: its Register is refused and nothing reaches the active profile's service", async () => {
    const saved = await call('saveProfile', { name: 'Acme direct', vendor: 'acme', baseUrl: 'http://127.0.0.1:9', addTokens: ['acme-token-1'] });
    const named = await app.dispatch('registerPurchase', { profileId: saved.id, assetId: 7, assetTitle: null });
    expect(named).toMatchObject({ ok: false, error: { code: 'PROFILE_NOT_CONNECTED', message: 'Profile "Acme direct" is not connected: nothing was sent.' } });

    const asset = (await call('listAssets', { profileId: 'demo', lastId: null, pageSize: 3 })).items[2]!;
    await call('disconnectProfile', { id: 'demo' });
    expect(await call('connection', {})).toMatchObject({ profileId: 'demo-acme' });
    const refused = await app.dispatch('registerPurchase', { profileId: 'demo', assetId: asset.id, assetTitle: null });
    expect(refused).toMatchObject({ ok: false, error: { code: 'PROFILE_NOT_CONNECTED', message: expect.stringContaining('is not connected') } });
    expect(await ledgerOf(asset.id)).toEqual([]);
    expect((await call('requestLog', { endpoint: 'registerPurchase', status: null, limit: 50 })).entries.map((e) => e.vendor)).toEqual(['demo']);
    expect(await ledgerOf(7)).toEqual([]);
  });
});
