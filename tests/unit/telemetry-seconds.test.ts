/**
 * Budget figures that agree with the server: answers binned by the server's second (Date), history
 * and live events that join exactly, the wait figures, and another consumer found at the limit.
 */
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../shared/clock';
import type { BudgetSample } from '../../shared/rate-limit';
import { createTelemetry } from '../../electron/telemetry';
import type { BudgetAggregate, BudgetEventPayload } from '../../electron/telemetry';
import type { RefillModelHint } from '../../electron/telemetry/foreign-use';
import { checkContinuous, checkWholeSecond } from '../../electron/simulator/budget';
import type { BucketState } from '../../electron/simulator/budget';
import { waitQuantileMs } from '../../shared/wait-bins';

const T0 = 1_700_000_000_000; // a whole second

/** A clock whose timers run only when the test advances it. */
function manualClock(start = T0): Clock & { advance(ms: number): void } {
  let now = start;
  const timers: { at: number; fn: () => void; id: number }[] = [];
  let seq = 0;
  return {
    now: () => now,
    setTimeout(fn, ms) {
      timers.push({ at: now + Math.max(0, ms), fn, id: ++seq });
      return seq;
    },
    clearTimeout(handle) {
      const i = timers.findIndex((t) => t.id === handle);
      if (i >= 0) timers.splice(i, 1);
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        timers.sort((a, b) => a.at - b.at);
        const next = timers[0];
        if (!next || next.at > end) break;
        timers.shift();
        now = Math.max(now, next.at);
        next.fn();
      }
      now = end;
    },
  };
}

function sample(partial: Partial<BudgetSample> & { at: number }): BudgetSample {
  return {
    vendor: 'demo',
    endpoint: 'listAssets',
    status: 200,
    limit: 20,
    remaining: 10,
    reset: 0,
    latencyMs: 5,
    waitedMs: 0,
    attempt: 1,
    headerProblems: [],
    ...partial,
  };
}

const sum = (aggs: readonly BudgetAggregate[], pick: (a: BudgetAggregate) => number) => aggs.reduce((n, a) => n + pick(a), 0);

function perSecond(aggs: readonly BudgetAggregate[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const a of aggs) out.set(a.from, (out.get(a.from) ?? 0) + a.requests);
  return out;
}

describe('answers binned by the server second', () => {
  it('puts 38 answers that arrive together (a stalled event loop) into the two seconds the server counted them in', () => {
    const clock = manualClock(T0 + 1900);
    const t = createTelemetry({ clock });
    const events: BudgetEventPayload[] = [];
    t.onBudget((p) => events.push(p));
    // The server counted 20 in second T0 and 18 in T0+1; all the answers land here within 1 ms, in second T0+1.
    for (let i = 0; i < 38; i++) {
      const second = i < 20 ? T0 : T0 + 1000;
      t.record(sample({ at: T0 + 1900, serverSecond: second, remaining: i < 20 ? 19 - i : 39 - i }));
    }
    clock.advance(100);
    const live = events.flatMap((e) => e.aggregates);
    const history = t.budgetHistory(0).aggregates;
    for (const aggs of [live, history]) {
      expect([...perSecond(aggs)]).toEqual([
        [T0, 20],
        [T0 + 1000, 18],
      ]);
      // Every aggregate is one whole second.
      for (const a of aggs) expect(a.to - a.from).toBe(1000);
    }
    t.dispose();
  });

  it('bins by arrival when the Date is missing or too far from our clock to believe', () => {
    const clock = manualClock();
    const t = createTelemetry({ clock });
    t.record(sample({ at: T0 + 300, serverSecond: T0 + 12_000 }));
    t.record(sample({ at: T0 + 1300, serverSecond: null }));
    expect([...perSecond(t.budgetHistory(0).aggregates)]).toEqual([
      [T0, 1],
      [T0 + 1000, 1],
    ]);
    t.dispose();
  });

  it('counts an answer that arrives after the next second began in its own second', () => {
    const clock = manualClock();
    const t = createTelemetry({ clock });
    t.record(sample({ at: T0 + 10, serverSecond: T0 }));
    t.record(sample({ at: T0 + 2010, serverSecond: T0 + 2000 }));
    t.record(sample({ at: T0 + 2020, serverSecond: T0 + 1000 })); // overtaken: counted in T0+1
    expect([...perSecond(t.budgetHistory(0).aggregates)]).toEqual([
      [T0, 1],
      [T0 + 1000, 1],
      [T0 + 2000, 1],
    ]);
    t.dispose();
  });
});

describe('history and live events join exactly', () => {
  it('a page that asks for history in the middle of traffic, then applies later events, counts every request once', () => {
    const clock = manualClock();
    const t = createTelemetry({ clock, batchIntervalMs: 50 });
    const events: BudgetEventPayload[] = [];
    t.onBudget((p) => events.push(p));
    let recorded = 0;
    let joined: { aggregates: BudgetAggregate[]; seq: number } | null = null;
    for (let ms = 0; ms < 4000; ms += 7) {
      t.record(sample({ at: clock.now(), serverSecond: Math.floor(clock.now() / 1000) * 1000 }));
      recorded += 1;
      // The page opens in the middle of a second, between two events, with a batch pending.
      if (ms === 2002) joined = t.budgetHistory(0);
      clock.advance(7);
    }
    clock.advance(100);
    expect(joined).not.toBeNull();
    const page = [...joined!.aggregates, ...events.filter((e) => e.seq > joined!.seq).flatMap((e) => e.aggregates)];
    const everything = events.flatMap((e) => e.aggregates);
    expect(sum(page, (a) => a.requests)).toBe(recorded);
    expect([...perSecond(page)].sort()).toEqual([...perSecond(everything)].sort());
    t.dispose();
  });
});

describe('wait figures', () => {
  it('counts overlapping waits once as time held back, and keeps the waits per class for a p95', () => {
    const clock = manualClock();
    const t = createTelemetry({ clock });
    // Ten requests queued together at T0, sent one every 100 ms: each waited k*100 ms, the bucket was held back 900 ms.
    for (let k = 0; k < 10; k++) t.record(sample({ at: T0 + k * 100 + 5, latencyMs: 5, waitedMs: k * 100, serverSecond: T0 }));
    const [agg] = t.budgetHistory(0).aggregates;
    expect(agg!.waitedMs).toBe(4500);
    expect(agg!.heldMs).toBe(900);
    expect(sum([agg!], (a) => a.waitBins.reduce((n, b) => n + b, 0))).toBe(10);
    expect(waitQuantileMs(agg!.waitBins, 0.95)).toBe(1000);
    expect(waitQuantileMs(agg!.waitBins, 0.5)).toBe(500);
    t.dispose();
  });
});

/**
 * Our client at the limit and, optionally, another consumer on the same bucket, run through the
 * simulator's own budget arithmetic; returns the foreign use the telemetry found and the slots the
 * other consumer really took.
 */
function atTheLimit(model: RefillModelHint, hint: RefillModelHint | null, otherRps: number, seconds = 6): { found: number; taken: number } {
  const clock = manualClock();
  const t = createTelemetry({ clock, refillModel: () => hint, inFlight: () => 0 });
  const check = model === 'whole-second' ? checkWholeSecond : checkContinuous;
  const limit = 20;
  let state: BucketState | undefined;
  let taken = 0;
  const events: { at: number; ours: boolean }[] = [];
  // Our client sends at the limit, spread over each second; the other consumer at otherRps.
  for (let i = 0; i < limit * seconds; i++) events.push({ at: T0 + 3 + Math.floor((i * 1000) / limit), ours: true });
  for (let i = 0; i < otherRps * seconds; i++) events.push({ at: T0 + 11 + Math.floor((i * 1000) / otherRps), ours: false });
  events.sort((a, b) => a.at - b.at);
  for (const e of events) {
    const result = check(state, limit, e.at);
    state = result.state;
    if (!e.ours) {
      if (result.decision.allowed) taken += 1;
      continue;
    }
    const d = result.decision;
    t.record(
      sample({
        at: e.at + 2,
        latencyMs: 2,
        status: d.allowed ? 200 : 429,
        limit: d.limit,
        remaining: d.remaining,
        reset: d.reset,
        serverSecond: Math.floor(e.at / 1000) * 1000,
      }),
    );
  }
  const found = sum(t.budgetHistory(0).aggregates, (a) => a.foreignUse);
  t.dispose();
  return { found, taken };
}

describe('another consumer while this app runs at the limit', () => {
  for (const model of ['whole-second', 'continuous'] as const) {
    it(`is found in the ${model} model, and never claimed of our own traffic alone`, () => {
      const alone = atTheLimit(model, model, 0);
      expect(alone.found).toBe(0);
      const shared = atTheLimit(model, model, 5);
      expect(shared.taken).toBeGreaterThan(10);
      // Found, and never more than the other consumer really took.
      expect(shared.found).toBeGreaterThan(shared.taken / 3);
      expect(shared.found).toBeLessThanOrEqual(shared.taken);
    });
  }

  it('with the model unknown: found in the whole-second service, never more than taken, nothing of our own', () => {
    expect(atTheLimit('whole-second', null, 0).found).toBe(0);
    expect(atTheLimit('continuous', null, 0).found).toBe(0);
    const shared = atTheLimit('whole-second', null, 5);
    expect(shared.found).toBeGreaterThan(0);
    expect(shared.found).toBeLessThanOrEqual(shared.taken);
    expect(atTheLimit('continuous', null, 5).found).toBeLessThanOrEqual(atTheLimit('continuous', null, 5).taken);
  });
});
