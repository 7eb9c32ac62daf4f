/**
 * A page still showing what a profile read before it was edited (same id, now another service): an
 * action on it names where the profile pointed then, and main refuses it with nothing sent, so that
 * Register on a staging asset never reaches the production service the profile points at now. Two
 * simulators on loopback.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppServices } from '../../electron/app';
import { startSimulator } from '../../electron/simulator';
import type { RunningSimulator } from '../../electron/simulator';
import { callApp, shownProfile, until } from '../helpers/app-calls';
import { connectedApp } from '../helpers/connected-app';
import { sentTo } from '../helpers/sim-counts';

let dispose: () => Promise<void>;
let staging: RunningSimulator;
let production: RunningSimulator;
let app: AppServices;

beforeEach(async () => {
  staging = await startSimulator({ port: 0, catalogSize: 20 });
  production = await startSimulator({ port: 0, catalogSize: 20 });
  ({ app, dispose } = await connectedApp(staging.url, 'Staging'));
});

afterEach(async () => {
  await dispose();
  await staging.stop();
  await production.stop();
});

const registrations = (sim: RunningSimulator): number => sentTo(sim, 'registerPurchase');

describe('a profile edited to point at another service', () => {
  it('refuses an action named with where it pointed when the page read it; nothing reaches either service', async () => {
    const profileId = await shownProfile(app);
    const before = await callApp(app, 'connection', {});
    const shownAt = { vendor: before.vendor!, baseUrl: before.baseUrl! };
    const asset = (await callApp(app, 'listAssets', { profileId, shownAt, lastId: null, pageSize: 1 })).items[0]!.id;

    await callApp(app, 'saveProfile', { id: profileId, name: 'Staging', vendor: 'demo', baseUrl: production.url });
    await until(async () => (await callApp(app, 'connection', {})).baseUrl !== shownAt.baseUrl);

    const refused = await app.dispatch('registerPurchase', { profileId, shownAt, assetId: asset, assetTitle: 'A' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'PROFILE_NOT_CONNECTED' } });
    expect(JSON.stringify(refused)).toContain('nothing was sent');
    expect(await app.dispatch('listAssets', { profileId, shownAt, lastId: null, pageSize: 1 })).toMatchObject({ ok: false });
    expect(registrations(staging) + registrations(production)).toBe(0);

    // Named with where it points now, it goes there.
    const now = await callApp(app, 'connection', {});
    await callApp(app, 'registerPurchase', { profileId, shownAt: { vendor: now.vendor!, baseUrl: now.baseUrl! }, assetId: asset, assetTitle: 'A' });
    expect(registrations(production)).toBe(1);
    expect(registrations(staging)).toBe(0);
  });
});
