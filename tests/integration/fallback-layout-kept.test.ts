/**
 * A layout detected from a first real answer (purchase, link: nothing probes them for free) goes into
 * the profile's detected map, so that Settings' review shows what is in use and the next session reads
 * those answers without detecting again; a reviewed map is never changed by it. Against the jsonapi
 * simulator dialect on loopback, through the app's own services, restarted on the same data folder.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppServices, memoryVault } from '../../electron/app';
import type { AppServices } from '../../electron/app';
import type { TokenVault } from '../../electron/app/token-vault';
import { startSimulator } from '../../electron/simulator';
import type { RunningSimulator } from '../../electron/simulator';
import { AssetCatalog } from '../../electron/simulator/asset-catalog';
import type { CallName, CallResponse } from '../../shared/bridge/contract';
import type { ServiceMap } from '../../shared/service-map/schema';
import { callApp } from '../helpers/app-calls';

const SIZE = 40;
const SEED = 5;
const TOKEN = 'demo-token-1';
const catalog = new AssetCatalog(SIZE, SEED);

let dir: string | null = null;
let app: AppServices | null = null;
let sim: RunningSimulator | null = null;

afterEach(async () => {
  await app?.dispose();
  app = null;
  await sim?.stop();
  sim = null;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = null;
});

/** The app's services on `dir` (a restart: the same folder and vault), the profile connected. */
async function start(
  vault: TokenVault,
  profileId: string | null,
): Promise<{ call: <N extends CallName>(name: N, request: unknown) => Promise<CallResponse<N>>; profileId: string }> {
  app = await createAppServices({ shell: 'web', dataDir: dir!, vault, version: '0.0.0', embeddedSimulator: false, log: () => undefined });
  const a = app;
  const call = <N extends CallName>(name: N, request: unknown) => callApp(a, name, request);
  const id = profileId ?? (await call('saveProfile', { name: 'acme', vendor: 'acme', baseUrl: sim!.url, addTokens: [TOKEN] })).id;
  await call('selectProfile', { id });
  return { call, profileId: id };
}

/** Requests the simulator answered for an endpoint. */
function count(endpoint: string): number {
  return sim!.control
    .counters()
    .filter((c) => c.endpoint === endpoint && !c.competitor)
    .reduce((n, c) => n + c.count, 0);
}

describe('a layout detected from a first purchase or link answer (jsonapi dialect)', () => {
  it('is kept in the profile’s detected map: the review shows it, and the next session reads without detecting again', async () => {
    sim = await startSimulator({ catalogSize: SIZE, seed: SEED, dialect: 'jsonapi' });
    dir = await mkdtemp(join(tmpdir(), 'fallback-kept-'));
    const vault = memoryVault();
    const first = await start(vault, null);
    const profileId = first.profileId;
    const assetId = catalog.idAt(2);
    const registered = await first.call('registerPurchase', { profileId, assetId, assetTitle: null });
    const info = await first.call('purchaseInfo', { profileId, purchaseId: registered.id });
    expect(String(info.asset_id)).toBe(String(assetId));
    expect((await first.call('validatePurchase', { profileId, purchaseId: registered.id })).stateKind).toBe('validated');
    const link = await first.call('downloadUrl', { profileId, purchaseId: registered.id });
    expect(link.url).toMatch(/^https?:\/\//);

    // What is in use is what the review shows, still not reviewed.
    const view = await first.call('serviceMapGet', { profileId });
    expect(view.source).toBe('detected');
    expect(view.map.purchase).toMatchObject({ at: 'data', id: 'id', state: 'attributes.state', asset: 'relationships.asset.data.id' });
    expect(view.map.url).toMatchObject({ at: 'data', url: 'attributes.url', expiry: 'attributes.expiresAt' });
    // Learned marks are for request names a 400 taught, not for read layouts.
    expect(view.map.learned ?? []).toEqual([]);

    // A new session: the stored map fits, so no first-contact probing and no detection from the answers.
    await app!.dispose();
    app = null;
    const probesBefore = count('categories');
    const second = await start(vault, profileId);
    expect(count('categories')).toBe(probesBefore);
    const again = await second.call('purchaseInfo', { profileId, purchaseId: registered.id });
    expect(again).toMatchObject({ id: registered.id, stateKind: 'validated', missing: [], warnings: [] });
    expect(String(again.asset_id)).toBe(String(assetId));
    expect(again.notes ?? []).toEqual([]);
    const link2 = await second.call('downloadUrl', { profileId, purchaseId: registered.id });
    expect(link2.notes ?? []).toEqual([]);
    expect(link2.expiresAt).not.toBeNull();

    // "Reviewed: keep this map" keeps what was in use: a reviewed map that did not fit would carry a note.
    const kept = await second.call('serviceMapSave', { profileId, map: (await second.call('serviceMapGet', { profileId })).map });
    expect(kept).toMatchObject({ source: 'saved', map: view.map });
    const reviewedRead = await second.call('purchaseInfo', { profileId, purchaseId: registered.id });
    expect(reviewedRead).toMatchObject({ id: registered.id, stateKind: 'validated', missing: [], warnings: [] });
    expect(reviewedRead.notes ?? []).toEqual([]);
    expect((await second.call('viewUrl', { profileId, purchaseId: registered.id })).notes ?? []).toEqual([]);
  }, 30_000);

  it('never changes a reviewed map: the answer is read with the layout for the session, and the notice says so', async () => {
    sim = await startSimulator({ catalogSize: SIZE, seed: SEED, dialect: 'jsonapi' });
    dir = await mkdtemp(join(tmpdir(), 'fallback-reviewed-'));
    const { call, profileId } = await start(memoryVault(), null);
    // The user's review saved the detected map as it was, with the built-in purchase shapes.
    const detected = (await call('serviceMapGet', { profileId })).map;
    const reviewed: ServiceMap = (await call('serviceMapSave', { profileId, map: detected })).map;
    expect((await call('serviceMapGet', { profileId })).source).toBe('saved');

    const assetId = catalog.idAt(3);
    const registered = await call('registerPurchase', { profileId, assetId, assetTitle: null });
    expect(registered.id).not.toBe('');
    expect(registered.notes?.join(' ')).toMatch(/detected layout.*Detect again/);
    expect(registered.notes?.join(' ')).not.toMatch(/Settings|save it/);

    const view = await call('serviceMapGet', { profileId });
    expect(view.source).toBe('saved');
    expect(view.map).toEqual(reviewed);
  }, 30_000);
});
