/**
 * The user's saved map always wins over what the app finds by itself: a map saved while first
 * contact's detection is under way (it runs in the session pool's one chain and can take seconds) is
 * not overwritten by the detection; a name a 400 taught goes into the map the profile holds now,
 * never replacing the rest of it; and a name learned while the profile has no map (detection failed,
 * the built-in shapes in use) does not stop the next connection from detecting. The app's services
 * over the bridge's dispatch, simulators on loopback (latency from the simulator's own fault settings).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppServices, memoryVault } from '../../electron/app';
import type { AppServices } from '../../electron/app';
import { ProfileStore } from '../../electron/profiles';
import { startSimulator } from '../../electron/simulator';
import type { RunningSimulator, SimDialect } from '../../electron/simulator';
import { AssetCatalog } from '../../electron/simulator/asset-catalog';
import type { CallName, CallResponse } from '../../shared/bridge/contract';
import { profileInputSchema } from '../../shared/bridge/schemas';
import type { EndpointId } from '../../shared/endpoints';
import type { ServiceMap } from '../../shared/service-map/schema';
import { DEFAULT_SERVICE_MAP } from '../../shared/service-map/schema';
import { until } from '../helpers/app-calls';

const SIZE = 60;
const SEED = 5;
const TOKEN = 'demo-token-1';
const catalog = new AssetCatalog(SIZE, SEED);

let dir: string | null = null;
let app: AppServices | null = null;
const sims: RunningSimulator[] = [];

afterEach(async () => {
  await app?.dispose();
  app = null;
  for (const s of sims.splice(0)) await s.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = null;
});

async function simulator(dialect: SimDialect): Promise<RunningSimulator> {
  const sim = await startSimulator({ catalogSize: SIZE, seed: SEED, dialect });
  sims.push(sim);
  return sim;
}

type Call = <N extends CallName>(name: N, request: unknown) => Promise<CallResponse<N>>;

/** The desktop app's services with no profile yet (profiles added as in Settings), or on a data directory prepared with `vault`. */
async function startApp(vault = memoryVault()): Promise<Call> {
  dir ??= await mkdtemp(join(tmpdir(), 'first-contact-saved-'));
  app = await createAppServices({ shell: 'web', dataDir: dir, vault, version: '0.0.0', embeddedSimulator: false, log: () => undefined });
  const a = app;
  return async (name, request) => {
    const result = await a.dispatch(name, request);
    if (!result.ok) throw new Error(`${name} failed: ${JSON.stringify(result.error)}`);
    return result.value as CallResponse<typeof name>;
  };
}

/** Requests the simulator answered, per endpoint and status. */
function count(sim: RunningSimulator, endpoint: EndpointId | null, status?: number): number {
  return sim.control
    .counters()
    .filter((c) => (endpoint === null || c.endpoint === endpoint) && (status === undefined || c.status === status) && !c.competitor)
    .reduce((n, c) => n + c.count, 0);
}

const profileOf = (name: string, sim: RunningSimulator) => ({ name, vendor: 'acme', baseUrl: sim.url, addTokens: [TOKEN] });

describe("the user's saved map always wins", () => {
  it('a map saved while first contact is detecting is kept, used and reported as saved; the detection is discarded', async () => {
    const sim = await simulator('snake-envelope');
    sim.control.setFaults({ latencyMs: 500 });
    const call = await startApp();
    const { id } = await call('saveProfile', profileOf('acme', sim));
    const connecting = call('selectProfile', { id });
    // Detection under way: its first probe answered, more to come.
    await until(() => count(sim, null) >= 1, 10_000);
    const mine: ServiceMap = { ...DEFAULT_SERVICE_MAP, asset: { ...DEFAULT_SERVICE_MAP.asset, title: 'my_title_field' } };
    const saved = await call('serviceMapSave', { profileId: id, map: mine });
    expect(saved.source).toBe('saved');
    expect(saved.map.asset.title).toBe('my_title_field');
    await connecting;

    const after = await call('serviceMapGet', { profileId: id });
    expect(after.source).toBe('saved');
    expect(after.map).toEqual(mine);
    // The session reads with the user's map: its title field is not in this dialect's answers.
    sim.control.setFaults({ latencyMs: 0 });
    const page = await call('listAssets', { profileId: id, lastId: null, pageSize: 3 });
    expect(page.items.map((a) => a.title)).not.toEqual([0, 1, 2].map((k) => catalog.assetAt(k).title));
  }, 30_000);

  it('a name a 400 taught on a session goes into the map saved since, keeping the rest of that map', async () => {
    const simA = await simulator('camel-minor');
    const slow = await simulator('default');
    const call = await startApp();
    const a = await call('saveProfile', profileOf('acme', simA));
    await call('selectProfile', { id: a.id });
    const detected = (await call('serviceMapGet', { profileId: a.id })).map;
    // The user's map, with the registration's asset field wrong (this dialect wants `assetId`).
    const first: ServiceMap = { ...detected, register: { ...detected.register, assetIdField: 'asset_id' } };
    await call('serviceMapSave', { profileId: a.id, map: first });

    // Another profile's first contact holds the pool's chain for a while: A's reconnect after the next save waits.
    slow.control.setFaults({ latencyMs: 600 });
    const b = await call('saveProfile', profileOf('other', slow));
    const connectingB = call('connectProfile', { id: b.id });
    await until(() => count(slow, null) >= 1, 10_000);
    const second: ServiceMap = { ...first, asset: { ...first.asset, title: 'my_title_field' } };
    const savingA = call('serviceMapSave', { profileId: a.id, map: second });
    await until(async () => (await call('serviceMapGet', { profileId: a.id })).map.asset.title === 'my_title_field', 5000);

    // A's session (still the one started with `first`) learns the field from the 400.
    const registered = await call('registerPurchase', { profileId: a.id, assetId: catalog.idAt(3), assetTitle: null });
    expect(registered.notes?.join(' ')).toMatch(/learned/);
    expect(count(simA, 'registerPurchase', 400)).toBe(1);
    await savingA;
    await connectingB;

    const kept = await call('serviceMapGet', { profileId: a.id });
    expect(kept.source).toBe('saved');
    expect(kept.map).toEqual({ ...second, register: { ...second.register, assetIdField: 'assetId' }, learned: ['register.assetIdField'] });
  }, 30_000);

  it('a name learned while the profile has no map is kept for the session, and the next connection still detects (the name applied on top)', async () => {
    const sim = await simulator('camel-minor');
    const call = await startApp();
    // First contact fails (the service answers 5xx): the built-in shapes are used.
    sim.control.setFaults({ errorRate: 1 });
    const p = await call('saveProfile', profileOf('acme', sim));
    await call('selectProfile', { id: p.id });
    expect((await call('serviceMapGet', { profileId: p.id })).source).toBe('default');
    sim.control.setFaults({ errorRate: 0 });

    // The built-in shapes send `asset_id`; this dialect's 400 names `assetId`: learned, sent once more.
    const registered = await call('registerPurchase', { profileId: p.id, assetId: catalog.idAt(3), assetTitle: null });
    expect(registered.notes?.join(' ')).toMatch(/learned/);
    expect(count(sim, 'registerPurchase', 400)).toBe(1);
    expect((await call('serviceMapGet', { profileId: p.id })).source).toBe('default');

    // The next connection (disconnected and connected again) detects the map, with the learned name.
    const probesBefore = count(sim, 'listAssets');
    await call('disconnectProfile', { id: p.id });
    await call('selectProfile', { id: p.id });
    expect(count(sim, 'listAssets')).toBeGreaterThan(probesBefore);
    const view = await call('serviceMapGet', { profileId: p.id });
    expect(view.source).toBe('detected');
    expect(view.map.list.pageSizeParam).toBe('limit');
    expect(view.map.register.assetIdField).toBe('assetId');
    expect(view.map.learned).toContain('register.assetIdField');
    const page = await call('listAssets', { profileId: p.id, lastId: null, pageSize: 3 });
    expect(page.items.map((a) => [Number(a.id), a.title])).toEqual([0, 1, 2].map((k) => [catalog.idAt(k), catalog.assetAt(k).title]));
  }, 30_000);

  it("an older profile's own names without a map are still detected at its first contact, as before the names moved into a map", async () => {
    const sim = await simulator('snake-envelope');
    dir = await mkdtemp(join(tmpdir(), 'first-contact-saved-'));
    const vault = memoryVault();
    const id = new ProfileStore({ dataDir: dir, vault }).save(profileInputSchema.parse(profileOf('acme', sim))).id;
    // What an older build wrote: the form's names, changed, and no map.
    const file = join(dir, 'config.json');
    const json = JSON.parse(await readFile(file, 'utf8')) as { profiles: Record<string, unknown>[] };
    json.profiles = json.profiles.map(({ namesFromMap: _mirror, serviceMap: _map, ...p }) => ({ ...p, pageSizeParam: 'limit', idField: 'id' }));
    await writeFile(file, JSON.stringify(json));

    const call = await startApp(vault);
    await call('selectProfile', { id });
    expect((await call('serviceMapGet', { profileId: id })).source).toBe('detected');
    const page = await call('listAssets', { profileId: id, lastId: null, pageSize: 3 });
    expect(page.items.map((x) => x.title)).toEqual([0, 1, 2].map((k) => catalog.assetAt(k).title));
  }, 30_000);
});
