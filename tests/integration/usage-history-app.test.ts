/**
 * Usage history in the app (issue 12 §1): the samples of a real client against the embedded simulator
 * go into the store on the data folder's SQLite file, survive the app's shutdown and start, and come
 * back through the `usageHistory` call.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallName, CallResponse } from '../../shared/bridge/contract';
import { createAppServices, memoryVault } from '../../electron/app';
import type { AppServices } from '../../electron/app';

let dir: string;
let app: AppServices | null = null;

async function start(): Promise<AppServices> {
  return createAppServices({
    shell: 'desktop',
    dataDir: dir,
    vault: memoryVault(),
    version: '9.9.9',
    openExternal: async () => undefined,
    log: () => undefined,
  });
}

async function call<N extends CallName>(name: N, request: unknown): Promise<CallResponse<N>> {
  const result = await app!.dispatch(name, request);
  if (!result.ok) throw new Error(`${name} failed: ${JSON.stringify(result.error)}`);
  return result.value as CallResponse<N>;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'usage-app-'));
});
afterAll(async () => {
  await app?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('usage history in the app', () => {
  const t0 = Date.now() - 1000;
  let sent = 0;
  let lastSentAt = 0;

  it('stores the samples of the client against the simulator, written on shutdown at the latest', async () => {
    app = await start();
    for (let i = 0; i < 7; i++) {
      await call('listAssets', { profileId: 'demo', lastId: null, pageSize: 5 });
      sent += 1;
    }
    await call('categories', { profileId: 'demo' });
    lastSentAt = Date.now();
    // Shut down before the once-a-second flush could run: closing writes what gathered.
    await app.dispose();
    app = null;
  });

  it('keeps the history across a restart and reads it through usageHistory', async () => {
    app = await start();
    // The history ends at the last complete second: those of the last ~2 s may still be in memory.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, lastSentAt + 3000 - Date.now())));
    const history = await call('usageHistory', { fromMs: t0, toMs: Date.now() + 1000 });
    expect(history).toMatchObject({ profileId: 'demo', vendor: 'demo', level: 'second', bucketMs: 1000, problem: null });
    const list = history.points.filter((p) => p.endpoint === 'listAssets');
    expect(list.reduce((n, p) => n + p.requests, 0)).toBe(sent);
    const limited = list.find((p) => p.peakUse !== null)!;
    expect(limited.lowestRemaining).not.toBeNull();
    expect(limited.peakUse).toBeGreaterThan(0);
    expect(limited.latencyP95).not.toBeNull();
    // The probe at connect and our categories call.
    expect(history.points.filter((p) => p.endpoint === 'categories').reduce((n, p) => n + p.requests, 0)).toBeGreaterThanOrEqual(1);
    // Filtered by endpoint.
    const only = await call('usageHistory', { endpoints: ['categories'], fromMs: t0, toMs: Date.now() + 1000 });
    expect(new Set(only.points.map((p) => p.endpoint))).toEqual(new Set(['categories']));
    // Another profile's history is its own: none here.
    expect((await call('usageHistory', { profileId: 'someone-else', vendor: 'demo', fromMs: t0, toMs: Date.now() + 1000 })).points).toEqual([]);
  });

  it('refuses a range that ends before it starts, with a clear error', async () => {
    const bad = await app!.dispatch('usageHistory', { fromMs: 2000, toMs: 1000 });
    expect(bad).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST', message: expect.stringContaining('toMs') } });
  });
});
