/**
 * The other-consumer finding, end to end on the embedded simulator: the app's own demo traffic at
 * 100% of an endpoint's limit, and the simulator's competing consumer on the same vendor and
 * endpoint, in both refill models. Our traffic alone must never be taken for another consumer.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallName, CallResponse } from '../../shared/bridge/contract';
import { createAppServices, memoryVault } from '../../electron/app';
import type { AppServices } from '../../electron/app';

let dir: string;
let app: AppServices;

async function call<N extends CallName>(name: N, request: unknown): Promise<CallResponse<N>> {
  const result = await app.dispatch(name, request);
  if (!result.ok) throw new Error(`${name} failed: ${JSON.stringify(result.error)}`);
  return result.value as CallResponse<N>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Foreign use and requests the telemetry counted on `categories` since `sinceMs`. */
async function figures(sinceMs: number): Promise<{ foreign: number; requests: number; rateLimited: number }> {
  const aggs = (await call('budgetHistory', { sinceMs })).aggregates.filter((a) => a.endpoint === 'categories' && a.from >= sinceMs);
  return {
    foreign: aggs.reduce((n, a) => n + a.foreignUse, 0),
    requests: aggs.reduce((n, a) => n + a.requests, 0),
    rateLimited: aggs.reduce((n, a) => n + a.rateLimited, 0),
  };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'foreign-it-'));
  app = await createAppServices({ shell: 'desktop', dataDir: dir, vault: memoryVault(), version: '0.0.0', openExternal: async () => undefined, log: () => undefined });
  const end = Date.now() + 10_000;
  while ((await call('connection', {})).state !== 'connected' && Date.now() < end) await sleep(50);
});

afterAll(async () => {
  await app?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('another consumer while the app runs at the limit (embedded simulator)', () => {
  for (const model of ['whole-second', 'continuous'] as const) {
    it(`${model}: nothing claimed of our own traffic at 100%, then the competitor is found`, async () => {
      await call('simSetRefill', { model });
      await call('simSetDemoTraffic', { share: 1, endpoints: ['categories'] });
      await sleep(1200); // settle into the pace
      const alone = Date.now();
      await sleep(3000);
      const own = await figures(Math.ceil(alone / 1000) * 1000);
      expect(own.requests).toBeGreaterThan(30);
      expect(own.foreign).toBe(0);

      await call('simSetCompetitors', { competitors: [{ vendor: 'demo', endpoint: 'categories', rps: 5 }] });
      const shared = Math.ceil(Date.now() / 1000) * 1000;
      await sleep(5000);
      const found = await figures(shared);
      await call('simSetCompetitors', { competitors: [] });
      await call('simSetDemoTraffic', { share: 0, endpoints: [] });
      // The competitor took about 5 slots per second for 5 seconds: a good part of them is found, never more.
      expect(found.foreign).toBeGreaterThan(5);
      expect(found.foreign).toBeLessThanOrEqual(5 * 6);
      await sleep(1500);
    }, 20_000);
  }
});
