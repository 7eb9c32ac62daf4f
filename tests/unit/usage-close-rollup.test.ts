/**
 * The app's last minute in the reports: closing the usage store rolls up what it wrote, so a session
 * shorter than a minute (and the last minute of any session) is in the report, and a later session
 * in the same minute is counted once, not twice. A real SQLite file; a clock that never fires (the
 * schedule's roll-up never runs: only close() can have rolled anything up).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { DEFAULT_USAGE_RETENTION, openDatabase, UsageStore } from '../../electron/store';
import { usageReportFrom } from '../../electron/reports/usage-report-source';
import type { BudgetSample } from '../../shared/rate-limit';
import { budgetSample, stoppedClock } from '../helpers/budget-sample';

const T0 = Date.UTC(2026, 0, 5, 10, 0, 20);
const DAY = 86_400_000;

const sample = (at: number): BudgetSample => budgetSample({ at });

/** One app session: `count` requests a second apart from `from`, then the app quits. */
function session(db: Database, from: number, count: number): void {
  const store = new UsageStore(db, { clock: stoppedClock(from + count * 1000) });
  for (let i = 0; i < count; i++) store.record('p1', sample(from + i * 1000));
  store.close();
}

function reportedRequests(db: Database, now: number): number {
  const store = new UsageStore(db, { clock: stoppedClock(now) });
  const report = usageReportFrom(
    { rows: (q) => store.read(q), now, minuteRetentionMs: DEFAULT_USAGE_RETENTION.minuteMs },
    { profileId: 'p1', profileName: 'P', vendor: 'acme', fromMs: T0 - DAY, toMs: T0 + DAY, timeZone: 'UTC' },
  );
  store.close();
  return report.days.reduce((n, d) => n + d.requests, 0);
}

let dir: string;
let db: Database;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'usage-close-'));
  db = openDatabase(dir).db!;
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('closing the usage store', () => {
  it('puts a session of 30 requests, under a minute, in the report', () => {
    session(db, T0, 30);
    expect(reportedRequests(db, T0 + 60_000)).toBe(30);
  });

  it('counts a later session in the same minute and hour once', () => {
    session(db, T0, 30); // 10:00:20 to 10:00:49
    session(db, T0 + 35_000, 5); // 10:00:55 to 10:00:59, in the minute already rolled up
    session(db, T0 + 45_000, 20); // into the next minute
    expect(reportedRequests(db, T0 + 120_000)).toBe(55);
    expect(reportedRequests(db, T0 + 20 * DAY)).toBe(55); // from per-hour rows, past the minutes' retention
  });
});
