/**
 * The display estimate of others' use against a deterministic model of the server (the real client at
 * 100% on the fake service, manual clock), in both refill models: a competitor steady at 8/s is read
 * within 10% of the slots the server counted for it over 30 s, in every 10 s stretch too (no swing),
 * and our own traffic alone reads exactly 0, so the target is never met by inflating the estimate.
 */
import { describe, expect, it } from 'vitest';
import { ForeignUseDetector } from '../../electron/telemetry/foreign-use';
import { WholeSecondForeignUse } from '../../electron/telemetry/foreign-whole-second';
import type { BudgetSample } from '../../shared/rate-limit';
import { ALONE_START, aloneSample as alone, runForeignModel, sumOver } from '../helpers/foreign-use-model';

describe("others' use estimated from our answers (deterministic server model)", () => {
  for (const refill of ['whole-second', 'continuous'] as const) {
    it(`${refill}: a competitor at 8/s is read within 10% over 30 s and in each 10 s; alone reads 0`, async () => {
      for (const phase of [0, 110]) {
        const run = await runForeignModel({ refill, seconds: 40, competitorRps: 8, competitorPhaseMs: phase });
        // The client's first seconds share by trial; steady from about the sixth.
        const from = run.start + 8000;
        const counted = sumOver(run.counted, from, from + 30_000);
        const estimated = sumOver(run.estimated, from, from + 30_000);
        expect(counted).toBeGreaterThan(200);
        expect(Math.abs(estimated - counted), `${refill}, phase ${phase}: estimated ${estimated.toFixed(1)} of ${counted}`).toBeLessThanOrEqual(0.1 * counted);
        // Stable: each 10 s stretch on its own is within the same tolerance.
        for (let i = 0; i < 3; i++) {
          const c = sumOver(run.counted, from + i * 10_000, from + (i + 1) * 10_000);
          const e = sumOver(run.estimated, from + i * 10_000, from + (i + 1) * 10_000);
          expect(Math.abs(e - c), `${refill}, phase ${phase}, stretch ${i}: ${e.toFixed(1)} of ${c}`).toBeLessThanOrEqual(0.1 * c);
        }
      }
      const alone = await runForeignModel({ refill, seconds: 20, competitorRps: 0 });
      expect(sumOver(alone.ours, alone.start, alone.start + 20_000)).toBeGreaterThan(300);
      expect(sumOver(alone.estimated, 0, Infinity)).toBe(0);
    }, 30_000);
  }
});

describe("others' use in the continuous model where the bucket may have reached its cap", () => {
  it('claims nothing of our own answers that the refill explains without the cap', () => {
    const detector = new ForeignUseDetector({ refillModel: () => 'continuous', inFlight: () => 0 });
    const t0 = 1_700_000_000_000;
    const at = (ms: number, remaining: number): BudgetSample => ({
      vendor: 'demo',
      endpoint: 'categories',
      at: t0 + ms,
      serverSecond: null,
      status: 200,
      limit: 20,
      remaining,
      reset: 0,
      latencyMs: 10,
      waitedMs: 0,
      attempt: 1,
      headerProblems: [],
    });
    // Allowance 0.0 after the first; 940 ms at 20/s refill 18.8, we take 1: 17.8 left (Remaining 17). The cap (20)
    // might have been reached by the most the readings allow, but it need not have been: nothing of others is proved.
    expect(detector.observe(at(0, 0))).toBe(0);
    expect(detector.observe(at(940, 17))).toBe(0);
  });
});

describe("others' use in the whole-second model with a request of ours that got no answer", () => {
  it('takes the unanswered request for ours in the second its flight overlaps', () => {
    const detector = new ForeignUseDetector({ refillModel: () => 'whole-second', inFlight: () => 0 });
    const S = 1_700_000_000_000;
    const answer = (ms: number, status: number, remaining: number | null): BudgetSample => ({
      vendor: 'demo',
      endpoint: 'categories',
      at: S + ms,
      serverSecond: status === 0 ? null : S,
      status,
      limit: status === 0 ? null : 20,
      remaining,
      reset: 0,
      latencyMs: 4,
      waitedMs: 0,
      attempt: 1,
      headerProblems: [],
    });
    let found = 0;
    // Our 20 requests of one server second; the 10th timed out here but the server counted it (Remaining 10 never seen); then a 429.
    for (let k = 1; k <= 20; k++) found += detector.observe(k === 10 ? answer(k * 40, 0, null) : answer(k * 40, 200, 20 - k));
    found += detector.observe(answer(900, 429, 0));
    found += detector.observe({ ...answer(1100, 200, 19), serverSecond: S + 1000 });
    expect(found).toBe(0);
  });
});

describe("others' use in the whole-second model when an answer of ours comes late", () => {
  it('files it under its Date second, however late it came', () => {
    let inFlight = 1; // the late one, until its answer is read
    const detector = new ForeignUseDetector({ refillModel: () => 'whole-second', inFlight: () => inFlight });
    const S = 1_700_000_000_000;
    const answer = (ms: number, latencyMs: number, second: number, remaining: number): BudgetSample => ({
      vendor: 'demo',
      endpoint: 'categories',
      at: S + ms,
      serverSecond: second,
      status: 200,
      limit: 20,
      remaining,
      reset: 0,
      latencyMs,
      waitedMs: 0,
      attempt: 1,
      headerProblems: [],
    });
    let found = 0;
    // Our 20 requests of one server second; the answer to the 10th was read 2.5 s late (a busy event loop).
    for (let k = 1; k <= 20; k++) if (k !== 10) found += detector.observe(answer(k * 40, 4, S, 20 - k));
    inFlight = 0;
    found += detector.observe(answer(2900, 2504, S, 10));
    found += detector.observe(answer(3100, 4, S + 3000, 19));
    expect(found).toBe(0);
  });
});

describe("others' use in the whole-second model with an answer of ours whose headers cannot be read", () => {
  it('takes the request for ours (the server counted it), not for another consumer', () => {
    const detector = new ForeignUseDetector({ refillModel: () => 'whole-second', inFlight: () => 0 });
    const S = 1_700_000_000_000;
    const answer = (ms: number, status: number, remaining: number | null, garbled = false): BudgetSample => ({
      vendor: 'demo',
      endpoint: 'categories',
      at: S + ms,
      serverSecond: S,
      status,
      limit: garbled ? null : 20,
      remaining: garbled ? null : remaining,
      reset: 0,
      latencyMs: 4,
      waitedMs: 0,
      attempt: 1,
      headerProblems: garbled ? ['X-Rate-Limit-Remaining: not a number'] : [],
    });
    let found = 0;
    // Our 20 requests of one server second; the answers to the 5th and the 12th came with garbled rate headers.
    for (let k = 1; k <= 20; k++) found += detector.observe(answer(k * 40, 200, 20 - k, k === 5 || k === 12));
    found += detector.observe(answer(900, 429, 0));
    found += detector.observe({ ...answer(1100, 200, 19), serverSecond: S + 1000 });
    expect(found).toBe(0);
  });
});

describe("others' use in the whole-second model when the Date header misleads", () => {
  const S = ALONE_START;

  it('a Date frozen for 10,000 answers: no throw, what is kept stays bounded, and alone still reads 0', () => {
    const detector = new ForeignUseDetector({ refillModel: () => 'whole-second', inFlight: () => 0 });
    const estimate = new WholeSecondForeignUse();
    let found = 0;
    let most = 0;
    for (let k = 0; k < 10_000; k++) {
      const sample = alone(k, () => S);
      found += detector.observe(sample);
      found += estimate.observe(sample, S, 0, 0);
      most = Math.max(most, estimate.held);
    }
    expect(found).toBe(0);
    // One second of our answers at most (its limit), however long the Date stays frozen.
    expect(most).toBeLessThanOrEqual(10);
  });

  it('one Date far in the future among normal ones is not filed under its own second: alone still reads 0', () => {
    const detector = new ForeignUseDetector({ refillModel: () => 'whole-second', inFlight: () => 0 });
    const farOff = Date.UTC(2100, 0, 1);
    let found = 0;
    for (let k = 0; k < 300; k++) found += detector.observe(alone(k, (at) => (k === 105 ? farOff : Math.floor(at / 1000) * 1000)));
    expect(found).toBe(0);
  });
});

describe("others' use of one vendor on two servers", () => {
  it('each server has its own estimate: another consumer on one is read there, and the other reads 0', () => {
    const serverOf = new WeakMap<BudgetSample, string>();
    const found = new Map<string, number>();
    const detector = new ForeignUseDetector({ refillModel: () => 'whole-second', inFlight: () => 0, serverOf: (s) => serverOf.get(s) ?? null });
    const S = 1_700_000_000_000;
    const answer = (server: string, ms: number, remaining: number, status = 200): BudgetSample => {
      const sample: BudgetSample = {
        vendor: 'demo',
        endpoint: 'categories',
        at: S + ms,
        serverSecond: S + Math.floor(ms / 1000) * 1000,
        status,
        limit: 20,
        remaining,
        reset: 0,
        latencyMs: 4,
        waitedMs: 0,
        attempt: 1,
        headerProblems: [],
      };
      serverOf.set(sample, server);
      return sample;
    };
    const feed = (sample: BudgetSample) => found.set(serverOf.get(sample)!, (found.get(serverOf.get(sample)!) ?? 0) + detector.observe(sample));
    // Three seconds on each: at A another consumer takes 10 slots before our 10 (then a 429); at B we are alone with 20.
    for (let second = 0; second < 3000; second += 1000) {
      for (let k = 1; k <= 20; k++) {
        if (k <= 10) feed(answer('https://a.example', second + k * 40, 10 - k));
        feed(answer('https://b.example', second + k * 40 + 10, 20 - k));
      }
      feed(answer('https://a.example', second + 900, 0, 429));
    }
    feed(answer('https://a.example', 3100, 19));
    feed(answer('https://b.example', 3110, 19));
    expect(found.get('https://a.example')).toBe(30);
    expect(found.get('https://b.example')).toBe(0);
  });
});
