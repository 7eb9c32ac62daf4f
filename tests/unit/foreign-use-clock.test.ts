/**
 * The whole-second estimate of others' use where the server's Date cannot be trusted answer by answer
 * (manual clock): a few far-off Dates in a row (a stale cache, a backend with a wrong clock behind a
 * load balancer) never show another consumer while we are alone, and a real step of the server's
 * clock is still taken, after which alone reads 0 and a competitor is read within 10%. Our answers not
 * filed under a second (those, and requests that got no answer) stay ours in the rate of others too.
 */
import { describe, expect, it } from 'vitest';
import { ForeignUseDetector } from '../../electron/telemetry/foreign-use';
import { aloneSample as alone, runForeignModel, sumOver } from '../helpers/foreign-use-model';

describe("others' use in the whole-second model when several Dates in a row are far off", () => {
  const trueSecond = (at: number): number => Math.floor(at / 1000) * 1000;
  for (const [where, farMs] of [
    ['an hour ahead', 3_600_000],
    ['10 minutes behind', -600_000],
  ] as const) {
    for (const run of [1, 2, 3, 5]) {
      it(`${run} Date(s) in a row ${where}, alone for 60 s: no other consumer`, () => {
        const detector = new ForeignUseDetector({ refillModel: () => 'whole-second', inFlight: () => 0 });
        const found: number[] = [];
        for (let k = 0; k < 600; k++) {
          const far = k >= 205 && k < 205 + run;
          found.push(detector.observe(alone(k, (at) => trueSecond(at) + (far ? farMs : 0))));
        }
        expect(found.filter((n) => n !== 0)).toEqual([]);
      });
    }
  }

  it('a backend with a wrong clock answering every other request: no other consumer', () => {
    const detector = new ForeignUseDetector({ refillModel: () => 'whole-second', inFlight: () => 0 });
    let found = 0;
    for (let k = 0; k < 600; k++) found += detector.observe(alone(k, (at) => Math.floor(at / 1000) * 1000 + (k % 2 === 1 && k > 100 ? 3_600_000 : 0)));
    expect(found).toBe(0);
  });
});

describe("others' use in the whole-second model when the server's clock steps for good", () => {
  const stepAfterMs = 12_000;
  const byMs = 3_600_250;

  it('alone, the step is taken and reads 0 throughout', async () => {
    const run = await runForeignModel({ refill: 'whole-second', seconds: 40, competitorRps: 0, serverStep: { afterMs: stepAfterMs, byMs } });
    // The server counted our answers under its new clock; the competitor test below shows the estimate follows it.
    expect(sumOver(run.ours, run.start + stepAfterMs + byMs, Infinity)).toBeGreaterThan(300);
    expect(sumOver(run.estimated, 0, Infinity)).toBe(0);
  }, 30_000);

  it('a competitor at 8/s is read within 10% after the step, over 20 s and in each 10 s', async () => {
    const run = await runForeignModel({ refill: 'whole-second', seconds: 50, competitorRps: 8, serverStep: { afterMs: stepAfterMs, byMs } });
    // Server time: the step is believed after about 2 s of answers that agree, then the estimate settles as at the start.
    const from = Math.ceil((run.start + stepAfterMs + byMs) / 1000) * 1000 + 8000;
    const counted = sumOver(run.counted, from, from + 20_000);
    const estimated = sumOver(run.estimated, from, from + 20_000);
    expect(counted).toBeGreaterThan(140);
    expect(Math.abs(estimated - counted), `estimated ${estimated.toFixed(1)} of ${counted}`).toBeLessThanOrEqual(0.1 * counted);
    for (let i = 0; i < 2; i++) {
      const c = sumOver(run.counted, from + i * 10_000, from + (i + 1) * 10_000);
      const e = sumOver(run.estimated, from + i * 10_000, from + (i + 1) * 10_000);
      expect(Math.abs(e - c), `stretch ${i}: ${e.toFixed(1)} of ${c}`).toBeLessThanOrEqual(0.1 * c);
    }
  }, 30_000);
});

describe("others' use in the whole-second model with our requests that got no answer, second after second", () => {
  it('alone at 10/s with every 7th request timed out (the server counted it) for 60 s: no other consumer', () => {
    const detector = new ForeignUseDetector({ refillModel: () => 'whole-second', inFlight: () => 0 });
    let found = 0;
    for (let k = 0; k < 600; k++) {
      const sample = alone(k, (at) => Math.floor(at / 1000) * 1000);
      found += detector.observe(k % 7 === 3 ? { ...sample, status: 0, serverSecond: null, limit: null, remaining: null } : sample);
    }
    expect(found).toBe(0);
  });
});

describe("others' use in the whole-second model when the server's clock is set back for good", () => {
  it('the step is taken: alone reads 0, and 5 slots of others each second are read after it', () => {
    for (const others of [0, 5]) {
      const detector = new ForeignUseDetector({ refillModel: () => 'whole-second', inFlight: () => 0 });
      const found = new Map<number, number>();
      for (let k = 0; k < 600; k++) {
        // Ours at 10/s on a limit of 20, after `others` slots taken at the start of each second; 10 min back from 20 s on.
        const sample = alone(k, (at) => Math.floor(at / 1000) * 1000 - (k >= 200 ? 600_000 : 0));
        const second = Math.floor(k / 10);
        found.set(second, (found.get(second) ?? 0) + detector.observe({ ...sample, limit: 20, remaining: 19 - others - (k % 10) }));
      }
      const after = [...found].filter(([second]) => second >= 30 && second < 59).reduce((n, [, v]) => n + v, 0);
      expect(Math.abs(after - others * 29), `${others}/s: ${after.toFixed(1)}`).toBeLessThanOrEqual(0.1 * others * 29);
      if (others === 0) expect([...found.values()].reduce((n, v) => n + v, 0)).toBe(0);
    }
  });
});
