/**
 * Others' use is a drawn series: each panel's points carry other consumers' slots per second (the
 * headers' estimate) over the same averaging window as our own rate, stacked on it under the limit;
 * where a budget store counts the fleet, its other workers are drawn from its exact counts and only
 * the rest stays an estimate.
 */
import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../../shared/endpoints';
import { BudgetSeconds } from '../../../renderer/src/live/budget-seconds';
import type { BudgetAggregate } from '../../../renderer/src/live/budget-seconds';
import { chartSeries, endpointRow } from '../../../renderer/src/views/budget/budget-model';

const S = 1_700_000_000_000;
const spec = ENDPOINTS.listAssets; // limit 20

function second(t: number, over: Partial<BudgetAggregate> = {}): BudgetAggregate {
  return {
    vendor: 'demo',
    endpoint: 'listAssets',
    from: t,
    to: t + 1000,
    requests: 10,
    rateLimited: 0,
    errors: 0,
    limit: 20,
    remaining: 2,
    minRemaining: 2,
    reset: 0,
    waitedMs: 0,
    latencyMsSum: 50,
    latencyMsMax: 5,
    foreignUse: 0,
    waitBins: [10],
    heldMs: 0,
    unanswered: 0,
    ...over,
  };
}

describe('others stacked on our own use', () => {
  it('draws 10 of ours and about 8 of others per second, averaged like our rate, and says so in the table row', () => {
    const store = new BudgetSeconds();
    // Others' estimate lands unevenly per second (a whole second's unseen end is estimated in the next one): 7, 9, 7, 9, ...
    store.ingest(
      Array.from({ length: 20 }, (_, i) => second(S + i * 1000, { foreignUse: i % 2 === 0 ? 7 : 9 })),
      1,
    );
    const now = S + 20_000 + 700;
    const chart = chartSeries(store, 'demo', spec, now, 60_000);
    const last = chart.points[chart.points.length - 1]!;
    expect(last.rps).toBeCloseTo(10);
    expect(last.t).toBe(S + 19_000);
    expect(last.others).toBeCloseTo((9 + 7 + 9 + 7 + 9) / 5); // seconds 15..19
    expect(last.fleet).toBeNull();
    // Stable from second to second: the window smooths the estimate's per-second unevenness.
    const drawn = chart.points.filter((p) => p.others !== null && p.t >= S + 5000).map((p) => p.others!);
    expect(Math.max(...drawn) - Math.min(...drawn)).toBeLessThanOrEqual(0.5);
    // The stack (18 of 20) is what the axis must hold.
    expect(chart.maxRps).toBeGreaterThanOrEqual(17.5);
    const row = endpointRow({ store, vendor: 'demo', spec, bucket: undefined, now, rangeMs: 5 * 60_000, reach: 'answering' });
    expect(row.othersRps).toBeCloseTo(8, 0);
  });

  it("draws the fleet's other workers from the store's counts, and only the rest as an estimate", () => {
    const store = new BudgetSeconds();
    // We are served 10 per second; the store granted 16 (6 to other workers); the headers saw 8 others (6 workers + 2 outside).
    store.ingest(
      Array.from({ length: 10 }, (_, i) => second(S + i * 1000, { foreignUse: 8 })),
      1,
    );
    const fleet = { fromMs: S, granted: Array.from({ length: 10 }, () => 16) };
    const chart = chartSeries(store, 'demo', spec, S + 10_000 + 700, 60_000, undefined, fleet);
    const last = chart.points[chart.points.length - 1]!;
    expect(last.fleet).toBeCloseTo(6);
    expect(last.others).toBeCloseTo(2);
  });

  it('draws nothing of others when the app is alone', () => {
    const store = new BudgetSeconds();
    store.ingest(
      Array.from({ length: 10 }, (_, i) => second(S + i * 1000, { requests: 20 })),
      1,
    );
    const chart = chartSeries(store, 'demo', spec, S + 10_000 + 700, 60_000);
    expect(chart.points.every((p) => p.others === null || p.others === 0)).toBe(true);
  });
});
