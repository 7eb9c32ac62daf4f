/** Fault helpers and the competing-consumer runner, with injected random and fake timers. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CompetitorRunner } from '../../electron/simulator/competitors';
import { GARBLE_KINDS, delayFor, garbleHeaders, hits, NO_FAULTS } from '../../electron/simulator/faults';
import type { HeaderBag } from '../../electron/simulator/faults';
import { parseRateLimitHeaders } from '../../shared/rate-limit';

/** A random() that replays the given values. */
function replay(...values: number[]): () => number {
  let i = 0;
  return () => values[i++ % values.length]!;
}

const sane = (): HeaderBag => ({ 'X-Rate-Limit-Limit': '20', 'X-Rate-Limit-Remaining': '7', 'X-Rate-Limit-Reset': '0' });

function readBack(h: HeaderBag) {
  const lower = new Map(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
  return parseRateLimitHeaders((n) => lower.get(n.toLowerCase()));
}

describe('faults', () => {
  it('hits() draws only when the rate is above 0', () => {
    const random = vi.fn(() => 0);
    expect(hits(0, random)).toBe(false);
    expect(random).not.toHaveBeenCalled();
    expect(hits(0.3, replay(0.29))).toBe(true);
    expect(hits(0.3, replay(0.3))).toBe(false);
    expect(hits(1, replay(0.999))).toBe(true);
  });

  it('delayFor is latency plus uniform jitter', () => {
    expect(delayFor({ ...NO_FAULTS, latencyMs: 100 }, replay(0.5))).toBe(100);
    expect(delayFor({ ...NO_FAULTS, latencyMs: 100, jitterMs: 40 }, replay(0.5))).toBe(120);
  });

  GARBLE_KINDS.forEach((kind, i) => {
    for (let header = 0; header < 3; header++) {
      it(`garble "${kind}" on header ${header} leaves something the tolerant parser reports`, () => {
        const h = sane();
        const got = garbleHeaders(h, replay((i + 0.5) / GARBLE_KINDS.length, (header + 0.5) / 3));
        expect(got).toBe(kind);
        const parsed = readBack(h);
        expect(parsed.problems.length).toBeGreaterThan(0);
      });
    }
  });
});

describe('CompetitorRunner', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('takes one slot every 1000/rps ms of the clock, and stops when told', () => {
    vi.useFakeTimers();
    let now = 1_000_000;
    const taken: string[] = [];
    const runner = new CompetitorRunner(
      (vendor, endpoint) => taken.push(`${vendor}/${endpoint}`),
      () => now,
    );
    runner.set([{ vendor: 'demo', endpoint: 'listAssets', rps: 10 }]);
    now += 450;
    vi.advanceTimersByTime(60);
    expect(taken).toHaveLength(4); // due at +100, +200, +300, +400
    now += 550;
    vi.advanceTimersByTime(60);
    expect(taken).toHaveLength(10);
    expect(runner.list()).toEqual([{ vendor: 'demo', endpoint: 'listAssets', rps: 10 }]);
    runner.stop();
    now += 1000;
    vi.advanceTimersByTime(200);
    expect(taken).toHaveLength(10);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a clock jump never causes more than one second worth of slots per look', () => {
    vi.useFakeTimers();
    let now = 0;
    let n = 0;
    const runner = new CompetitorRunner(
      () => n++,
      () => now,
    );
    runner.set([{ vendor: 'demo', endpoint: 'purchaseInfo', rps: 50 }]);
    now += 3_600_000;
    vi.advanceTimersByTime(20);
    expect(n).toBe(50);
    runner.stop();
  });

  it('set() replaces the competitors; after close() nothing starts again', () => {
    vi.useFakeTimers();
    const runner = new CompetitorRunner(
      () => {},
      () => 0,
    );
    runner.set([
      { vendor: 'a', endpoint: 'listAssets', rps: 1 },
      { vendor: 'b', endpoint: 'listAssets', rps: 1 },
    ]);
    expect(vi.getTimerCount()).toBe(2);
    runner.set([{ vendor: 'a', endpoint: 'categories', rps: 1 }]);
    expect(vi.getTimerCount()).toBe(1);
    runner.close();
    runner.set([{ vendor: 'a', endpoint: 'categories', rps: 1 }]);
    expect(vi.getTimerCount()).toBe(0);
    expect(runner.list()).toEqual([]);
  });
});
