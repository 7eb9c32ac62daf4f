/**
 * Demo traffic looks like a healthy vendor with a few conflicts, not a failing one: on the embedded simulator,
 * with every endpoint in the plan, its purchase actions go to purchases in a state that allows them, so that
 * fewer than 10% of the answers the telemetry counted are errors (answered 4xx other than 429, 5xx).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallName, CallResponse } from '../../shared/bridge/contract';
import { ENDPOINT_IDS, ENDPOINTS } from '../../shared/endpoints';
import type { EndpointId } from '../../shared/endpoints';
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

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'demo-health-it-'));
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

/** Runs demo traffic for about `seconds` (5 by default) and tallies the answers of the complete seconds, per endpoint. */
async function tallyRun(plan: { share: number; endpoints: EndpointId[] }, seconds = 5) {
  await call('simSetDemoTraffic', plan);
  await sleep(2000); // it has read a page of assets and registered its first purchases
  const start = Math.ceil(Date.now() / 1000) * 1000;
  await sleep(seconds * 1000);
  const end = Math.floor(Date.now() / 1000) * 1000; // seconds before stopping (whose requests are not cut short)
  await call('simSetDemoTraffic', { share: 0, endpoints: [] });
  await sleep(1500); // the last seconds' answers reach the telemetry
  const aggs = (await call('budgetHistory', { sinceMs: start })).aggregates.filter((a) => a.from >= start && a.to <= end);
  return (endpoint?: string) => {
    const mine = aggs.filter((a) => endpoint === undefined || a.endpoint === endpoint);
    const answers = mine.reduce((n, a) => n + a.requests - a.unanswered, 0);
    const errors = mine.reduce((n, a) => n + a.errors - a.unanswered, 0);
    return { answers, errors, share: answers > 0 ? errors / answers : 1 };
  };
}

describe('demo traffic on the embedded simulator', () => {
  it('mostly makes calls that succeed: under 10% of its answers are errors (download-url: 80-90% before)', async () => {
    // Every purchase action at a fifth of its limit (10/s each): what made download-url fail 80% of the time.
    const tally = await tallyRun({ share: 0.2, endpoints: ENDPOINT_IDS.filter((e) => ENDPOINTS[e].group === 'purchase') });
    const all = tally();
    const download = tally('downloadUrl');
    expect(all.answers, 'answers counted').toBeGreaterThan(100);
    expect(download.answers, 'download-url answers counted').toBeGreaterThan(10);
    expect(all.share, `errors ${all.errors} of ${all.answers} answers`).toBeLessThan(0.1);
    // A few conflicts on purpose (3% of purchase actions): on 40-odd answers, a quarter leaves room for chance.
    expect(download.share, `download-url errors ${download.errors} of ${download.answers} answers`).toBeLessThan(0.25);
  }, 20_000);

  it('at full traffic, no cancel overtakes a paced URL request: download-url and view-url errors stay near the 3% on purpose', async () => {
    // Before: 12-15% of their answers were 409s (a purchase cancelled while its URL request waited for budget).
    // 8 s: on a busy machine the embedded service answers fewer than half of its limit.
    const tally = await tallyRun({ share: 1, endpoints: [...ENDPOINT_IDS] }, 8);
    for (const endpoint of ['downloadUrl', 'viewUrl']) {
      const t = tally(endpoint);
      expect(t.answers, `${endpoint} answers counted`).toBeGreaterThan(60);
      // 3% expected: 10% or more of 60 answers happens by chance about once in 400 runs.
      expect(t.share, `${endpoint} errors ${t.errors} of ${t.answers} answers`).toBeLessThan(0.1);
    }
  }, 25_000);
});
