/** Reading the usage history for a range: the level that fits, at most ~500 points, sums kept (real SQLite file). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../electron/client/testing/manual-clock';
import { DEFAULT_USAGE_RETENTION, LocalStore } from '../../electron/store';
import { chooseLevel, MAX_POINTS, readHistory } from '../../electron/usage/history-query';
import { syntheticAggregate } from '../../electron/usage/synthetic-usage';
import { ENDPOINTS } from '../../shared/endpoints';
import { chartSeries, summarize } from '../../shared/usage-history-model';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 2, 10, 12, 0, 0);

describe('chooseLevel', () => {
  it('takes seconds while kept, minutes up to about a day, hours beyond; never more than MAX_POINTS', () => {
    const r = DEFAULT_USAGE_RETENTION;
    expect(chooseLevel({ fromMs: NOW - 5 * MIN, toMs: NOW }, NOW, r)).toEqual({ level: 'second', bucketMs: 1000 });
    expect(chooseLevel({ fromMs: NOW - HOUR, toMs: NOW }, NOW, r)).toEqual({ level: 'minute', bucketMs: MIN });
    expect(chooseLevel({ fromMs: NOW - DAY, toMs: NOW }, NOW, r)).toEqual({ level: 'minute', bucketMs: 5 * MIN });
    expect(chooseLevel({ fromMs: NOW - 7 * DAY, toMs: NOW }, NOW, r)).toEqual({ level: 'hour', bucketMs: HOUR });
    expect(chooseLevel({ fromMs: NOW - 30 * DAY, toMs: NOW }, NOW, r)).toEqual({ level: 'hour', bucketMs: 2 * HOUR });
    // Two hours, but 20 days ago: the minutes are gone by then, so hours.
    expect(chooseLevel({ fromMs: NOW - 20 * DAY, toMs: NOW - 20 * DAY + 2 * HOUR }, NOW, r).level).toBe('hour');
    for (const span of [MIN, HOUR, 6 * HOUR, DAY, 7 * DAY, 30 * DAY, 400 * DAY]) {
      const { bucketMs } = chooseLevel({ fromMs: NOW - span, toMs: NOW }, NOW, r);
      expect(span / bucketMs).toBeLessThanOrEqual(MAX_POINTS);
    }
  });
});

describe('readHistory on a real store', () => {
  let dir: string;
  let local: LocalStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'usage-read-'));
    local = new LocalStore(dir);
  });
  afterEach(() => {
    local.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('merges rows into points whose sums equal the rows, per endpoint, and the model fills the gaps', async () => {
    const clock = new ManualClock(NOW - 2 * DAY);
    const usage = local.openUsage({ clock })!;
    let listRequests = 0;
    for (let t = NOW - 2 * DAY; t < NOW - DAY; t += MIN) {
      const agg = syntheticAggregate(ENDPOINTS.listAssets, 60, { share: 0.5, throttled: t === NOW - 36 * HOUR ? 3 : 0 });
      listRequests += agg.requests;
      usage.recordAggregate({ profileId: 'p', vendor: 'v', endpoint: 'listAssets' }, t, agg);
      usage.recordAggregate({ profileId: 'other', vendor: 'v', endpoint: 'listAssets' }, t, agg);
      await clock.advance(MIN);
    }
    await clock.advance(DAY);

    const week = readHistory(usage, { profileId: 'p', vendor: 'v', fromMs: NOW - 7 * DAY, toMs: NOW }, clock.now(), DEFAULT_USAGE_RETENTION);
    expect(week.level).toBe('hour');
    expect(week.points.every((p) => p.endpoint === 'listAssets')).toBe(true);
    expect(week.points.reduce((n, p) => n + p.requests, 0)).toBe(listRequests);
    expect(week.points).toHaveLength(24);

    const day = readHistory(usage, { profileId: 'p', vendor: 'v', fromMs: NOW - 2 * DAY, toMs: NOW - DAY }, clock.now(), DEFAULT_USAGE_RETENTION);
    expect(day).toMatchObject({ level: 'minute', bucketMs: 5 * MIN });
    expect(day.points).toHaveLength(288);
    expect(day.points.reduce((n, p) => n + p.requests, 0)).toBe(listRequests);
    const [summary] = summarize({ ...day, profileId: 'p', vendor: 'v', problem: null });
    expect(summary).toMatchObject({ endpoint: 'listAssets', requests: listRequests, throttled: 3, peakRate: 10 });
    expect(summary!.meanUse).toBeCloseTo(0.5);

    // Only the endpoints asked for; a quiet endpoint's series is zeros across the range.
    const none = readHistory(
      usage,
      { profileId: 'p', vendor: 'v', endpoints: ['categories'], fromMs: NOW - 2 * DAY, toMs: NOW - DAY },
      clock.now(),
      DEFAULT_USAGE_RETENTION,
    );
    expect(none.points).toEqual([]);
    const series = chartSeries({ ...none, profileId: 'p', vendor: 'v', problem: null }, 'categories');
    expect(series).toHaveLength(288);
    expect(series.every((p) => p.rate === 0 && p.peakPct === null)).toBe(true);
  });
});
