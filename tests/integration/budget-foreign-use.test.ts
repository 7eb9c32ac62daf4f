/**
 * Others' use, end to end on the embedded simulator: the app's own demo traffic at 100% of an
 * endpoint's limit, and the simulator's competing consumer on the same vendor and endpoint at 8/s,
 * in both refill models. Our traffic alone must never be taken for another consumer, and the
 * estimate is compared with the slots the simulator's own counters gave the competitor.
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
  app = await createAppServices({
    shell: 'desktop',
    dataDir: dir,
    vault: memoryVault(),
    version: '0.0.0',
    openExternal: async () => undefined,
    log: () => undefined,
  });
  const end = Date.now() + 10_000;
  while ((await call('connection', {})).state !== 'connected' && Date.now() < end) await sleep(50);
});

afterAll(async () => {
  await app?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

/** Slots the simulator's competitor was granted (answered 200) on categories so far: what the server counted. */
async function competitorCounted(): Promise<number> {
  const { url } = (await call('simState', {}))!;
  const res = await fetch(`${url}/_sim/counters`);
  const { counters } = (await res.json()) as { counters: { endpoint: string | null; status: number; count: number; competitor?: true }[] };
  return counters.filter((c) => c.competitor && c.endpoint === 'categories' && c.status === 200).reduce((n, c) => n + c.count, 0);
}

const untilSecond = async () => sleep(Math.ceil(Date.now() / 1000) * 1000 + 5 - Date.now());

describe('another consumer while the app runs at the limit (embedded simulator)', () => {
  const models = ['whole-second', 'continuous'] as const;
  for (const model of models) {
    it(`${model}: nothing claimed of our own traffic at 100%, then a competitor at 8/s is read within 10% of the server's count`, async () => {
      if (model !== models[0]) await sleep(1500); // the model before's last answers are in
      await call('simSetRefill', { model });
      await call('simSetDemoTraffic', { share: 1, endpoints: ['categories'] });
      await sleep(1200); // settle into the pace
      const alone = Date.now();
      await sleep(3000);
      const own = await figures(Math.ceil(alone / 1000) * 1000);
      expect(own.requests).toBeGreaterThan(30);
      expect(own.foreign).toBe(0);

      await call('simSetCompetitors', { competitors: [{ vendor: 'demo', endpoint: 'categories', rps: 8 }] });
      await sleep(3000); // the client makes room for it
      await untilSecond();
      const from = Math.floor(Date.now() / 1000) * 1000;
      const before = await competitorCounted();
      await sleep(from + 8000 - Date.now());
      const counted = (await competitorCounted()) - before;
      await sleep(1200); // the last second's answers and its estimate are in
      const found = (await figures(from)).foreign - (await figures(from + 8000)).foreign;
      await call('simSetCompetitors', { competitors: [] });
      await call('simSetDemoTraffic', { share: 0, endpoints: [] });
      expect(counted).toBeGreaterThan(50);
      expect(Math.abs(found - counted), `estimated ${found.toFixed(1)} of ${counted} counted`).toBeLessThanOrEqual(0.1 * counted);
    }, 30_000);
  }
});
