/**
 * The client against the real simulator over loopback HTTP (port 0), in both refill models. Counts
 * of 429s come from the simulator's own counters, never from timing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { isPartnerError } from '../../shared/errors';
import type { BudgetSample } from '../../shared/rate-limit';
import { BudgetRegistry, PartnerClient } from '../../electron/client';
import type { ClientOptions } from '../../electron/client';
import { startSimulator } from '../../electron/simulator';
import type { RunningSimulator, SimulatorOptions } from '../../electron/simulator';
import { seededRandom } from '../../electron/client/testing';

const running: RunningSimulator[] = [];
const clients: PartnerClient[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await Promise.all(running.splice(0).map((s) => s.stop()));
});

async function setup(options: SimulatorOptions, client: Partial<ClientOptions> = {}): Promise<{ sim: RunningSimulator; client: PartnerClient }> {
  const sim = await startSimulator({ port: 0, catalogSize: 500, random: seededRandom(3), ...options });
  running.push(sim);
  const c = new PartnerClient({ baseUrl: sim.url, vendor: 'demo', tokens: ['demo-token-1', 'demo-token-2'], budgets: new BudgetRegistry(), ...client });
  clients.push(c);
  return { sim, client: c };
}

function count(sim: RunningSimulator, filter: { status?: number; competitor?: boolean; endpoint?: string } = {}): number {
  return sim.control
    .counters()
    .filter((c) => c.vendor === 'demo')
    .filter((c) => filter.status === undefined || c.status === filter.status)
    .filter((c) => filter.endpoint === undefined || c.endpoint === filter.endpoint)
    .filter((c) => filter.competitor === undefined || Boolean(c.competitor) === filter.competitor)
    .reduce((n, c) => n + c.count, 0);
}

describe.each(['whole-second', 'continuous'] as const)('alone, %s refill', (refill) => {
  it('a download and concurrent calls on other endpoints: zero 429s', async () => {
    const { sim, client } = await setup({ refill });
    let lastId: number | undefined;
    const download = (async () => {
      for (let page = 0; page < 25; page++) {
        const res = await client.request<{ items: { id: number }[] }>('listAssets', { query: { 'per-page': 10, last_id: lastId }, priority: 'background' });
        lastId = res.body.items.at(-1)!.id;
      }
    })();
    const end = Date.now() + 1_100;
    const callers = Array.from({ length: 6 }, async (_, i) => {
      while (Date.now() < end) {
        if (i % 2) await client.request('categories');
        else await client.request('searchAssets', { body: { query: 'a' } });
      }
    });
    await Promise.all([download, ...callers]);
    expect(sim.control.counters().filter((c) => c.status === 429)).toEqual([]);
    expect(count(sim, { endpoint: 'listAssets', status: 200 })).toBe(25);
    expect(count(sim, { endpoint: 'categories', status: 200 })).toBeGreaterThan(0);
  });
});

describe('competing load', () => {
  it('a greedy competitor causes 429s; each pauses the bucket for at least Reset (1 s) before it sends again', async () => {
    const { sim, client } = await setup(
      { refill: 'whole-second', competitors: [{ vendor: 'demo', endpoint: 'assetHistory', rps: 40 }] },
      { retry: { maxAttempts: 2, maxElapsedMs: 3_000 } },
    );
    // An asset that exists, so a request that gets through is a 200 (the pacing may now wait its turn).
    const assetId = (await client.request<{ items: { id: number }[] }>('listAssets', { query: { 'per-page': 1 } })).body.items[0]!.id;
    const samples: BudgetSample[] = [];
    client.onSample((s) => samples.push(s));
    // 40/s drains the 10 of a second within 250 ms: start late in a second.
    await new Promise((r) => setTimeout(r, 1_000 - (Date.now() % 1_000) + 400));
    const outcomes = await Promise.allSettled(Array.from({ length: 2 }, () => client.request('assetHistory', { body: { asset_id: assetId } })));
    const limited = samples.filter((s) => s.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    // After a 429 arrives, nothing of ours reaches that bucket for a second: later samples of
    // requests sent after it (at - latency) are at least 1 s later.
    for (const l of limited) {
      const sentSoonAfter = samples.filter((s) => s.at - s.latencyMs > l.at + 5 && s.at - s.latencyMs < l.at + 1_000);
      expect(sentSoonAfter).toEqual([]);
    }
    for (const o of outcomes) {
      if (o.status === 'rejected') {
        expect(isPartnerError(o.reason) && o.reason.code).toBe('RATE_LIMITED');
        expect(isPartnerError(o.reason) && o.reason.data.body).toEqual({ name: 'Too Many Requests', message: 'Rate limit exceeded.', code: 0, status: 429 });
      }
    }
    expect(count(sim, { competitor: true })).toBeGreaterThan(0);
  });

  it('a moderate competitor (8 of 20 per second): the client follows Remaining and still gets its share', async () => {
    const { sim, client } = await setup({ refill: 'continuous', competitors: [{ vendor: 'demo', endpoint: 'listAssets', rps: 8 }] });
    const end = Date.now() + 1_200;
    let ok = 0;
    while (Date.now() < end) {
      await client.request('listAssets', { query: { 'per-page': 5 } });
      ok++;
    }
    expect(ok).toBeGreaterThan(8);
    expect(count(sim, { status: 429, competitor: false })).toBeLessThanOrEqual(1);
  });
});

describe('faults', () => {
  it('latency, 5xx, dropped connections and garbled headers: every safe call completes, nothing over the limit', async () => {
    const { sim, client } = await setup(
      { refill: 'whole-second', seed: 5, faults: { latencyMs: 5, jitterMs: 10, errorRate: 0.15, dropRate: 0.1, garbleRate: 0.3 } },
      { timeoutMs: 2_000, retry: { maxAttempts: 8, baseMs: 20, capMs: 200 } },
    );
    const samples: BudgetSample[] = [];
    client.onSample((s) => samples.push(s));
    const calls = Array.from({ length: 60 }, (_, i) =>
      i % 3 === 0
        ? client.request('purchaseInfo', { query: { purchase_id: 'p_none' } }).catch((e: unknown) => e)
        : client.request(i % 3 === 1 ? 'categories' : 'listAssets'),
    );
    const results = await Promise.all(calls);
    // Unknown purchase ids answer 404: delivered as NOT_FOUND, not lost.
    for (const [i, r] of results.entries()) {
      if (i % 3 === 0) expect(isPartnerError(r) && r.code).toBe('NOT_FOUND');
      else expect((r as { status: number }).status).toBe(200);
    }
    expect(samples.some((s) => s.status === 0)).toBe(true);
    expect(samples.some((s) => s.status >= 500)).toBe(true);
    expect(samples.some((s) => s.headerProblems.length > 0)).toBe(true);
    expect(count(sim, { status: 429 })).toBe(0);
  });
});
