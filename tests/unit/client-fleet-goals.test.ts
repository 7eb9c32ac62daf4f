/**
 * Issue 10's fleet goals on the manual clock (a deterministic simulation, not timing): N copies with
 * their own registries share one budget through headers alone, under both refill models: for 60 s
 * from a common start, and on the issue's own workload (every copy downloads the same catalog, 250
 * pages; they finish at different times and the fleet's time runs until the last one); and one
 * download beside a competing consumer of the vendor that never backs off.
 */
import { describe, expect, it } from 'vitest';
import type { FakeRefill } from '../../electron/client/testing/fake-partner';
import type { FleetModelResult } from '../../electron/client/testing/fleet-model';
import { runFleetModel } from '../../electron/client/testing/fleet-model';

function expectGoals(r: FleetModelResult, max429: number, minGoodput: number, minJain = 0.9): void {
  expect(r.gaveUp).toBe(0);
  expect(r.share429).toBeLessThanOrEqual(max429);
  expect(r.goodput).toBeGreaterThanOrEqual(minGoodput);
  expect(r.jain).toBeGreaterThanOrEqual(minJain);
}

describe.each<FakeRefill>(['whole-second', 'continuous'])('a fleet on the manual clock (%s)', (refill) => {
  it('a lone copy: the full limit, no 429', async () => {
    expectGoals(await runFleetModel({ copies: 1, refill }), 0, 0.98);
  });

  // Over five seeds: one seed is one trajectory of a chaotic system, and a change that meets the goals
  // more often over many seeds can miss them in any single one.
  it.each([4, 8])('%i copies: 429s <= 1%, goodput >= 0.9, Jain >= 0.9 in at least 4 of 5 seeds, none far off', async (copies) => {
    const runs: FleetModelResult[] = [];
    for (const seed of [42, 1, 2, 3, 4]) runs.push(await runFleetModel({ copies, refill, seed }));
    expect(runs.filter((r) => r.gaveUp === 0 && r.share429 <= 0.01 && r.goodput >= 0.9 && r.jain >= 0.9).length).toBeGreaterThanOrEqual(4);
    for (const r of runs) expectGoals(r, 0.015, 0.85, 0.85);
  });

  it('16 copies from a common start, 60 s: nobody gives up, goodput >= 0.9, Jain >= 0.9, 429s <= 3%', async () => {
    // Most of these 429s come in the first seconds, before the copies have found each other (the first
    // second alone has 8-10 of them, whatever the pacing); the 2% is asserted on its own
    // workload below, where a fleet runs for minutes.
    expectGoals(await runFleetModel({ copies: 16, refill }), 0.03, 0.9);
  });

  it.each([
    [4, 0.01],
    [8, 0.01],
    [16, 0.02],
  ])(
    "the issue's workload, %i copies of 250 pages each: nobody gives up, 429s <= %s, goodput >= 0.9 until the last one finished, Jain >= 0.9",
    async (copies, max429) => {
      // The whole catalog at the limit takes 250 * copies / 20 s.
      expectGoals(await runFleetModel({ copies, refill, seconds: (250 * copies) / 20, fixedWork: true }), max429, 0.9);
    },
  );

  it('a download beside a competitor at 8 of 20/s: >= 0.9 of what it leaves, vendor-wide 429s <= 2%', async () => {
    const r = await runFleetModel({ copies: 1, refill, competitorRps: 8 });
    expect(r.gaveUp).toBe(0);
    expect(r.goodput).toBeGreaterThanOrEqual(0.9);
    expect(r.share429).toBeLessThanOrEqual(0.02);
  });
});
