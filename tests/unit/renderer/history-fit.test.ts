/** History ranges fit their time axis to the data there is, as the live ranges do: no one-pixel needle at the right edge. */
import { describe, expect, it } from 'vitest';
import type { UsagePoint } from '../../../shared/bridge/usage-schemas';
import { fittedFrom, MIN_FIT_MS, readFitted } from '../../../shared/usage-history-model';

const MIN = 60_000;
const HOUR = 60 * MIN;
const TO = Date.UTC(2026, 10, 27, 16, 0, 0);

const point = (startMs: number): UsagePoint => ({
  endpoint: 'listAssets',
  startMs,
  requests: 10,
  throttled: 0,
  failures: 0,
  lowestRemaining: 5,
  meanUse: 0.5,
  meanUseOlder: false,
  activeSeconds: 10,
  budgetSeconds: 5,
  peakUse: 0.5,
  waitedMs: 0,
  foreignRequests: 0,
  latencyP50: 1,
  latencyP95: 2,
});

const range = (hours: number, starts: number[]) => ({ fromMs: TO - hours * HOUR, toMs: TO, points: starts.map(point) });

describe('fittedFrom', () => {
  it('starts a 6 h axis where 10 minutes of data start, on the whole minute', () => {
    const starts = Array.from({ length: 10 }, (_, i) => TO - 10 * MIN + i * MIN);
    expect(fittedFrom(range(6, starts))).toBe(TO - 10 * MIN);
    expect(fittedFrom(range(6, [TO - 37 * MIN + 21_000]))).toBe(TO - 37 * MIN);
  });

  it('spans at least MIN_FIT_MS, however little data there is yet', () => {
    expect(fittedFrom(range(6, [TO - 2 * MIN]))).toBe(TO - MIN_FIT_MS);
  });

  it('keeps the range where the data starts near its start, or there is none', () => {
    expect(fittedFrom(range(6, [TO - 6 * HOUR, TO - MIN]))).toBeNull();
    expect(fittedFrom(range(6, [TO - 6 * HOUR + 10 * MIN]))).toBeNull(); // within a twentieth of 6 h
    expect(fittedFrom(range(6, []))).toBeNull();
  });

  it('fits a 7 d axis to a day and a bit of data, starting with its first hour', () => {
    expect(fittedFrom(range(7 * 24, [TO - 26 * HOUR, TO - 3 * HOUR]))).toBe(TO - 26 * HOUR);
  });
});

describe('readFitted', () => {
  /** A store with one point a minute from `since` on, read in points of `bucketMs(span)` as the app's store would. */
  const store =
    (since: number, bucketMs: (spanMs: number) => number) =>
    async ({ fromMs, toMs }: { fromMs: number; toMs: number }) => {
      const b = bucketMs(toMs - fromMs);
      const from = Math.floor(fromMs / b) * b;
      const starts = new Set<number>();
      for (let t = Math.max(since, from); t < toMs; t += MIN) starts.add(Math.floor(t / b) * b);
      return { profileId: 'p', vendor: 'demo', level: 'minute' as const, bucketMs: b, fromMs: from, toMs, points: [...starts].map(point), problem: null };
    };
  const coarse = (span: number) => (span > 26 * HOUR ? 2 * HOUR : span > 2 * HOUR ? 5 * MIN : MIN);

  it("reads again until the axis starts where the data does, even behind a 30 d range's 2-hour points", async () => {
    const since = TO - 26 * MIN;
    const { history, fitted } = await readFitted(store(since, coarse), { fromMs: TO - 30 * 24 * HOUR, toMs: TO });
    expect(fitted).toBe(true);
    expect(history.fromMs).toBe(since);
    expect(history.bucketMs).toBe(MIN);
  });

  it('reads once where the data covers the range', async () => {
    let reads = 0;
    const read = store(TO - 7 * HOUR, coarse);
    const { fitted } = await readFitted(
      (r) => {
        reads++;
        return read(r);
      },
      { fromMs: TO - 6 * HOUR, toMs: TO },
    );
    expect(fitted).toBe(false);
    expect(reads).toBe(1);
  });
});
