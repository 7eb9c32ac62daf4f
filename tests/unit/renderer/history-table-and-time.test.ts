/** The 6 h (history) table reads waits as the live table does, lists endpoints in one order, and every chart and table tells time on one 24-hour clock. */
import { describe, expect, it } from 'vitest';
import type { UsageHistory, UsagePoint } from '../../../shared/bridge/usage-schemas';
import { ENDPOINT_IDS } from '../../../shared/endpoints';
import { chartSeries, summarize } from '../../../shared/usage-history-model';
import { chartMoment, chartTick } from '../../../renderer/src/lib/chart-time';
import { fmtClock, fmtDateTime } from '../../../renderer/src/lib/format';

const T = Date.UTC(2026, 2, 10, 6, 0, 0);
const MIN = 60_000;

function point(endpoint: string, startMs: number, requests: number, waitedMs: number): UsagePoint {
  return {
    endpoint,
    startMs,
    requests,
    throttled: 0,
    failures: 0,
    lowestRemaining: 5,
    meanUse: 0.5,
    meanUseOlder: false,
    activeSeconds: 60,
    budgetSeconds: 30,
    peakUse: 0.9,
    waitedMs,
    foreignRequests: 0,
    latencyP50: 10,
    latencyP95: 20,
  };
}

function history(points: UsagePoint[]): UsageHistory {
  return { profileId: 'p', vendor: 'demo', level: 'minute', bucketMs: MIN, fromMs: T, toMs: T + 6 * 60 * MIN, points, problem: null };
}

describe('history summary', () => {
  it('shows waits as mean and p95 per request, never their sum', () => {
    // 19 minutes of 100 requests waiting 10 ms each, then one of 200 waiting 2 s each (over 5% of the requests).
    const points = Array.from({ length: 20 }, (_, i) =>
      i === 19 ? point('listAssets', T + i * MIN, 200, 200 * 2000) : point('listAssets', T + i * MIN, 100, 100 * 10),
    );
    const [row] = summarize(history(points));
    expect(row!.waitMeanMs).toBeCloseTo((19 * 1000 + 400_000) / 2100);
    expect(row!.waitP95Ms).toBe(2000);
    const chart = chartSeries(history(points), 'listAssets');
    expect(chart[0]!.waitMeanMs).toBe(10);
    expect(chart.at(-1)!.waitMeanMs).toBeNull(); // no requests in the point: no wait to tell
  });

  it('reads the mean rate over the seconds with requests, as the mean use beside it (not over an idle 6 h range)', () => {
    // 10 minutes at 18 requests a second in a 6 h range.
    const points = Array.from({ length: 10 }, (_, i) => point('listAssets', T + i * MIN, 18 * 60, 0));
    const [row] = summarize(history(points));
    expect(row!.activeSeconds).toBe(600);
    expect(row!.meanRate).toBe(18);
  });

  it('reads the mean rate over the whole range where rows stored before the per-second measure are in it, and marks its mean use', () => {
    const older = { ...point('listAssets', T, 3000, 0), meanUseOlder: true, activeSeconds: 0 };
    const newer = { ...point('listAssets', T + MIN, 10, 0), activeSeconds: 10, meanUse: 0.1, budgetSeconds: 1 };
    const [row] = summarize(history([older, newer]));
    expect(row!.meanRate).toBeCloseTo(3010 / (6 * 60 * 60));
    expect(row!.meanRate).toBeLessThanOrEqual(row!.peakRate);
    expect(row).toMatchObject({ meanUse: 0.1, meanUseOlder: true });
  });

  it("gives each point the other consumers' rate beside ours, for the stacked chart", () => {
    const points = [{ ...point('categories', T, 300, 0), foreignRequests: 480 }, point('categories', T + MIN, 120, 0)];
    const chart = chartSeries(history(points), 'categories');
    expect(chart[0]).toMatchObject({ rate: 5, othersRate: 8 });
    expect(chart[1]).toMatchObject({ rate: 2, othersRate: 0 });
    expect(chart[2]).toMatchObject({ rate: 0, othersRate: 0 }); // a quiet minute reads as quiet
  });

  it("lists endpoints in the endpoint table's order, not in the order traffic first came", () => {
    const points = [
      point('cancelPurchase', T, 1, 0),
      point('purchaseInfo', T, 1, 0),
      point('listAssets', T + MIN, 1, 0),
      point('categories', T + 2 * MIN, 1, 0),
    ];
    const order = summarize(history(points)).map((r) => r.endpoint);
    expect(order).toEqual([...order].sort((a, b) => ENDPOINT_IDS.indexOf(a as never) - ENDPOINT_IDS.indexOf(b as never)));
    expect(order).toEqual(['listAssets', 'categories', 'purchaseInfo', 'cancelPurchase']);
  });
});

describe('time format', () => {
  it('is one 24-hour clock on live and history charts, tooltips and tables, whatever the locale says', () => {
    const t = new Date(2026, 2, 10, 15, 3, 4).getTime(); // 3 pm local
    expect(chartTick(t, 5 * MIN)).toBe('15:03:04');
    expect(chartTick(t, 6 * 60 * MIN)).toBe('15:03');
    expect(chartMoment(t, 5 * MIN)).toBe(chartTick(t, 5 * MIN));
    expect(chartMoment(t, 6 * 60 * MIN)).toMatch(/, 15:03:04$/);
    expect(chartTick(t, 7 * 24 * 60 * MIN)).toMatch(/ 15:00$/);
    expect(fmtClock(t)).toBe('15:03:04');
    expect(fmtDateTime(t)).toMatch(/, 15:03$/);
    for (const text of [chartTick(t, 6 * 60 * MIN), chartMoment(t, 6 * 60 * MIN), fmtDateTime(t)]) expect(text).not.toMatch(/AM|PM/i);
  });
});
