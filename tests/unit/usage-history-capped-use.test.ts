/**
 * The whole budget's mean use reads the same at every point size and in the Usage report: each stored row's
 * use is capped at its seconds with requests before rows are summed. Capping once per merged point gave
 * 14% at 1-minute points and in the report, 50% at 5-minute points, for the same two minutes.
 * On a real SQLite file with the store's own roll-up.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ManualClock } from '../../electron/client/testing/manual-clock';
import { DEFAULT_USAGE_RETENTION, LocalStore } from '../../electron/store';
import { emptyAggregate } from '../../electron/store/usage-aggregate';
import { readHistory } from '../../electron/usage/history-query';
import { summarize } from '../../shared/usage-history-model';
import { buildUsageReport } from '../../shared/usage-report';

const MIN = 60_000;
const HOUR = 60 * MIN;
const T = Date.UTC(2026, 10, 27, 18, 0, 0);
const NOW = T + 10 * MIN;

let dir: string;
let local: LocalStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'usage-capped-use-'));
  local = new LocalStore(dir);
});
afterEach(() => {
  local.close();
  rmSync(dir, { recursive: true, force: true });
});

/** One second of GET /assets/categories (limit 20/s): one request of ours served, `others` of other consumers'. */
function second(others: number) {
  return { ...emptyAggregate(), requests: 1, activeSeconds: 1, useSeconds: 0.05, foreignRequests: others };
}

it('mean use of two minutes, one of them capped, is the same at 1-minute and 5-minute points and in the report', () => {
  const clock = new ManualClock(NOW);
  const usage = local.openUsage({ clock })!;
  const key = { profileId: 'p', vendor: 'demo', endpoint: 'categories' };
  // Minute A: 1 busy second, others' 100 requests put down to it (capped at 1 s). Minute B: 10 busy seconds.
  usage.recordAggregate(key, T, second(100));
  for (let s = 0; s < 10; s++) usage.recordAggregate(key, T + MIN + s * 1000, second(0));
  usage.flush();
  usage.downsample(NOW);
  const expected = (1 + 0.5) / 11;

  const meanUse = (rangeMs: number) => {
    const history = readHistory(usage, { profileId: 'p', vendor: 'demo', fromMs: NOW - rangeMs, toMs: NOW }, NOW, DEFAULT_USAGE_RETENTION);
    return { bucketMs: history.bucketMs, meanUse: summarize({ ...history, profileId: 'p', vendor: 'demo', problem: null })[0]!.meanUse };
  };
  expect(meanUse(HOUR)).toEqual({ bucketMs: MIN, meanUse: expect.closeTo(expected, 6) });
  expect(meanUse(24 * HOUR)).toEqual({ bucketMs: 5 * MIN, meanUse: expect.closeTo(expected, 6) });

  const rows = usage.read({ level: 'minute', fromMs: 0, toMs: NOW }).map((r) => ({ ...r, bucketMs: MIN }));
  const report = buildUsageReport(rows, { fromMs: T - HOUR, toMs: NOW, timeZone: 'UTC' });
  expect(report.days[0]!.meanUse).toBeCloseTo(expected, 6);
});
