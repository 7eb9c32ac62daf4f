/**
 * One endpoint reads one use of its budget everywhere: the history (Budget 6 h table, Usage report and heat
 * map) counts the other consumers' requests the headers showed, as the live table and the Overview do, with
 * this app's part beside it. Before, history counted only ours: 54% in Usage beside 96% live.
 */
import { describe, expect, it } from 'vitest';
import type { UsageHistory, UsagePoint } from '../../../shared/bridge/usage-schemas';
import { summarize } from '../../../shared/usage-history-model';
import { buildUsageReport, type ReportRow } from '../../../shared/usage-report';

const T = Date.UTC(2026, 10, 27, 18, 0, 0);
const MIN = 60_000;

// GET /assets/categories (limit 20/s): we are served 11/s in each of 60 seconds, others take 8/s.
const ours = (11 * 60) / 20 / 60;
const whole = (11 * 60 + 8 * 60) / 20 / 60;

function point(startMs: number): UsagePoint {
  return {
    endpoint: 'categories',
    startMs,
    requests: 11 * 60,
    throttled: 0,
    failures: 0,
    lowestRemaining: 0,
    meanUse: ours,
    meanUseOlder: false,
    activeSeconds: 60,
    // Each stored row capped at its own seconds (none is capped here).
    budgetSeconds: whole * 60,
    peakUse: 1,
    waitedMs: 0,
    foreignRequests: 8 * 60,
    latencyP50: 10,
    latencyP95: 20,
  };
}

function row(startMs: number, over: Partial<ReportRow> = {}): ReportRow {
  return {
    endpoint: 'categories',
    startMs,
    bucketMs: MIN,
    requests: 11 * 60,
    throttled: 0,
    failures: 0,
    activeSeconds: 60,
    useSeconds: ours * 60,
    olderUseSum: 0,
    olderUseCount: 0,
    usePeak: 1,
    waitedMs: 0,
    foreignRequests: 8 * 60,
    ...over,
  };
}

describe('mean use of the whole budget in the history', () => {
  it('the Budget 6 h table counts the others, with ours beside it', () => {
    const history: UsageHistory = {
      profileId: 'p',
      vendor: 'demo',
      level: 'minute',
      bucketMs: MIN,
      fromMs: T,
      toMs: T + 10 * MIN,
      points: [point(T), point(T + MIN)],
      problem: null,
    };
    const [summary] = summarize(history);
    expect(summary!.meanUse).toBeCloseTo(whole);
    expect(summary!.meanUseOurs).toBeCloseTo(ours);
  });

  it('the Usage report (days and heat map) counts the others, with ours beside it, and never reads over 100%', () => {
    const report = buildUsageReport([row(T), row(T + MIN), row(T + 2 * MIN, { foreignRequests: 5000 })], { fromMs: T, toMs: T + 3600_000, timeZone: 'UTC' });
    const [day] = report.days;
    expect(day!.meanUse).toBeCloseTo((2 * whole + 1) / 3);
    expect(day!.meanUseOurs).toBeCloseTo(ours);
    const [cell] = report.heatMap;
    expect(cell!.meanUse).toBeCloseTo(day!.meanUse!);
    expect(cell!.meanUseOurs).toBeCloseTo(ours);
  });

  it('keeps the older per-answer measure as it was (it read Remaining, so others were in it); ours is unknown there', () => {
    const older = row(T, { activeSeconds: 0, useSeconds: 0, olderUseSum: 0.7 * 100, olderUseCount: 100 });
    const [day] = buildUsageReport([older], { fromMs: T, toMs: T + 3600_000, timeZone: 'UTC' }).days;
    expect(day!.meanUse).toBeCloseTo(0.7);
    expect(day!.meanUseOlder).toBe(true);
    expect(day!.meanUseOurs).toBeNull();
  });
});
