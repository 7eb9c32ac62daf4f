/**
 * Copies that join a fleet already running: 2 copies start, 4 more join at 12 s, 60 s on the manual
 * clock. Over the last 30 s (all six long settled) the shares must be fair again and the budget used:
 * the first two must not keep the share they found when they were alone together.
 */
import { describe, expect, it } from 'vitest';
import type { FakeRefill } from '../../electron/client/testing/fake-partner';
import { jainIndex, runFleetModel } from '../../electron/client/testing/fleet-model';

const LIMIT = 20;
const FROM_SECOND = 30;

describe('a fleet that grows: 2 copies, 4 more join at 12 s', () => {
  it.each<FakeRefill>(['whole-second', 'continuous'])('%s: over the last 30 s Jain >= 0.85, goodput >= 0.9, nobody gives up', async (refill) => {
    const r = await runFleetModel({ copies: 6, refill, seconds: 60, startsMs: [0, 0, 12_000, 12_000, 12_000, 12_000] });
    const late = r.timeline.map((row) => row.slice(FROM_SECOND, 60).reduce((a, b) => a + b, 0));
    expect(r.gaveUp).toBe(0);
    expect(jainIndex(late)).toBeGreaterThanOrEqual(0.85);
    expect(late.reduce((a, b) => a + b, 0) / ((60 - FROM_SECOND) * LIMIT)).toBeGreaterThanOrEqual(0.9);
  });
});
