/**
 * A profile saved while one of its purchases is on the wire (a token added in another window, its service map saved
 * from a hint): the session is reconnected only after that answer came back, so the registration ends with its
 * purchase, not aborted into an unknown outcome. A rename changes nothing the session sends: it keeps the session.
 * The simulator on loopback, slowed so the save lands mid-request.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppServices } from '../../electron/app';
import { startSimulator } from '../../electron/simulator';
import type { RunningSimulator } from '../../electron/simulator';
import { callApp, shownProfile, until } from '../helpers/app-calls';
import { connectedApp } from '../helpers/connected-app';
import { QUIT_SETTLE_MS } from '../../electron/app/session';
import { sentTo } from '../helpers/sim-counts';

let dispose: () => Promise<void>;
let sim: RunningSimulator;
let app: AppServices;

beforeEach(async () => {
  sim = await startSimulator({ port: 0, catalogSize: 20 });
  ({ app, dispose } = await connectedApp(sim.url, 'Sim'));
});

afterEach(async () => {
  await dispose();
  await sim.stop();
});

/** A save that changes what the session sends (a second token of the vendor): it reconnects. */
function withSecondToken(profileId: string) {
  return { id: profileId, name: 'Sim', vendor: 'demo', baseUrl: sim.url, addTokens: ['demo-token-2'] };
}

describe('saving a profile while its registration is on the wire', () => {
  it('lets the registration finish with its purchase, then applies the save', async () => {
    const profileId = await shownProfile(app);
    const asset = (await callApp(app, 'listAssets', { profileId, lastId: null, pageSize: 1 })).items[0]!.id;
    sim.control.setFaults({ latencyMs: 700 });
    const registering = app.dispatch('registerPurchase', { profileId, assetId: asset, assetTitle: 'A' });
    await until(async () => (await callApp(app, 'ledgerList', { assetId: asset, state: 'unresolved', limit: 5 })).items.length === 1);
    await callApp(app, 'saveProfile', { ...withSecondToken(profileId), name: 'Sim, renamed' });
    const answer = await registering;
    expect(answer).toMatchObject({ ok: true, value: { id: expect.stringMatching(/.+/) } });
    const [record] = (await callApp(app, 'ledgerList', { assetId: asset, limit: 5 })).items;
    expect(record).toMatchObject({ state: 'registered' });
    sim.control.setFaults({ latencyMs: 0 });
    // Then reconnected under the saved profile: its calls go on, and the purchase was sent once.
    await until(async () => (await callApp(app, 'connection', {})).state === 'connected');
    expect((await callApp(app, 'listProfiles', {})).items.find((p) => p.id === profileId)?.name).toBe('Sim, renamed');
    expect(sentTo(sim, 'registerPurchase')).toBe(1);
  });

  it('refuses, with nothing sent, a purchase started while the save waits for the one on the wire', async () => {
    const profileId = await shownProfile(app);
    const [a, b] = (await callApp(app, 'listAssets', { profileId, lastId: null, pageSize: 2 })).items.map((i) => i.id);
    sim.control.setFaults({ latencyMs: 1_500 });
    const first = app.dispatch('registerPurchase', { profileId, assetId: a!, assetTitle: 'A' });
    await until(async () => (await callApp(app, 'ledgerList', { assetId: a!, state: 'unresolved', limit: 5 })).items.length === 1);
    const saving = callApp(app, 'saveProfile', withSecondToken(profileId));
    await new Promise((r) => setTimeout(r, 200));
    const second = await app.dispatch('registerPurchase', { profileId, assetId: b!, assetTitle: 'B' });
    expect(second).toMatchObject({ ok: false, error: { code: 'CANCELLED', message: expect.stringContaining('Nothing was sent') } });
    expect(await first).toMatchObject({ ok: true });
    await saving;
    // Nothing of B reached the service, and its record says so: it may be registered again without a confirmation.
    expect((await callApp(app, 'ledgerList', { assetId: b!, limit: 5 })).items).toEqual([expect.objectContaining({ state: 'failed' })]);
    expect(sentTo(sim, 'registerPurchase')).toBe(1);
    sim.control.setFaults({ latencyMs: 0 });
  });

  it.each([
    ['a save', (profileId: string) => app.dispatch('saveProfile', withSecondToken(profileId))],
    ['a disconnect', (profileId: string) => app.dispatch('disconnectProfile', { id: profileId })],
  ] as const)('quitting while %s waits for a registration on the wire ends within what the shell allows', async (_what, change) => {
    const profileId = await shownProfile(app);
    const asset = (await callApp(app, 'listAssets', { profileId, lastId: null, pageSize: 1 })).items[0]!.id;
    sim.control.setFaults({ latencyMs: 8_000 });
    const registering = app.dispatch('registerPurchase', { profileId, assetId: asset, assetTitle: 'A' });
    await until(async () => (await callApp(app, 'ledgerList', { assetId: asset, state: 'unresolved', limit: 5 })).items.length === 1);
    const changing = change(profileId);
    await new Promise((r) => setTimeout(r, 200));
    const quitAt = Date.now();
    await app.dispose();
    expect(Date.now() - quitAt).toBeLessThan(QUIT_SETTLE_MS + 1_500);
    await Promise.all([registering, changing]);
    sim.control.setFaults({ latencyMs: 0 });
  });

  it('keeps the session on a rename: a registration on the wire and one started after both go out, nothing reconnects', async () => {
    const profileId = await shownProfile(app);
    const [a, b] = (await callApp(app, 'listAssets', { profileId, lastId: null, pageSize: 2 })).items.map((i) => i.id);
    const probes = sentTo(sim, 'categories');
    sim.control.setFaults({ latencyMs: 700 });
    const first = app.dispatch('registerPurchase', { profileId, assetId: a!, assetTitle: 'A' });
    await until(async () => (await callApp(app, 'ledgerList', { assetId: a!, state: 'unresolved', limit: 5 })).items.length === 1);
    await callApp(app, 'saveProfile', { id: profileId, name: 'Sim, renamed', vendor: 'demo', baseUrl: sim.url });
    const second = app.dispatch('registerPurchase', { profileId, assetId: b!, assetTitle: 'B' });
    expect(await first).toMatchObject({ ok: true });
    expect(await second).toMatchObject({ ok: true });
    sim.control.setFaults({ latencyMs: 0 });
    expect(sentTo(sim, 'registerPurchase')).toBe(2);
    // No new session: its first request (the probe) was not sent again; the new name is listed.
    expect(sentTo(sim, 'categories')).toBe(probes);
    expect((await callApp(app, 'connectedProfiles', {})).items.find((p) => p.profileId === profileId)?.name).toBe('Sim, renamed');
    expect((await callApp(app, 'listProfiles', {})).items.find((p) => p.id === profileId)?.name).toBe('Sim, renamed');
  });
});
