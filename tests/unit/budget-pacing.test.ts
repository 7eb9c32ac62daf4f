/**
 * Pacing against a fake service that runs the limiter's arithmetic, on a fake clock, in both refill
 * models: zero 429s (the limiter refuses anything over the limit, so none means never over it), at
 * or near the limit in steady state (measured on the fake clock, so deterministic).
 */
import { describe, expect, it } from 'vitest';
import { BudgetRegistry } from '../../electron/client/budget-registry';
import type { FakeRefill } from '../../electron/client/testing/fake-partner';
import { harness, runFor, seededRandom } from '../../electron/client/testing/harness';
import { ManualClock } from '../../electron/client/testing/manual-clock';

const MODELS: FakeRefill[] = ['whole-second', 'continuous'];

describe.each(MODELS)('pacing, %s refill', (refill) => {
  it('a sequential download runs at the limit with zero 429s', async () => {
    const h = harness({ refill, latencyMs: 2, serverOffsetMs: 437 });
    const client = h.client();
    const start = h.clock.now();
    let pages = 0;
    const run = (async () => {
      for (; pages < 300; pages++) await client.request('listAssets', { query: { 'per-page': 100, last_id: pages || undefined }, priority: 'background' });
    })();
    await h.clock.runUntil(() => pages === 300);
    await run;
    const seconds = (h.clock.now() - start) / 1000;
    expect(h.fake.count(429)).toBe(0);
    expect(h.fake.maxPerServerSecond('listAssets')).toBeLessThanOrEqual(20);
    // 300 pages at 20/s: the first 20 go at once, the other 280 need 14 s at the limit.
    expect(280 / seconds).toBeGreaterThan(20 * 0.98);
  });

  it('eight concurrent callers with jittery latency stay under the limit and near it', async () => {
    const random = seededRandom(3);
    const h = harness({ refill, latencyMs: () => 1 + random() * 12, serverOffsetMs: -611 });
    const client = h.client();
    const end = h.clock.now() + 10_000;
    const { ok, failed } = await runFor(h.clock, end, 8, () => client.request('purchaseInfo', { query: { purchase_id: 'p_1' } }));
    expect(failed).toEqual([]);
    expect(h.fake.count(429)).toBe(0);
    expect(h.fake.maxPerServerSecond('purchaseInfo')).toBeLessThanOrEqual(refill === 'whole-second' ? 50 : 100);
    expect(ok / 10).toBeGreaterThan(50 * 0.95);
  });

  it('without a Date header it stays under the limit', async () => {
    const h = harness({ refill, latencyMs: 3, noDate: true, serverOffsetMs: 250 });
    const client = h.client();
    const { ok } = await runFor(h.clock, h.clock.now() + 8_000, 4, () => client.request('searchAssets', { body: { query: 'x' } }));
    expect(h.fake.count(429)).toBe(0);
    expect(ok / 8).toBeGreaterThan(20 * 0.9);
  });

  it('with no rate-limit headers at all it falls back to the documented limit, under it', async () => {
    const h = harness({ refill, latencyMs: 3, rewriteHeaders: () => ({}) });
    const client = h.client();
    const { ok } = await runFor(h.clock, h.clock.now() + 8_000, 4, () => client.request('assetHistory', { body: { asset_id: 1 } }));
    expect(h.fake.count(429)).toBe(0);
    expect(h.fake.maxPerServerSecond('assetHistory')).toBeLessThanOrEqual(refill === 'whole-second' ? 10 : 20);
    expect(ok / 8).toBeGreaterThan(10 * 0.9);
  });

  it('two clients of one vendor (different tokens) share one budget: more tokens add no requests', async () => {
    const h = harness({ refill, latencyMs: 2 });
    const a = h.client({ tokens: ['token-a'] });
    const b = h.client({ tokens: ['token-b'] });
    const { ok } = await runFor(h.clock, h.clock.now() + 8_000, 4, (i) => (i % 2 ? a : b).request('listAssets'));
    expect(h.fake.count(429)).toBe(0);
    expect(new Set(h.fake.received.map((r) => r.token))).toEqual(new Set(['token-a', 'token-b']));
    expect(ok / 8).toBeLessThan(20 * 1.15); // one budget (plus the first burst), not two
    expect(ok / 8).toBeGreaterThan(20 * 0.95);
  });

  it('two processes (separate registries) follow each other through the headers', async () => {
    const h = harness({ refill, latencyMs: () => 2 });
    const a = h.client({ budgets: new BudgetRegistry({ clock: h.clock }) });
    const b = h.client({ budgets: new BudgetRegistry({ clock: h.clock }) });
    const { ok } = await runFor(h.clock, h.clock.now() + 10_000, 2, (i) => (i ? a : b).request('listAssets'));
    expect(h.fake.count(429)).toBe(0);
    expect(ok / 10).toBeGreaterThan(20 * 0.9);
  });

  it('endpoints are independent: each runs at its own limit at the same time', async () => {
    const h = harness({ refill, latencyMs: 2 });
    const client = h.client();
    let list = 0;
    let info = 0;
    await runFor(h.clock, h.clock.now() + 6_000, 4, async (i) => {
      if (i < 2) {
        await client.request('listAssets');
        list++;
      } else {
        await client.request('purchaseInfo', { query: { purchase_id: 'p' } });
        info++;
      }
    });
    expect(h.fake.count(429)).toBe(0);
    expect(list / 6).toBeGreaterThan(20 * 0.95);
    expect(info / 6).toBeGreaterThan(50 * 0.95);
  });

  it('follows Remaining when another consumer spends the same budget (8 of 20 per second)', async () => {
    const h = harness({ refill, latencyMs: 2 });
    const client = h.client();
    let stop = false;
    const competitor = (): void => {
      if (stop) return;
      h.fake.foreign('v', 'listAssets');
      h.clock.setTimeout(competitor, 125);
    };
    h.clock.setTimeout(competitor, 40);
    let sawShare = false;
    const { ok, failed } = await runFor(h.clock, h.clock.now() + 10_000, 1, async () => {
      await client.request('listAssets');
      const b = client.budgetSnapshot().find((s) => s.endpoint === 'listAssets')!;
      // The other consumer shows as a margin held back, or (since the fair-share pacing) as a consumer estimate.
      sawShare ||= b.margin > 0 || b.consumers > 1;
    });
    stop = true;
    expect(failed).toEqual([]);
    expect(sawShare).toBe(true);
    expect(h.fake.count(429)).toBe(0);
    const competitorGot = h.fake.records.filter((r) => r.foreign && r.status === 200).length;
    // Was 0.9: the fair-share pacing (issue 10) spaces our requests and leaves a fixed-rate competitor
    // a little more room than before (a known cost, see the client README).
    expect((ok + competitorGot) / 10).toBeGreaterThan(20 * 0.85);
  });

  it('adopts a lower limit the server insists on', async () => {
    const h = harness({ refill, latencyMs: 2, limitOf: () => 10 });
    const client = h.client();
    const { ok } = await runFor(h.clock, h.clock.now() + 5_000, 2, () => client.request('categories'));
    expect(h.fake.count(429)).toBe(0);
    expect(client.budgetSnapshot().find((b) => b.endpoint === 'categories')!.limit).toBe(10);
    expect(ok / 5).toBeGreaterThan(10 * 0.9);
  });
});

describe('BudgetRegistry.inFlight (the estimate of others asks it for every answer)', () => {
  it('counts our requests in flight to one budget, makes no bucket for asking, and answers 0 for a URL the client cannot use', async () => {
    const registry = new BudgetRegistry({ clock: new ManualClock() });
    expect(registry.inFlight('not a url', 'v', 'listAssets')).toBe(0);
    expect(registry.inFlight('https://x.example/api', 'v', 'listAssets')).toBe(0);
    expect(registry.all()).toHaveLength(0);
    const bucket = registry.bucket('https://X.example/api/', 'v', 'listAssets');
    await bucket.acquire({ priority: 'interactive', owner: {} });
    expect(registry.inFlight('https://x.example/api', 'v', 'listAssets')).toBe(1);
    expect(registry.inFlight('https://x.example/api', 'v', 'searchAssets')).toBe(0);
  });
});
