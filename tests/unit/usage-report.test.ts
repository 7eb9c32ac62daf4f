/** The Usage report's figures against a known stream of stored rows (issue 12 §2). */
import { describe, expect, it } from 'vitest';
import { buildUsageReport, weightedQuantile } from '../../shared/usage-report';
import type { ReportRow } from '../../shared/usage-report';
import { usageReportCsv } from '../../shared/usage-report-csv';
import { nextDay, startOfDay, zonedTime } from '../../shared/time-zone';

const TZ = 'Europe/Berlin'; // UTC+1 in November
const MIN = 60_000;
const HOUR = 3_600_000;

function row(endpoint: string, iso: string, fields: Partial<ReportRow>, bucketMs = MIN): ReportRow {
  return {
    endpoint,
    startMs: Date.parse(iso),
    bucketMs,
    requests: 0,
    throttled: 0,
    failures: 0,
    activeSeconds: 0,
    useSeconds: 0,
    olderUseSum: 0,
    olderUseCount: 0,
    usePeak: null,
    waitedMs: 0,
    foreignRequests: 0,
    ...fields,
  };
}

// 2026-11-20 in Berlin is [2026-11-19T23:00Z, 2026-11-20T23:00Z).
const ROWS: ReportRow[] = [
  row('listAssets', '2026-11-19T22:59:00Z', { requests: 5000, useSeconds: 60, activeSeconds: 60, usePeak: 1 }), // 23:59 the day before: outside
  row('listAssets', '2026-11-19T23:30:00Z', { requests: 60, useSeconds: 3, activeSeconds: 6, usePeak: 0.6 }), // 00:30 local: the 20th
  row('listAssets', '2026-11-20T08:00:00Z', { requests: 600, throttled: 3, foreignRequests: 2, useSeconds: 54, activeSeconds: 60, usePeak: 1, waitedMs: 6000 }),
  row('listAssets', '2026-11-20T08:01:00Z', { requests: 300, useSeconds: 15, activeSeconds: 30, usePeak: 0.7 }),
  row('searchAssets', '2026-11-20T08:00:00Z', {
    requests: 100,
    foreignRequests: 5,
    failures: 1,
    useSeconds: 2,
    activeSeconds: 10,
    usePeak: 0.3,
    waitedMs: 20_000,
  }),
  // A per-hour row (older than the minute retention): counted per day and hour, never a "minute".
  row('categories', '2026-11-20T09:00:00Z', { requests: 10_000, useSeconds: 100, activeSeconds: 1000, usePeak: 0.2 }, HOUR),
];

const FROM = startOfDay('2026-11-20', TZ);
const TO = startOfDay('2026-11-21', TZ);

describe('usage report', () => {
  const report = buildUsageReport(ROWS, { fromMs: FROM, toMs: TO, timeZone: TZ });

  it('counts days in the report time zone', () => {
    expect(new Date(FROM).toISOString()).toBe('2026-11-19T23:00:00.000Z');
    expect(report.days.map((d) => [d.day, d.endpoint])).toEqual([
      ['2026-11-20', 'listAssets'],
      ['2026-11-20', 'searchAssets'],
      ['2026-11-20', 'categories'],
    ]);
    expect(report.endpoints).toEqual(['listAssets', 'searchAssets', 'categories']);
  });

  it('per endpoint and day: requests, mean and peak use, 429s ours and explained by others, waits per request', () => {
    const list = report.days.find((d) => d.endpoint === 'listAssets')!;
    expect(list.requests).toBe(960);
    expect(list.meanUseOurs).toBeCloseTo((3 + 54 + 15) / (6 + 60 + 30), 10); // per second with requests
    expect(list.meanUse).toBeCloseTo((3 + 54 + 15 + 2 / 20) / (6 + 60 + 30), 10); // the whole budget: others' 2 requests too
    expect(list.peakUse).toBe(1);
    expect(list.throttled).toBe(3);
    expect(list.throttledByOthers).toBe(2); // 3 refused, 2 others' requests that minute
    expect(list.othersRequests).toBe(2);
    // 6 s waited over 960 requests: 6.25 ms each (not "6 s waited").
    expect(list.waitMeanMs).toBeCloseTo(6.25, 10);
    // 600 of 960 requests were in a minute whose requests waited 10 ms on average: the p95 is 10 ms.
    expect(list.waitP95Ms).toBe(10);
    // Held back: 6 s of waits in one minute (10% of it), none in the two others.
    expect(list.heldBackShare).toBeCloseTo(0.1 / 3, 10);
    const search = report.days.find((d) => d.endpoint === 'searchAssets')!;
    expect(search).toMatchObject({ requests: 100, throttled: 0, throttledByOthers: 0, othersRequests: 5, failures: 1, waitMeanMs: 200, waitP95Ms: 200 });
    expect(search.heldBackShare).toBeCloseTo(20 / 60, 10);
    expect(search.meanUseOurs).toBeCloseTo(0.2, 10);
    expect(search.meanUse).toBeCloseTo(0.225, 10); // with the others' 5 requests
  });

  it('heat map by local hour of day x endpoint', () => {
    const cell = (endpoint: string, hour: number) => report.heatMap.find((c) => c.endpoint === endpoint && c.hour === hour);
    expect(cell('listAssets', 9)).toMatchObject({ requests: 900, peakUse: 1, throttled: 3 });
    expect(cell('listAssets', 9)!.meanUseOurs).toBeCloseTo((54 + 15) / (60 + 30), 10);
    expect(cell('listAssets', 9)!.meanUse).toBeCloseTo((54 + 15 + 2 / 20) / (60 + 30), 10);
    expect(cell('listAssets', 0)).toMatchObject({ requests: 60, peakUse: 0.6 });
    expect(cell('categories', 10)).toMatchObject({ requests: 10_000, peakUse: 0.2 });
    expect(report.heatMap).toHaveLength(4);
  });

  it('busiest minutes: every endpoint summed, from per-minute rows only', () => {
    expect(report.busiestMinutes).toEqual([
      { startMs: Date.parse('2026-11-20T08:00:00Z'), requests: 700, throttled: 3, peakUse: 1, topEndpoint: 'listAssets' },
      { startMs: Date.parse('2026-11-20T08:01:00Z'), requests: 300, throttled: 0, peakUse: 0.7, topEndpoint: 'listAssets' },
      { startMs: Date.parse('2026-11-19T23:30:00Z'), requests: 60, throttled: 0, peakUse: 0.6, topEndpoint: 'listAssets' },
    ]);
    expect(buildUsageReport(ROWS, { fromMs: FROM, toMs: TO, timeZone: TZ, busiestCount: 1 }).busiestMinutes).toHaveLength(1);
  });

  it('the same rows read in UTC fall on other days and hours', () => {
    const utc = buildUsageReport(ROWS, { fromMs: Date.parse('2026-11-19T00:00:00Z'), toMs: Date.parse('2026-11-21T00:00:00Z'), timeZone: 'UTC' });
    expect(utc.days.filter((d) => d.endpoint === 'listAssets').map((d) => [d.day, d.requests])).toEqual([
      ['2026-11-19', 5060],
      ['2026-11-20', 900],
    ]);
    expect(utc.heatMap.find((c) => c.endpoint === 'listAssets' && c.hour === 8)?.requests).toBe(900);
  });

  it('an empty period is an empty report', () => {
    expect(buildUsageReport([], { fromMs: FROM, toMs: TO, timeZone: TZ })).toMatchObject({ days: [], heatMap: [], busiestMinutes: [], endpoints: [] });
  });

  it('CSV: one row per endpoint and day, percentages and ms, formula-safe', () => {
    const csv = usageReportCsv(report).split('\r\n');
    expect(csv[0]).toBe(
      'day,endpoint,requests,mean_use_pct,peak_use_pct,our_429s,our_429s_explained_by_others,others_requests_inferred,other_failures,wait_mean_ms,wait_p95_ms,held_back_pct,mean_use_measure,mean_use_ours_pct',
    );
    expect(csv[1]).toBe('2026-11-20,listAssets,960,75.1,100.0,3,2,2,0,6.3,10.0,3.3,per_second,75.0');
    const evil = usageReportCsv({ days: [{ ...report.days[0]!, endpoint: '=HYPERLINK("x")' }] }).split('\r\n')[1];
    expect(evil).toContain('"\'=HYPERLINK(""x"")"');
  });
});

describe('time zone and weighted quantile helpers', () => {
  it('finds local midnight across a daylight saving change', () => {
    expect(new Date(startOfDay('2026-03-29', TZ)).toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(new Date(startOfDay('2026-03-30', TZ)).toISOString()).toBe('2026-03-29T22:00:00.000Z');
    expect(zonedTime(Date.parse('2026-03-29T01:30:00Z'), TZ)).toEqual({ day: '2026-03-29', hour: 3, minute: 30 });
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
  });

  it('weights values by their requests', () => {
    expect(
      weightedQuantile(
        [
          [1, 94],
          [50, 6],
        ],
        0.95,
      ),
    ).toBe(50);
    expect(
      weightedQuantile(
        [
          [1, 96],
          [50, 4],
        ],
        0.95,
      ),
    ).toBe(1);
    expect(weightedQuantile([], 0.95)).toBeNull();
  });
});
