/**
 * A fleet whose copies start together just after the server's second turns (a scheduler at :00, the
 * fleet bench's processes): the first answers' Date says little about where that second ends. The
 * middle of the clock's bounds put its end up to half a second early, and every copy that deferred a
 * request to the next second sent it into the spent budget (6 of the 8 copies got a 429 in every run,
 * and the copies halved by it were left behind). 8 copies, the issue's short workload, seeds 1-8; started
 * mid-second, seeds 1-24; and across a network.
 */
import { describe, expect, it } from 'vitest';
import type { FleetModelOptions, FleetModelResult } from '../../electron/client/testing/fleet-model';
import { runFleetModel } from '../../electron/client/testing/fleet-model';

const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8];
/** Mid-second starts meet the goals in most seeds: over three times as many, one seed's luck weighs less. */
const MANY_SEEDS = Array.from({ length: 24 }, (_, i) => i + 1);
/** A service across a network: round trips of 40-60 ms. */
const NETWORK = { ms: 40, jitterMs: 20 };

function met(r: FleetModelResult): boolean {
  return r.gaveUp === 0 && r.goodput >= 0.9 && r.share429 <= 0.01 && r.jain >= 0.9;
}

async function shortRuns(startPhaseMs?: number, seeds = SEEDS, roundTrip?: FleetModelOptions['roundTrip']): Promise<FleetModelResult[]> {
  const runs: FleetModelResult[] = [];
  for (const seed of seeds) {
    runs.push(await runFleetModel({ copies: 8, refill: 'whole-second', seconds: 40, catalog: { items: 2_500, pageSize: 25 }, seed, startPhaseMs, roundTrip }));
  }
  return runs;
}

describe("the issue's short workload on the model (8 copies, 100 pages each, whole-second), over eight seeds", () => {
  it('started 50 ms after a whole second: at most half the 429s of the first two seconds that the middle of the bounds gave, and the goals in at least half the runs', async () => {
    const runs = await shortRuns(50);
    expect(runs.reduce((n, r) => n + r.startRefused, 0)).toBeLessThanOrEqual(24);
    expect(runs.filter(met).length).toBeGreaterThanOrEqual(4);
    for (const r of runs) expect(r.gaveUp).toBe(0);
  });

  it('started mid-second: the goals in at least 18 of 24 runs, none far off', async () => {
    const runs = await shortRuns(undefined, MANY_SEEDS);
    expect(runs.filter(met).length).toBeGreaterThanOrEqual(18);
    for (const r of runs) {
      expect(r.goodput).toBeGreaterThanOrEqual(0.88);
      expect(r.share429).toBeLessThanOrEqual(0.015);
      expect(r.jain).toBeGreaterThanOrEqual(0.9);
    }
  });

  // The forecast of the others' requests until ours lands spans a round trip more than from our answer
  // to our send (client-fleet-round-trip.test.ts); without it: goals in none of these runs, 1.26% 429s.
  it('across a network (round trips of 40-60 ms), started mid-second: the goals in at least 6 of 8 runs, 429s at most 1% on average', async () => {
    const runs = await shortRuns(undefined, SEEDS, NETWORK);
    expect(runs.filter(met).length).toBeGreaterThanOrEqual(6);
    expect(runs.reduce((sum, r) => sum + r.share429, 0) / runs.length).toBeLessThanOrEqual(0.01);
    for (const r of runs) expect(r.gaveUp).toBe(0);
  });

  // Where the round trip is not split evenly: the simulator's added latency all comes before it counts (1), a
  // service that counts on arrival and then works answers late (0.2). The Date bounds' middle then sits off the
  // midpoint by as much as the phase read at it, so the reckoning holds (now 6 and 4 of 8 runs, 0.53% and 0.85%
  // 429s; without it 2 and 1, 1.39% and 1.37%).
  it.each([1, 0.2])(
    'across a network with %f of the round trip before the count: the goals in at least 4 of 8 runs, 429s at most 1% on average',
    async (toServerShare) => {
      const runs = await shortRuns(undefined, SEEDS, { ...NETWORK, toServerShare });
      expect(runs.filter(met).length).toBeGreaterThanOrEqual(4);
      expect(runs.reduce((sum, r) => sum + r.share429, 0) / runs.length).toBeLessThanOrEqual(0.01);
      for (const r of runs) expect(r.gaveUp).toBe(0);
    },
  );
});
