/**
 * Issue 10's fleet goals on the manual clock (a deterministic simulation, not timing): N copies with
 * their own registries share one budget through headers alone for 60 s. `it.fails` marks a goal the
 * model does not reach yet (it turns red once it does, so the mark is removed then).
 */
import { describe, expect, it } from 'vitest';
import type { FakeRefill } from '../../electron/client/testing/fake-partner';
import type { FleetModelResult } from '../../electron/client/testing/fleet-model';
import { runFleetModel } from '../../electron/client/testing/fleet-model';

function expectGoals(r: FleetModelResult, max429: number, minGoodput: number): void {
  expect(r.gaveUp).toBe(0);
  expect(r.share429).toBeLessThanOrEqual(max429);
  expect(r.goodput).toBeGreaterThanOrEqual(minGoodput);
  expect(r.jain).toBeGreaterThanOrEqual(0.9);
}

describe.each<FakeRefill>(['whole-second', 'continuous'])('a fleet on the manual clock (%s)', (refill) => {
  it('a lone copy: the full limit, no 429', async () => {
    expectGoals(await runFleetModel({ copies: 1, refill }), 0, 0.98);
  });

  it('4 copies: 429s <= 1%, goodput >= 0.9, Jain >= 0.9', async () => {
    expectGoals(await runFleetModel({ copies: 4, refill }), 0.01, 0.9);
  });

  // Whole-second: 1.08% of the requests are 429s (goal 1%).
  (refill === 'whole-second' ? it.fails : it)('8 copies: 429s <= 1%, goodput >= 0.9, Jain >= 0.9', async () => {
    expectGoals(await runFleetModel({ copies: 8, refill }), 0.01, 0.9);
  });

  // Known gap: 7.4% (whole-second) and 2.6% (continuous) 429s, most while the copies find each other.
  it.fails('16 copies: 429s <= 2%, goodput >= 0.9, Jain >= 0.9', async () => {
    expectGoals(await runFleetModel({ copies: 16, refill }), 0.02, 0.9);
  });
});
