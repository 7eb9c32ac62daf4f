/**
 * A history chart ends at its last complete point: the minute still running (or not yet rolled up from its
 * seconds) was drawn as 0 req/s, a drop to 0 at the end of every 6 h chart while traffic ran at the limit.
 * On a real SQLite file with the store's own roll-up.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ManualClock } from '../../electron/client/testing/manual-clock';
import { DEFAULT_USAGE_RETENTION, LocalStore } from '../../electron/store';
import { readHistory } from '../../electron/usage/history-query';
import { syntheticAggregate } from '../../electron/usage/synthetic-usage';
import { ENDPOINTS } from '../../shared/endpoints';
import { chartSeries } from '../../shared/usage-history-model';

const MIN = 60_000;
const HOUR = 60 * MIN;
const NOW = Date.UTC(2026, 10, 27, 19, 7, 0);

let dir: string;
let local: LocalStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'usage-complete-end-'));
  local = new LocalStore(dir);
});
afterEach(() => {
  local.close();
  rmSync(dir, { recursive: true, force: true });
});

it('a 6 h chart read at 19:07:19 ends at the 19:06 minute, at the rate it ran, not at a 0 for 19:07', () => {
  const clock = new ManualClock(NOW + 19_000);
  const usage = local.openUsage({ clock })!;
  for (let t = NOW - 10 * MIN; t < NOW + 19_000; t += 1000) {
    usage.recordAggregate({ profileId: 'p', vendor: 'demo', endpoint: 'listAssets' }, t, syntheticAggregate(ENDPOINTS.listAssets, 1, { share: 1 }));
  }
  usage.downsample(clock.now());

  const history = readHistory(
    usage,
    { profileId: 'p', vendor: 'demo', fromMs: clock.now() - 6 * HOUR, toMs: clock.now() },
    clock.now(),
    DEFAULT_USAGE_RETENTION,
  );
  expect(history.bucketMs).toBe(MIN);
  expect(history.toMs).toBe(NOW);
  const last = chartSeries({ ...history, profileId: 'p', vendor: 'demo', problem: null }, 'listAssets').at(-1)!;
  expect(last.t).toBe(NOW - MIN);
  expect(last.rate).toBeCloseTo(20, 0);
});

it('ends where the minutes are rolled up to: a minute whose seconds are not rolled up yet is not drawn as 0 either', () => {
  const clock = new ManualClock(NOW - 30_000);
  const usage = local.openUsage({ clock })!;
  for (let t = NOW - 10 * MIN; t < NOW + 50_000; t += 1000) {
    usage.recordAggregate({ profileId: 'p', vendor: 'demo', endpoint: 'listAssets' }, t, syntheticAggregate(ENDPOINTS.listAssets, 1, { share: 1 }));
  }
  usage.downsample(NOW - 30_000); // rolls up to 19:06; the next roll-up is a minute later
  const now = NOW + 50_000;
  const history = readHistory(usage, { profileId: 'p', vendor: 'demo', fromMs: now - 6 * HOUR, toMs: now }, now, DEFAULT_USAGE_RETENTION);
  expect(history.toMs).toBe(NOW - MIN);
  expect(chartSeries({ ...history, profileId: 'p', vendor: 'demo', problem: null }, 'listAssets').at(-1)!.rate).toBeCloseTo(20, 0);
});

it('a seconds chart ends before the seconds still in memory: the last ones are not drawn low or as 0', () => {
  const clock = new ManualClock(NOW);
  const usage = local.openUsage({ clock })!;
  const sample = (at: number) => ({
    vendor: 'demo',
    endpoint: 'listAssets' as const,
    at,
    status: 200,
    limit: 20,
    remaining: 10,
    reset: 1,
    latencyMs: 10,
    waitedMs: 0,
    attempt: 1,
    headerProblems: [],
  });
  // 10 requests a second; the flush of the newest samples (at most a second after them) has not run yet.
  for (let t = NOW - 60_000; t < NOW; t += 100) usage.record('p', sample(t));
  usage.flush(); // everything up to here is written...
  for (let t = NOW; t < NOW + 1_500; t += 100) usage.record('p', sample(t)); // ...these 1.5 s are still in memory
  const now = NOW + 1_500;
  const history = readHistory(usage, { profileId: 'p', vendor: 'demo', fromMs: now - 60_000, toMs: now }, now, DEFAULT_USAGE_RETENTION);
  expect(history.level).toBe('second');
  const series = chartSeries({ ...history, profileId: 'p', vendor: 'demo', problem: null }, 'listAssets');
  expect(series.at(-1)!.rate).toBeCloseTo(10, 5);
  expect(history.toMs).toBeLessThanOrEqual(NOW);
});
