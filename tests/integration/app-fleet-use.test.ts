/**
 * fleetUse through the app's own dispatch, on the embedded simulator with a real redis-server as the
 * budget store: two connected profiles (demo and demo-acme, vendor acme) each get their own vendor's
 * counts from one Redis connection; a profile that is not connected is NOT_FOUND; without a store
 * the answer is 'none'.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallResponse } from '../../shared/bridge/contract';
import { createAppServices, memoryVault } from '../../electron/app';
import type { AppServices } from '../../electron/app';
import { hasRedisServer, startRedisServer, type RedisServer } from '../helpers/redis-server';
import { callApp } from '../helpers/app-calls';

const hasRedis = hasRedisServer();
const dirs: string[] = [];
const apps: AppServices[] = [];

async function openApp(budgetStore?: string): Promise<AppServices> {
  const dir = mkdtempSync(join(tmpdir(), 'app-fleet-'));
  dirs.push(dir);
  const app = await createAppServices({
    shell: 'desktop',
    dataDir: dir,
    vault: memoryVault(),
    version: '0.0.0',
    openExternal: async () => undefined,
    log: () => undefined,
    ...(budgetStore ? { budgetStore } : {}),
  });
  apps.push(app);
  return app;
}

const call = callApp;

const sum = (use: CallResponse<'fleetUse'>, endpoint: string) => use.endpoints.find((e) => e.endpoint === endpoint)!.granted.reduce((a, b) => a + b, 0);

afterAll(async () => {
  for (const app of apps) await app.dispose();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('fleetUse without a store', () => {
  it("answers kind 'none', state 'off', empty counts for the active profile", async () => {
    const app = await openApp();
    const use = await call(app, 'fleetUse', { seconds: 5 });
    expect(use.store).toEqual({ kind: 'none', url: null, state: 'off', message: null });
    expect(use.vendor).toBe('demo');
    expect(use.endpoints.every((e) => e.granted.length === 0)).toBe(true);
  });
});

describe.skipIf(!hasRedis)('fleetUse with a Redis store (real redis-server)', () => {
  let redis: RedisServer;
  let app: AppServices;
  beforeAll(async () => {
    redis = await startRedisServer();
    app = await openApp(redis.url(6));
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it("each connected profile gets its own vendor's counts; one Redis connection serves both", async () => {
    await call(app, 'connectProfile', { id: 'demo-acme' });
    await call(app, 'simSetDemoTraffic', { share: 0.25, endpoints: ['purchaseInfo'] });
    // acme's own light background load runs on listAssets; the demo's traffic on purchaseInfo.
    let demo = await call(app, 'fleetUse', { seconds: 5 });
    let acme = await call(app, 'fleetUse', { profileId: 'demo-acme', seconds: 5 });
    for (const end = Date.now() + 20_000; Date.now() < end && (sum(demo, 'purchaseInfo') === 0 || sum(acme, 'listAssets') === 0);) {
      await new Promise((r) => setTimeout(r, 500));
      demo = await call(app, 'fleetUse', { seconds: 5 });
      acme = await call(app, 'fleetUse', { profileId: 'demo-acme', seconds: 5 });
    }
    await call(app, 'simSetDemoTraffic', { share: 0, endpoints: [] });

    expect(demo).toMatchObject({
      profileId: expect.any(String),
      vendor: 'demo',
      store: { kind: 'redis', state: 'connected', url: `redis://127.0.0.1:${redis.port}/6` },
    });
    expect(acme).toMatchObject({ profileId: 'demo-acme', vendor: 'acme', store: { kind: 'redis', state: 'connected' } });
    expect(sum(demo, 'purchaseInfo')).toBeGreaterThan(0);
    expect(sum(acme, 'purchaseInfo')).toBe(0);
    expect(sum(acme, 'listAssets')).toBeGreaterThan(0);

    const inspector = new Redis(redis.url(6));
    const clients = ((await inspector.client('LIST')) as string).trim().split('\n').length - 1;
    inspector.disconnect();
    expect(clients).toBe(1);
  });

  it("a profile opened without a store leaves another connected profile's store in place", async () => {
    const plain = await openApp(); // no store from the command line
    const sim = await call(plain, 'connection', {});
    const saved = await call(plain, 'saveProfile', {
      name: 'acme with a fleet',
      vendor: 'acme',
      baseUrl: sim.baseUrl!,
      addTokens: ['acme-token-1'],
      budgetStore: redis.url(7),
    });
    await call(plain, 'connectProfile', { id: saved.id });
    // The demo profile (no store) opened after it.
    await call(plain, 'disconnectProfile', { id: 'demo' });
    await call(plain, 'connectProfile', { id: 'demo' });
    expect((await call(plain, 'fleetUse', { profileId: saved.id })).store).toMatchObject({ kind: 'redis', url: `redis://127.0.0.1:${redis.port}/7` });
    expect((await call(plain, 'fleetUse', { profileId: 'demo' })).store.kind).toBe('none');
  });

  it('a second profile of the scope without a store keeps the fleet on its store while connected, and after', async () => {
    const plain = await openApp();
    const sim = await call(plain, 'connection', {});
    const fleet = await call(plain, 'saveProfile', {
      name: 'acme fleet',
      vendor: 'acme',
      baseUrl: sim.baseUrl!,
      addTokens: ['acme-token-1'],
      budgetStore: redis.url(8),
    });
    const alone = await call(plain, 'saveProfile', { name: 'acme alone', vendor: 'acme', baseUrl: sim.baseUrl!, addTokens: ['acme-token-2'] });
    await call(plain, 'connectProfile', { id: fleet.id });
    await call(plain, 'connectProfile', { id: alone.id });
    // While both are connected the scope stays on the fleet's store: headers only would take this
    // process's traffic off the fleet's count, and the other workers would overspend the budget.
    expect((await call(plain, 'fleetUse', { profileId: fleet.id })).store).toMatchObject({ kind: 'redis', url: `redis://127.0.0.1:${redis.port}/8` });
    await call(plain, 'disconnectProfile', { id: alone.id });
    expect((await call(plain, 'fleetUse', { profileId: fleet.id })).store).toMatchObject({ kind: 'redis', url: `redis://127.0.0.1:${redis.port}/8` });
  });

  it('a profile that is not connected is NOT_FOUND', async () => {
    await expect(call(app, 'fleetUse', { profileId: 'p_nobody' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
