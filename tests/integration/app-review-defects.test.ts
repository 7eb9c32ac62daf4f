/**
 * Defects found in review (and one area checked clean: a download outlives its profile's disconnect) of several connected profiles and per-scope budget stores, each through the
 * app's own dispatch on real simulators (loopback), a real redis-server and real settings files.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import type { CallName, CallResponse } from '../../shared/bridge/contract';
import { createAppServices, memoryVault } from '../../electron/app';
import type { AppServices } from '../../electron/app';
import { DEFAULT_RETRY_POLICY } from '../../electron/client';
import { startSimulator } from '../../electron/simulator';
import type { RunningSimulator } from '../../electron/simulator';
import { hasRedisServer, startRedisServer } from '../helpers/redis-server';

const dirs: string[] = [];
const apps: AppServices[] = [];
const sims: RunningSimulator[] = [];

async function openApp(embeddedSimulator = false, offlineProbeMs?: number): Promise<{ app: AppServices; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'app-review-'));
  dirs.push(dir);
  const app = await createAppServices({
    shell: 'desktop',
    dataDir: dir,
    vault: memoryVault(),
    version: '0.0.0',
    openExternal: async () => undefined,
    log: () => undefined,
    embeddedSimulator,
    ...(offlineProbeMs === undefined ? {} : { offlineProbeMs }),
  });
  apps.push(app);
  return { app, dir };
}

async function sim(): Promise<RunningSimulator> {
  const s = await startSimulator({ host: '127.0.0.1', port: 0 });
  sims.push(s);
  return s;
}

async function call<N extends CallName>(app: AppServices, name: N, request: unknown): Promise<CallResponse<N>> {
  const result = await app.dispatch(name, request);
  if (!result.ok) throw new Error(`${name} failed: ${JSON.stringify(result.error)}`);
  return result.value as CallResponse<N>;
}

const usageRequests = async (app: AppServices, profileId: string): Promise<number> =>
  (await call(app, 'usageHistory', { profileId, vendor: 'acme', fromMs: Date.now() - 60_000, toMs: Date.now() + 1000 })).points.reduce(
    (n, p) => n + p.requests,
    0,
  );

async function waitFor(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

afterAll(async () => {
  for (const app of apps) await app.dispose();
  for (const s of sims) await s.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('samples of a short-lived client (Test connection)', () => {
  it('land under the tested profile, never under another connected profile of the same vendor on another server', async () => {
    const [one, two] = [await sim(), await sim()];
    const { app } = await openApp();
    const connected = await call(app, 'saveProfile', { name: 'acme one', vendor: 'acme', baseUrl: one.url, addTokens: ['acme-token-1'] });
    const tested = await call(app, 'saveProfile', { name: 'acme two', vendor: 'acme', baseUrl: two.url, addTokens: ['acme-token-1'] });
    await call(app, 'selectProfile', { id: connected.id });
    // Its first contact's detection (3 probes) and its own first request are in its history: attributed, and flushed.
    await waitFor(async () => (await usageRequests(app, connected.id)) === 4);
    for (let i = 0; i < 3; i++) expect((await call(app, 'testConnection', { id: tested.id })).ok).toBe(true);
    await waitFor(async () => (await usageRequests(app, connected.id)) + (await usageRequests(app, tested.id)) >= 7).catch(() => undefined);
    expect(await usageRequests(app, connected.id)).toBe(4);
    expect(await usageRequests(app, tested.id)).toBe(3);
  });
});

describe('the embedded simulator', () => {
  it('keeps running for a Test connection of a demo profile while another profile disconnects', async () => {
    const s = await sim();
    const { app } = await openApp(true);
    const saved = await call(app, 'saveProfile', { name: 'acme', vendor: 'acme', baseUrl: s.url, addTokens: ['acme-token-1'] });
    for (let i = 0; i < 3; i++) {
      await call(app, 'selectProfile', { id: saved.id });
      await call(app, 'disconnectProfile', { id: 'demo' });
      // No demo profile connected: the test starts the simulator, the disconnect must not stop it under the test.
      const [test] = await Promise.all([call(app, 'testConnection', { id: 'demo' }), call(app, 'disconnectProfile', { id: saved.id })]);
      expect(test).toMatchObject({ ok: true, status: 200 });
      await call(app, 'selectProfile', { id: 'demo' });
    }
  });
});

/** A second run of the app whose memory vault has forgotten the token of a profile saved by the first run: it cannot open. */
async function appWithALostToken(s: RunningSimulator): Promise<{ app: AppServices; lostId: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'app-review-'));
  dirs.push(dir);
  const open = async (): Promise<AppServices> => {
    const app = await createAppServices({
      shell: 'desktop',
      dataDir: dir,
      vault: memoryVault(),
      version: '0.0.0',
      openExternal: async () => undefined,
      log: () => undefined,
      embeddedSimulator: false,
    });
    apps.push(app);
    return app;
  };
  const first = await open();
  const lost = await call(first, 'saveProfile', { name: 'Sealed by an earlier run', vendor: 'acme', baseUrl: s.url, addTokens: ['acme-token-1'] });
  await first.dispose();
  return { app: await open(), lostId: lost.id };
}

describe('the active profile failed to open while another is connected', () => {
  it('the detailed views say the active one is not connected, not that none is', async () => {
    const s = await sim();
    const { app, lostId } = await appWithALostToken(s);
    const fine = await call(app, 'saveProfile', { name: 'Fine', vendor: 'acme', baseUrl: s.url, addTokens: ['acme-token-1'] });
    await call(app, 'selectProfile', { id: fine.id });
    expect((await app.dispatch('selectProfile', { id: lostId })).ok).toBe(false);
    expect((await call(app, 'connectedProfiles', {})).items.map((p) => [p.name, p.active]).sort()).toEqual([
      ['Fine', false],
      ['Sealed by an earlier run', true],
    ]);
    const answer = await app.dispatch('categories', { profileId: lostId });
    expect(answer).toMatchObject({ ok: false, error: { code: 'PROFILE_NOT_CONNECTED' } });
    expect(answer.ok ? '' : answer.error.message).toBe('Profile "Sealed by an earlier run" is not connected: nothing was sent.');
  });
});

describe('saving a connected profile whose reconnect fails', () => {
  it('answers with the saved profile (its connection state says why it is not connected), not with an error', async () => {
    const s = await sim();
    const { app, lostId } = await appWithALostToken(s);
    expect((await app.dispatch('selectProfile', { id: lostId })).ok).toBe(false);
    const saved = await app.dispatch('saveProfile', { id: lostId, name: 'Renamed', vendor: 'acme', baseUrl: s.url });
    expect(saved).toMatchObject({ ok: true, value: { id: lostId, name: 'Renamed' } });
    expect((await call(app, 'listProfiles', {})).items.find((p) => p.id === lostId)?.name).toBe('Renamed');
    const entry = (await call(app, 'connectedProfiles', {})).items.find((p) => p.profileId === lostId);
    expect(entry?.connection).toMatchObject({ state: 'offline', message: expect.stringMatching(/\S/) });
  });
});

describe('an offline profile asked again a while after its last probe settled', () => {
  it('asks with one probe at a time: the next waits until the one still retrying is done', async () => {
    // A service that accepts and never answers: every attempt times out (1 s), the profile is offline.
    const accepted: Socket[] = [];
    let requests = 0;
    const server = createServer((socket) => {
      accepted.push(socket);
      socket.on('error', () => undefined);
      socket.on('data', (d: Buffer) => (requests += d.toString('latin1').match(/^GET /gm)?.length ?? 0));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      // Asked again 0.5 s after a probe settled (5 s in the app): a probe that did not wait for the one
      // still retrying would start within the second and add its attempts in the window below.
      const { app } = await openApp(false, 500);
      await call(app, 'saveSettings', { timeoutMs: 1000 });
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      const p = await call(app, 'saveProfile', { name: 'silent', vendor: 'acme', baseUrl: url, addTokens: ['acme-token-1'] });
      await call(app, 'selectProfile', { id: p.id });
      await waitFor(async () => (await call(app, 'connection', {})).state === 'offline', 5000);
      // What first contact's detection sent before the session opened (it gave up on the silent service) is not the probes'.
      requests = 0;
      // The first probe's attempts (at most DEFAULT_RETRY_POLICY.maxAttempts, 1 s each plus backoff) run
      // past the window's end: at 1 s each, the next probe cannot start within it.
      await new Promise((r) => setTimeout(r, 6_000));
      expect(requests).toBeGreaterThan(0);
      expect(requests).toBeLessThanOrEqual(DEFAULT_RETRY_POLICY.maxAttempts);
      await call(app, 'disconnectProfile', { id: p.id });
    } finally {
      for (const socket of accepted) socket.destroy();
      await new Promise((r) => server.close(r));
    }
  }, 30_000);
});

describe('dispose while a demo profile opens', () => {
  it('closes what opened and stops the simulator', async () => {
    const { app } = await openApp(true);
    await call(app, 'disconnectProfile', { id: 'demo' });
    const connecting = app.dispatch('connectProfile', { id: 'demo-acme' });
    await app.dispose();
    const opened = await connecting;
    // Opened before the dispose took over (then closed with the rest), or refused: either way nothing runs on.
    if (opened.ok) {
      const url = (opened.value as CallResponse<'connectProfile'>).baseUrl;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      await expect(fetch(`${url}/assets/categories`)).rejects.toThrow();
    } else expect(opened.error.code).toBe('CANCELLED');
  });
});

describe('a catalog download whose profile is disconnected mid-run', () => {
  it('keeps its checkpoint: connected again, it resumes where it stopped', async () => {
    const { app, dir } = await openApp(true);
    await call(app, 'saveSettings', { downloadDir: join(dir, 'downloads') });
    await call(app, 'selectProfile', { id: 'demo-acme' });
    await call(app, 'downloadStart', { profileId: 'demo-acme', format: 'jsonl', resume: false });
    await waitFor(async () => (await call(app, 'downloadStatus', {})).items >= 2, 15_000);
    const stopped = (await call(app, 'downloadStatus', {})).items;
    await call(app, 'disconnectProfile', { id: 'demo-acme' });
    expect((await call(app, 'downloadStatus', {})).state).toBe('idle');
    await call(app, 'selectProfile', { id: 'demo-acme' });
    // Shown for that profile as interrupted (a plain start would not replace it), with what it holds.
    const shown = await call(app, 'downloadStatus', { profileId: 'demo-acme' });
    expect(shown.interrupted).toMatchObject({ format: 'jsonl', outPath: expect.stringMatching(/catalog-acme\.jsonl$/) });
    expect(shown.interrupted!.items).toBeGreaterThan(0);
    const before = await call(app, 'downloadResume', { profileId: 'demo-acme' });
    expect(before.state).toBe('running');
    // Read the figures once the run has paused: a response is counted as a request when it arrives and its page
    // only once written and checkpointed, so a figure read while a page is in flight has one request too many.
    await waitFor(async () => (await call(app, 'downloadStatus', {})).requests >= 2, 15_000);
    await call(app, 'downloadPause', { profileId: 'demo-acme' });
    await waitFor(async () => (await call(app, 'downloadStatus', {})).state === 'paused', 15_000);
    const resumed = await call(app, 'downloadStatus', {});
    // From the checkpoint: the pages before the disconnect are counted, not asked again; this run's pages are
    // at most its answered requests (a 429 brings no page), so more pages than that came from the checkpoint.
    expect(resumed.items).toBeGreaterThanOrEqual(stopped);
    expect(resumed.pages, JSON.stringify(resumed)).toBeGreaterThan(resumed.requests - resumed.rateLimited);
    await call(app, 'downloadCancel', { profileId: 'demo-acme', deleteFiles: true });
  }, 30_000);
});

describe.skipIf(!hasRedisServer())('a profile with a Redis budget store (real redis-server)', () => {
  it('closes its Redis connection when it is disconnected or removed (no other connected profile uses the store)', async () => {
    const redis = await startRedisServer();
    const inspector = new Redis(redis.url(0), { lazyConnect: true });
    inspector.on('error', () => undefined);
    try {
      await inspector.connect();
      // Clients other than the inspector itself.
      const appConnections = async (): Promise<number> => ((await inspector.client('LIST')) as string).trim().split('\n').length - 1;
      const s = await sim();
      const { app } = await openApp();
      const p = await call(app, 'saveProfile', { name: 'acme fleet', vendor: 'acme', baseUrl: s.url, addTokens: ['acme-token-1'], budgetStore: redis.url(4) });
      await call(app, 'selectProfile', { id: p.id });
      await waitFor(async () => (await appConnections()) === 1);
      await call(app, 'disconnectProfile', { id: p.id });
      await waitFor(async () => (await appConnections()) === 0).catch(() => undefined);
      expect(await appConnections()).toBe(0);
      // Connected again, then removed: closed again.
      await call(app, 'connectProfile', { id: p.id });
      await waitFor(async () => (await appConnections()) === 1);
      await call(app, 'removeProfile', { id: p.id });
      await waitFor(async () => (await appConnections()) === 0).catch(() => undefined);
      expect(await appConnections()).toBe(0);
    } finally {
      inspector.disconnect();
      await redis.stop();
    }
  });

  it('closes it too when the profile never opens: removed while its first contact detects the service map', async () => {
    const redis = await startRedisServer();
    const inspector = new Redis(redis.url(0), { lazyConnect: true });
    inspector.on('error', () => undefined);
    try {
      await inspector.connect();
      const appConnections = async (): Promise<number> => ((await inspector.client('LIST')) as string).trim().split('\n').length - 1;
      // Slow answers: the first contact (no saved map) takes a few of them, time enough to remove the profile.
      const slow = await startSimulator({ host: '127.0.0.1', port: 0, faults: { latencyMs: 400 } });
      sims.push(slow);
      const { app } = await openApp();
      const p = await call(app, 'saveProfile', {
        name: 'acme fleet',
        vendor: 'acme',
        baseUrl: slow.url,
        addTokens: ['acme-token-1'],
        budgetStore: redis.url(4),
      });
      const opening = app.dispatch('connectProfile', { id: p.id });
      await waitFor(async () => (await appConnections()) === 1);
      await call(app, 'removeProfile', { id: p.id });
      expect((await opening).ok).toBe(false);
      await waitFor(async () => (await appConnections()) === 0).catch(() => undefined);
      expect(await appConnections()).toBe(0);
    } finally {
      inspector.disconnect();
      await redis.stop();
    }
  });
});
