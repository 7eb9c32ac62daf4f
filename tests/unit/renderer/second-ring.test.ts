import { describe, expect, it } from 'vitest';
import { SecondRing, emptySecond } from '../../../renderer/src/live/second-ring';
import type { SecondDelta } from '../../../renderer/src/live/second-ring';

function delta(over: Partial<SecondDelta> = {}): SecondDelta {
  return {
    to: 0,
    requests: 1,
    rateLimited: 0,
    errors: 0,
    limit: null,
    remaining: null,
    minRemaining: null,
    reset: null,
    waitedMs: 0,
    waitBins: [],
    heldMs: 0,
    unanswered: 0,
    latencyMsSum: 10,
    latencyMsMax: 10,
    foreignUse: 0,
    ...over,
  };
}

describe('SecondRing', () => {
  it('starts empty and reads unset nullable figures as null', () => {
    const ring = new SecondRing(4);
    expect(ring.size).toBe(0);
    ring.add(1000, delta({ to: 1500 }));
    expect(ring.size).toBe(1);
    const b = ring.read(0);
    expect(b).toMatchObject({ t: 1000, requests: 1, limit: null, remaining: null, minRemaining: null, reset: null, lastTo: 1500 });
  });

  it('sums counters into the same second, keeps the max latency and the lowest Remaining', () => {
    const ring = new SecondRing(4);
    ring.add(
      1000,
      delta({
        to: 1100,
        requests: 2,
        rateLimited: 1,
        errors: 1,
        waitedMs: 30,
        latencyMsSum: 40,
        latencyMsMax: 25,
        foreignUse: 1,
        limit: 20,
        remaining: 15,
        minRemaining: 15,
      }),
    );
    ring.add(
      1000,
      delta({
        to: 1200,
        requests: 3,
        rateLimited: 0,
        errors: 2,
        waitedMs: 5,
        latencyMsSum: 60,
        latencyMsMax: 50,
        foreignUse: 2,
        limit: 20,
        remaining: 12,
        minRemaining: 11,
      }),
    );
    expect(ring.size).toBe(1);
    expect(ring.read(0)).toMatchObject({
      requests: 5,
      rateLimited: 1,
      errors: 3,
      waitedMs: 35,
      latencyMsSum: 100,
      latencyMsMax: 50,
      foreignUse: 3,
      limit: 20,
      remaining: 12,
      minRemaining: 11,
      lastTo: 1200,
    });
  });

  it('keeps the Remaining and Reset of the latest aggregate even when an older one arrives after it', () => {
    const ring = new SecondRing(4);
    ring.add(1000, delta({ to: 1900, remaining: 3, minRemaining: 3, reset: 7 }));
    ring.add(1000, delta({ to: 1100, remaining: 9, minRemaining: 9, reset: 9 }));
    const b = ring.read(0);
    expect(b.remaining).toBe(3);
    expect(b.reset).toBe(7);
    expect(b.minRemaining).toBe(3);
    expect(b.requests).toBe(2);
    expect(b.lastTo).toBe(1900);
  });

  it('a null figure in an aggregate does not erase one already known', () => {
    const ring = new SecondRing(4);
    ring.add(1000, delta({ to: 1100, limit: 20, remaining: 5, minRemaining: 5, reset: 2 }));
    ring.add(1000, delta({ to: 1200 }));
    expect(ring.read(0)).toMatchObject({ limit: 20, remaining: 5, minRemaining: 5, reset: 2, lastTo: 1200 });
  });

  it('adds to a recent bucket that exists, and drops an aggregate for a second it does not hold', () => {
    const ring = new SecondRing(4);
    ring.add(1000, delta({ to: 1100 }));
    ring.add(3000, delta({ to: 3100 }));
    ring.add(1000, delta({ to: 1200, requests: 4 }));
    expect(ring.read(0).requests).toBe(5);
    ring.add(2000, delta({ to: 2100, requests: 7 })); // a gap second in the past: not inserted
    expect(ring.size).toBe(2);
    expect([ring.t(0), ring.t(1)]).toEqual([1000, 3000]);
    expect(ring.read(1).requests).toBe(1);
  });

  it('drops the oldest bucket past capacity and starts a reused slot from zero', () => {
    const ring = new SecondRing(2);
    ring.add(1000, delta({ to: 1100, requests: 5, limit: 20, remaining: 4, minRemaining: 4, reset: 1, foreignUse: 3 }));
    ring.add(2000, delta({ to: 2100, requests: 6 }));
    ring.add(3000, delta({ to: 3100, requests: 2 }));
    expect(ring.size).toBe(2);
    expect([ring.t(0), ring.t(1)]).toEqual([2000, 3000]);
    expect(ring.read(1)).toMatchObject({ t: 3000, requests: 2, limit: null, remaining: null, minRemaining: null, reset: null, foreignUse: 0 });
    // The dropped second is gone for good: an aggregate for it is not counted anywhere.
    ring.add(1000, delta({ to: 1200, requests: 100 }));
    expect(ring.read(0).requests + ring.read(1).requests).toBe(8);
  });

  it('stays ordered and bounded over many wraps', () => {
    const ring = new SecondRing(5);
    for (let s = 0; s < 23; s++) ring.add(s * 1000, delta({ to: s * 1000 + 1, requests: s }));
    expect(ring.size).toBe(5);
    expect(Array.from({ length: 5 }, (_, i) => ring.t(i))).toEqual([18000, 19000, 20000, 21000, 22000]);
    expect(Array.from({ length: 5 }, (_, i) => ring.read(i).requests)).toEqual([18, 19, 20, 21, 22]);
  });

  it('lowerBound finds the first bucket at or after a time', () => {
    const ring = new SecondRing(8);
    for (const t of [1000, 2000, 4000, 7000]) ring.add(t, delta({ to: t }));
    expect(ring.lowerBound(0)).toBe(0);
    expect(ring.lowerBound(1000)).toBe(0);
    expect(ring.lowerBound(1001)).toBe(1);
    expect(ring.lowerBound(3000)).toBe(2);
    expect(ring.lowerBound(7000)).toBe(3);
    expect(ring.lowerBound(7001)).toBe(4);
  });

  it('read fills the object it is given', () => {
    const ring = new SecondRing(2);
    ring.add(1000, delta({ to: 1000, requests: 9 }));
    const into = emptySecond();
    expect(ring.read(0, into)).toBe(into);
    expect(into.requests).toBe(9);
  });

  it('sums wait classes and held time per second, and starts a reused slot with empty classes', () => {
    const ring = new SecondRing(2);
    ring.add(1000, delta({ waitBins: [1, 0, 3], heldMs: 40 }));
    ring.add(1000, delta({ waitBins: [0, 2, 1], heldMs: 10 }));
    expect([...ring.read(0).waitBins.slice(0, 3)]).toEqual([1, 2, 4]);
    expect(ring.read(0).heldMs).toBe(50);
    ring.add(2000, delta());
    ring.add(3000, delta({ waitBins: [0, 0, 0, 7] })); // reuses the slot of 1000
    expect([...ring.read(1).waitBins.slice(0, 4)]).toEqual([0, 0, 0, 7]);
    expect(ring.read(1).heldMs).toBe(0);
  });

  it('truncateFrom forgets the seconds at and after a time, and new ones follow', () => {
    const ring = new SecondRing(8);
    for (const t of [1000, 2000, 3000, 4000]) ring.add(t, delta());
    ring.truncateFrom(2500);
    expect(ring.size).toBe(2);
    ring.add(3000, delta({ requests: 5 }));
    expect(ring.read(2)).toMatchObject({ t: 3000, requests: 5 });
  });
});
