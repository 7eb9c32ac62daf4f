/**
 * A report day read from per-hour rows in a zone whose offset is not whole hours (Asia/Kolkata,
 * +05:30): the hour rows are whole UTC hours, so they cannot be split at local midnight. The report
 * counts each row once, in the day its hour starts, and says where those days begin. Real SQLite file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { usageReportFrom } from '../../electron/reports/usage-report-source';
import { DEFAULT_USAGE_RETENTION, openDatabase, UsageStore } from '../../electron/store';
import type { BudgetSample } from '../../shared/rate-limit';
import { budgetSample, stoppedClock } from '../helpers/budget-sample';
import { startOfDay } from '../../shared/time-zone';

const TZ = 'Asia/Kolkata';
const DAY = 86_400_000;
const MIN = 60_000;

const sample = (at: number): BudgetSample => budgetSample({ at, serverSecond: at });

let dir: string;
let db: Database;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'usage-report-zone-'));
  db = openDatabase(dir).db!;
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function record(times: number[]): void {
  const store = new UsageStore(db, { clock: stoppedClock(Math.max(...times)) });
  for (const t of times) store.record('p1', sample(t));
  store.close(); // rolls the session up into minutes and hours
}

function reportOf(day: string, now: number) {
  const store = new UsageStore(db, { clock: stoppedClock(now) });
  try {
    return usageReportFrom(
      { rows: (q) => store.read(q), now, minuteRetentionMs: DEFAULT_USAGE_RETENTION.minuteMs },
      { profileId: 'p1', profileName: 'P', vendor: 'acme', fromMs: startOfDay(day, TZ), toMs: startOfDay(day, TZ) + DAY, timeZone: TZ },
    );
  } finally {
    store.close();
  }
}

describe('a report day from per-hour rows in a +05:30 zone', () => {
  it('counts each hour row in the day its hour starts, and says those days run from :30 to :30', () => {
    const midnight = startOfDay('2026-03-10', TZ);
    const at = (minutes: number, n: number) => Array.from({ length: n }, (_, i) => midnight + minutes * MIN + i * 1_000);
    // 10 at local 00:10 on the 10th, 5 at 23:40, 3 at 00:15 on the 11th.
    record([...at(10, 10), ...at(23 * 60 + 40, 5), ...at(24 * 60 + 15, 3)]);

    const now = midnight + 30 * DAY; // the minutes are gone from the report's reach: hour rows only
    const day10 = reportOf('2026-03-10', now);
    expect(day10.hourlyBeforeMs).not.toBeNull();
    // Hour rows start at xx:30 local time: the 10th runs from 00:30 to 00:30 on the 11th, and the report says so.
    expect(day10.hourlyEdgeMinute).toBe(30);
    expect(day10.days.map((d) => [d.day, d.requests])).toEqual([['2026-03-10', 8]]);
    // The other 10 are the 9th's (its 23:30 row), counted once over the two days.
    expect(reportOf('2026-03-09', now).days.map((d) => [d.day, d.requests])).toEqual([['2026-03-09', 10]]);
  });

  it('says nothing of the kind in a whole-hour zone', () => {
    const midnight = startOfDay('2026-03-10', 'UTC');
    record([midnight + 10 * MIN]);
    const now = midnight + 30 * DAY;
    const store = new UsageStore(db, { clock: stoppedClock(now) });
    const report = usageReportFrom(
      { rows: (q) => store.read(q), now, minuteRetentionMs: DEFAULT_USAGE_RETENTION.minuteMs },
      { profileId: 'p1', profileName: 'P', vendor: 'acme', fromMs: midnight, toMs: midnight + DAY, timeZone: 'UTC' },
    );
    store.close();
    expect(report.hourlyEdgeMinute).toBeNull();
    expect(report.days.map((d) => d.requests)).toEqual([1]);
  });
});
