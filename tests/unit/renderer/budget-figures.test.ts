/** The Budget view's figures: complete seconds only, never more than the server can have allowed, readable waits, honest states. */
import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../../shared/endpoints';
import { emptyWaitBins, waitBinOf } from '../../../shared/wait-bins';
import { BudgetSeconds } from '../../../renderer/src/live/budget-seconds';
import type { BudgetAggregate } from '../../../renderer/src/live/budget-seconds';
import { chartSeries, CSV_HEADER, csvRows, endpointRow } from '../../../renderer/src/views/budget/budget-model';
import type { Reach } from '../../../renderer/src/views/budget/budget-model';
import type { BucketView } from '../../../renderer/src/api/queries';

const S = 1_700_000_000_000;
const spec = ENDPOINTS.listAssets; // limit 20

function second(t: number, over: Partial<BudgetAggregate> = {}): BudgetAggregate {
  return {
    vendor: 'demo',
    endpoint: 'listAssets',
    from: t,
    to: t + 1000,
    requests: 20,
    rateLimited: 0,
    errors: 0,
    limit: 20,
    remaining: 0,
    minRemaining: 0,
    reset: 1,
    waitedMs: 0,
    latencyMsSum: 100,
    latencyMsMax: 10,
    foreignUse: 0,
    waitBins: [20],
    heldMs: 0,
    unanswered: 0,
    ...over,
  };
}

function row(store: BudgetSeconds, now: number, reach: Reach = 'answering', bucket?: BucketView) {
  return endpointRow({ store, vendor: 'demo', spec, bucket, now, rangeMs: 5 * 60_000, reach });
}

describe('Budget figures agree with the server', () => {
  it('never shows more than the limit per second without a 429, in the table or the chart', () => {
    const store = new BudgetSeconds();
    // A second that holds 24 answers and no 429 (binned wrongly by a stalled loop) among full ones.
    store.ingest(
      [0, 1, 2, 3, 4].map((i) => second(S + i * 1000, { requests: i === 4 ? 24 : 20 })),
      1,
    );
    const r = row(store, S + 5000 + 700);
    expect(r.utilisation).toBeLessThanOrEqual(1);
    expect(r.rps).toBeLessThanOrEqual(20);
    const chart = chartSeries(store, 'demo', spec, S + 5000 + 700, 60_000);
    expect(chart.maxRps).toBeLessThanOrEqual(20);
    // With 429s, the refused are on top of a full second: that is what the service answered.
    store.ingest([second(S + 5000, { requests: 26, rateLimited: 6 })], 2);
    expect(row(store, S + 6000 + 700).rps).toBeCloseTo((20 * 4 + 26) / 5);
    expect(row(store, S + 6000 + 700).utilisation).toBe(1);
  });

  it('counts errors over the range (answered 4xx other than 429, 5xx, no answer) beside the 429s, with their share', () => {
    const store = new BudgetSeconds();
    // 5 seconds of 20 requests: 2 refused (429), 3 answered errors + 1 unanswered (errors counts both).
    store.ingest(
      [0, 1, 2, 3, 4].map((i) => second(S + i * 1000, { requests: 20, rateLimited: i === 0 ? 2 : 0, errors: i === 1 ? 4 : 0, unanswered: i === 1 ? 1 : 0 })),
      1,
    );
    const r = row(store, S + 5000 + 700);
    expect(r.rateLimited).toBe(2);
    expect(r.errors).toBe(4);
    expect(r.errorShare).toBeCloseTo(4 / 100);
  });

  it('reads rates from complete seconds only: the second under way does not count', () => {
    const store = new BudgetSeconds();
    store.ingest(
      [0, 1, 2, 3, 4].map((i) => second(S + i * 1000, { requests: 10 })),
      1,
    );
    // 10 ms into second S+5 its first answers are here; 100 ms after S+4 ended, S+4 is not complete yet.
    store.ingest([second(S + 5000, { requests: 3 })], 2);
    expect(row(store, S + 5100).rps).toBeCloseTo((10 * 4) / 5);
    expect(row(store, S + 5700).rps).toBe(10);
    const chart = chartSeries(store, 'demo', spec, S + 5700, 60_000);
    expect(chart.end).toBe(S + 5000);
    expect(chart.points.at(-1)).toMatchObject({ t: S + 4000, rps: 10 });
  });

  it('shows waits as mean and p95 per request and the share of time held back, never as a sum', () => {
    const store = new BudgetSeconds();
    // 60 requests over 3 seconds, each waited 400 ms; the bucket was held back 600 ms of each second.
    const bins = emptyWaitBins();
    bins[waitBinOf(400)] = 20;
    store.ingest(
      [0, 1, 2].map((i) => second(S + i * 1000, { waitedMs: 20 * 400, waitBins: bins, heldMs: 600 })),
      1,
    );
    const r = row(store, S + 3700);
    expect(r.wait.meanMs).toBe(400);
    expect(r.wait.p95Ms).toBe(500);
    expect(r.wait.heldShare).toBeCloseTo(0.6);
  });
});

describe('Attempts that got no answer', () => {
  it('are not requests the server counted: kept apart in the rates and the CSV', () => {
    const store = new BudgetSeconds();
    store.ingest(
      [0, 1, 2, 3, 4].map((i) => second(S + i * 1000, { requests: 12, errors: 2, unanswered: 2 })),
      1,
    );
    expect(row(store, S + 5700).utilisation).toBeCloseTo(10 / 20);
    const [first] = csvRows(store, 'demo', ['listAssets'], S, S + 1000);
    const col = (name: string) => first![CSV_HEADER.indexOf(name as (typeof CSV_HEADER)[number])];
    expect([col('requests'), col('errors'), col('no_answer')]).toEqual([10, 0, 2]);
  });
});

describe('Budget states', () => {
  const bucket: BucketView = { endpoint: 'listAssets', limit: 20, remaining: 20, pausedUntil: null, resetAt: null, queued: 15, inFlight: 0 };

  it('an address that cannot be reached shows no budget, not "≈ 20" and Idle', () => {
    const store = new BudgetSeconds();
    store.ingest([second(S, { requests: 2, errors: 2, limit: null, remaining: null, minRemaining: null })], 1);
    for (const reach of ['no-answer', 'offline'] as const) {
      const r = row(store, S + 10_000, reach, bucket);
      expect(r.reach).toBe(reach);
      expect(r.remaining).toBeNull();
      expect(r.remainingEstimated).toBe(false);
      expect(r.queued).toBe(0);
    }
  });

  it('answering and idle, Remaining refills to the limit (an estimate), queued as the client says', () => {
    const store = new BudgetSeconds();
    store.ingest([second(S, { remaining: 3 })], 1);
    const r = row(store, S + 10_000, 'answering', { ...bucket, remaining: 3, queued: 2 });
    expect(r).toMatchObject({ remaining: 20, remainingEstimated: true, queued: 2 });
  });
});
