import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY, fullJitter, mayRetry, rateLimitFloorMs, retryPolicy } from '../../electron/client/backoff';
import { seededRandom } from '../../electron/client/testing/harness';

describe('full jitter', () => {
  const policy = retryPolicy({ baseMs: 100, capMs: 3_000 });

  it('draws U(0, min(cap, base * 2^n)): every draw in bounds, spread over the whole range', () => {
    const random = seededRandom(1);
    for (let n = 0; n < 10; n++) {
      const ceiling = Math.min(3_000, 100 * 2 ** n);
      const draws = Array.from({ length: 4_000 }, () => fullJitter(n, policy, random));
      expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
      expect(Math.max(...draws)).toBeLessThanOrEqual(ceiling);
      // Full jitter, not "half plus jitter": draws reach both ends of the range, mean near half.
      expect(Math.min(...draws)).toBeLessThan(ceiling * 0.02);
      expect(Math.max(...draws)).toBeGreaterThan(ceiling * 0.98);
      const mean = draws.reduce((a, b) => a + b, 0) / draws.length;
      expect(mean / ceiling).toBeGreaterThan(0.45);
      expect(mean / ceiling).toBeLessThan(0.55);
    }
  });

  it('grows exponentially until the cap, then stays at the cap', () => {
    const top = (n: number): number => fullJitter(n, policy, () => 1);
    expect([0, 1, 2, 3, 4, 5, 6].map(top)).toEqual([100, 200, 400, 800, 1_600, 3_000, 3_000]);
    expect(top(1_000)).toBe(3_000); // no overflow to Infinity or NaN
  });

  it('survives a broken random source', () => {
    for (const r of [NaN, -1, 2, Infinity]) {
      const v = fullJitter(2, policy, () => r);
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThanOrEqual(400);
    }
  });
});

describe('the floor after a 429', () => {
  it('waits Reset seconds when Reset is 1 or more, capped for garbled values', () => {
    expect(rateLimitFloorMs(1, 300)).toBe(1_000);
    expect(rateLimitFloorMs(3, null)).toBe(3_000);
    expect(rateLimitFloorMs(3_600, null)).toBe(10_000);
    expect(rateLimitFloorMs(0.001, null)).toBe(250); // a fraction is still never "now"
  });

  it('treats Reset 0 as "under a second": until the next server second, never under 250 ms, never now', () => {
    expect(rateLimitFloorMs(0, 700)).toBe(700);
    expect(rateLimitFloorMs(0, 5)).toBe(250);
    expect(rateLimitFloorMs(0, 0)).toBe(250);
    expect(rateLimitFloorMs(0, null)).toBe(1_000);
  });

  it('waits a whole second when Reset is unreadable and the server second unknown', () => {
    expect(rateLimitFloorMs(null, null)).toBe(1_000);
    expect(rateLimitFloorMs(null, 400)).toBe(400);
  });
});

describe('retry budget', () => {
  const policy = retryPolicy({ maxAttempts: 3, maxElapsedMs: 10_000 });

  it('allows retries up to maxAttempts attempts in all', () => {
    expect(mayRetry(1, 0, 0, 100, policy)).toBe(true);
    expect(mayRetry(2, 0, 0, 100, policy)).toBe(true);
    expect(mayRetry(3, 0, 0, 100, policy)).toBe(false);
  });

  it('refuses a retry that would start after maxElapsedMs', () => {
    expect(mayRetry(1, 0, 9_000, 999, policy)).toBe(true);
    expect(mayRetry(1, 0, 9_000, 1_001, policy)).toBe(false);
  });

  it('fills a partial policy from the defaults and rejects nonsense', () => {
    expect(retryPolicy({ maxAttempts: 2 })).toEqual({ ...DEFAULT_RETRY_POLICY, maxAttempts: 2 });
    expect(retryPolicy({ capMs: undefined })).toEqual(DEFAULT_RETRY_POLICY);
    expect(() => retryPolicy({ baseMs: -1 })).toThrow(RangeError);
    expect(() => retryPolicy({ maxAttempts: 0 })).toThrow(RangeError);
    expect(() => retryPolicy({ maxElapsedMs: NaN })).toThrow(RangeError);
  });
});
