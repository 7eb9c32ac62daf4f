/**
 * Several profiles connected at once (issue 12 §4), through the app's own dispatch on the embedded
 * simulator: the built-in demo (vendor demo) and demo-acme (vendor acme) side by side, each with its
 * own client, samples, usage history and demo traffic; one of them active.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events as eventSchemas } from '../../shared/bridge/contract';
import type { CallName, CallResponse, EventName } from '../../shared/bridge/contract';
import { createAppServices, memoryVault } from '../../electron/app';
import type { AppServices } from '../../electron/app';
import { callApp, sleep, until } from '../helpers/app-calls';
import { startSimulator } from '../../electron/simulator';

type Got = { at: number; name: EventName; payload: unknown };
type Sessions = CallResponse<'connectedProfiles'>;

let dir: string;
let app: AppServices;
const got: Got[] = [];
/** How long after an offline probe settles the pool asks again (the app's OFFLINE_PROBE_MS is 5 s). */
const PROBE_MS = 1000;

const call = <N extends CallName>(name: N, request: unknown): Promise<CallResponse<N>> => callApp(app, name, request);

const sessionEvents = (since = 0): Sessions[] => got.filter((g) => g.name === 'sessions' && g.at >= since).map((g) => g.payload as Sessions);
const requestsOf = async (vendor: string, sinceMs: number): Promise<number> =>
  (await call('budgetHistory', { sinceMs })).aggregates.filter((a) => a.vendor === vendor).reduce((n, a) => n + a.requests, 0);
const usageRequests = async (profileId: string, vendor: string, fromMs: number): Promise<number> =>
  (await call('usageHistory', { profileId, vendor, fromMs, toMs: Date.now() + 1000 })).points.reduce((n, p) => n + p.requests, 0);
const stateOf = async (id: string) => (await call('connectedProfiles', {})).items.find((p) => p.profileId === id);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'app-sessions-'));
  app = await createAppServices({
    shell: 'desktop',
    dataDir: dir,
    vault: memoryVault(),
    version: '0.0.0',
    openExternal: async () => undefined,
    log: () => undefined,
    // An offline profile is probed again this soon (5 s in the app): the test of coming back waits for it.
    offlineProbeMs: PROBE_MS,
  });
  app.onEvent((name, payload) => got.push({ at: Date.now(), name, payload }));
});

afterAll(async () => {
  await app?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('several profiles connected at once', () => {
  const t0 = Date.now();

  it('lists the second built-in demo profile (vendor acme) and connects only the demo at start', async () => {
    const profiles = await call('listProfiles', {});
    expect(profiles.items.slice(0, 2)).toMatchObject([
      { id: 'demo', vendor: 'demo', demo: true },
      { id: 'demo-acme', vendor: 'acme', demo: true, name: 'Built-in demo service: acme' },
    ]);
    // The demo's public token is shown as such (publicText), never in the masked text.
    expect(profiles.items[1]!.tokens.map((t) => t.publicText)).toEqual(['acme-token-1']);
    expect(JSON.stringify(profiles.items.map((p) => ({ ...p, tokens: p.tokens.map(({ publicText: _shown, ...t }) => t) })))).not.toContain('acme-token-1');
    expect((await call('connectedProfiles', {})).items).toMatchObject([{ profileId: 'demo', active: true }]);
  });

  it('connects demo-acme in the background, once however often it is asked; the active one is unchanged', async () => {
    const first = await call('connectProfile', { id: 'demo-acme' });
    expect(first).toMatchObject({ profileId: 'demo-acme', vendor: 'acme', demo: true, active: false });
    await until(async () => (await stateOf('demo-acme'))?.connection.state === 'connected');
    const before = Date.now();
    const again = await call('connectProfile', { id: 'demo-acme' });
    expect(again).toMatchObject({ profileId: 'demo-acme', active: false, connection: { state: 'connected' } });
    await sleep(100);
    // A second client would have started over at "connecting".
    expect(
      sessionEvents(before)
        .flatMap((e) => e.items)
        .filter((p) => p.profileId === 'demo-acme' && p.connection.state !== 'connected'),
    ).toEqual([]);
    expect(await call('connection', {})).toMatchObject({ profileId: 'demo', vendor: 'demo', state: 'connected' });
    const both = await call('connectedProfiles', {});
    expect(both.items.map((p) => [p.profileId, p.active])).toEqual([
      ['demo', true],
      ['demo-acme', false],
    ]);
    const last = sessionEvents().at(-1)!;
    expect(last.items.map((p) => p.profileId)).toEqual(['demo', 'demo-acme']);
    for (const g of got) expect(eventSchemas[g.name].safeParse(g.payload).success, g.name).toBe(true);
  });

  it('samples of both vendors, each into its own usage history', async () => {
    await call('simSetDemoTraffic', { share: 0.5, endpoints: ['listAssets', 'purchaseInfo'] });
    const since = Date.now();
    await until(async () => (await requestsOf('demo', since)) > 5 && (await requestsOf('acme', since)) > 5);
    // Usage is written in batches of a second or so.
    await until(async () => (await usageRequests('demo', 'demo', t0)) > 0 && (await usageRequests('demo-acme', 'acme', t0)) > 0, 15_000);
    expect(await usageRequests('demo', 'acme', t0)).toBe(0);
    expect(await usageRequests('demo-acme', 'demo', t0)).toBe(0);
  });

  it('selecting demo-acme keeps the demo connected with its traffic running; the views follow the active one', async () => {
    const conn = await call('selectProfile', { id: 'demo-acme' });
    expect(conn).toMatchObject({ profileId: 'demo-acme', vendor: 'acme', demo: true });
    expect((await call('connectedProfiles', {})).items.map((p) => [p.profileId, p.active])).toEqual([
      ['demo', false],
      ['demo-acme', true],
    ]);
    expect(got.filter((g) => g.name === 'connection').at(-1)!.payload).toMatchObject({ profileId: 'demo-acme', vendor: 'acme' });
    // The simulator panel now shows (and changes) acme's own, lighter demo traffic.
    expect((await call('simState', {}))!.demoTraffic).toEqual({ share: 0.2, endpoints: ['listAssets', 'categories', 'searchAssets'] });
    expect((await call('budgetSnapshot', {})).vendor).toBe('acme');
    // Waited for, not slept for: on a loaded machine the client may send less in a fixed second.
    const since = Date.now();
    await until(async () => (await requestsOf('demo', since)) > 5);
    const page = await call('listAssets', { profileId: 'demo-acme', lastId: null, pageSize: 3 });
    expect(page.items).toHaveLength(3);
    const log = await call('requestLog', { endpoint: 'listAssets', status: null, limit: 1 });
    expect(log.entries[0]!.vendor).toBe('acme');
  });

  // Reconnecting on an edit that changes what it sends: profile-save-in-flight.test.ts.
  it('a saved profile connected in the background keeps its session when only renamed, and is closed when removed', async () => {
    const url = (await call('simState', {}))!.url;
    const saved = await call('saveProfile', { name: 'Acme direct', vendor: 'acme', baseUrl: url, addTokens: ['acme-token-1'] });
    await call('connectProfile', { id: saved.id });
    await until(async () => (await stateOf(saved.id))?.connection.state === 'connected');
    await call('saveProfile', { id: saved.id, name: 'Acme direct (renamed)', vendor: 'acme', baseUrl: url });
    expect(await stateOf(saved.id)).toMatchObject({ name: 'Acme direct (renamed)', active: false, connection: { state: 'connected' } });
    await call('removeProfile', { id: saved.id });
    expect(await stateOf(saved.id)).toBeUndefined();
    expect(await call('connection', {})).toMatchObject({ profileId: 'demo-acme' });
  });

  it('a profile gone offline comes back by itself once the service answers again', async () => {
    let service = await startSimulator({ host: '127.0.0.1', port: 0 });
    const port = Number(new URL(service.url).port);
    try {
      const saved = await call('saveProfile', { name: 'Acme flaky', vendor: 'acme', baseUrl: service.url, addTokens: ['acme-token-1'] });
      await call('selectProfile', { id: saved.id });
      await until(async () => (await call('connection', {})).state === 'connected');
      await service.stop();
      // Its retries spent, the call fails: offline, and nothing of ours is under way any more.
      expect(await app.dispatch('categories', { profileId: saved.id })).toMatchObject({ ok: false });
      expect(await call('connection', {})).toMatchObject({ state: 'offline' });
      service = await startSimulator({ host: '127.0.0.1', port });
      // No call of ours: the pool asks again every PROBE_MS while the profile is offline.
      await until(async () => (await call('connection', {})).state !== 'offline', PROBE_MS + 4000);
      await call('removeProfile', { id: saved.id });
      await call('selectProfile', { id: 'demo-acme' });
    } finally {
      await service.stop();
    }
  }, 20_000);

  it('disconnecting the active profile stops its download and makes the next one active; the last demo profile stops the simulator', async () => {
    const url = (await call('simState', {}))!.url;
    // acme's catalog download goes with it.
    expect(await call('downloadStart', { profileId: 'demo-acme', format: 'jsonl', resume: false })).toMatchObject({
      state: 'running',
      outPath: expect.stringMatching(/catalog-acme\.jsonl$/),
    });
    const since = Date.now();
    const left = await call('disconnectProfile', { id: 'demo-acme' });
    expect((await call('downloadStatus', {})).state).toBe('idle');
    expect(left.items.map((p) => [p.profileId, p.active])).toEqual([['demo', true]]);
    expect(await call('connection', {})).toMatchObject({ profileId: 'demo', vendor: 'demo' });
    await until(() => sessionEvents(since).some((e) => e.items.length === 1));
    // The simulator keeps running for the demo, whose traffic goes on.
    expect((await call('simState', {}))!.demoTraffic.share).toBe(0.5);
    // History is per second: from the next whole second on, nothing of acme's, while the demo's goes on (waited
    // for: on a loaded machine the demo may send fewer in a fixed 800 ms; acme's is read once that much flowed).
    const acmeFrom = Math.ceil((Date.now() + 100) / 1000) * 1000;
    await sleep(acmeFrom + 800 - Date.now());
    await until(async () => (await requestsOf('demo', acmeFrom)) > 3);
    expect(await requestsOf('acme', acmeFrom)).toBe(0);
    // Twice is harmless.
    expect((await call('disconnectProfile', { id: 'demo-acme' })).items).toHaveLength(1);
    // Calls at once take turns, in the order they came.
    const [connected, selected, left2] = await Promise.all([
      call('connectProfile', { id: 'demo-acme' }),
      call('selectProfile', { id: 'demo-acme' }),
      call('disconnectProfile', { id: 'demo-acme' }),
    ]);
    expect(connected).toMatchObject({ profileId: 'demo-acme', active: false });
    expect(selected).toMatchObject({ profileId: 'demo-acme', vendor: 'acme' });
    expect(left2.items.map((p) => [p.profileId, p.active])).toEqual([['demo', true]]);
    expect(await call('connection', {})).toMatchObject({ profileId: 'demo' });

    expect((await call('disconnectProfile', { id: 'demo' })).items).toEqual([]);
    await expect(fetch(`${url}/assets/categories`)).rejects.toThrow();
    expect(await call('connection', {})).toMatchObject({ state: 'offline', profileId: null, message: 'No profile connected.' });
    expect(await app.dispatch('categories', { profileId: 'demo' })).toMatchObject({ ok: false, error: { code: 'PROFILE_NOT_CONNECTED' } });
    expect(await app.dispatch('connectProfile', { id: 'nobody' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });
});
