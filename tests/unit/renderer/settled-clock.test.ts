/** The Budget view's one clock: the table's ticks and each panel's plot fall on the moment a second settles, whatever the timers' jitter. */
import { describe, expect, it } from 'vitest';
import { lastAlignedTick } from '../../../renderer/src/live/settled-clock';
import { completeBefore, SETTLE_MS } from '../../../renderer/src/views/budget/budget-model';

const S = 1_700_000_000_000;

describe('settled clock', () => {
  it('reads the due moment of the latest tick, not when the timer fired', () => {
    expect(lastAlignedTick(S + 600, 1000, 600)).toBe(S + 600);
    expect(lastAlignedTick(S + 1599, 1000, 600)).toBe(S + 600);
    expect(lastAlignedTick(S + 1600, 1000, 600)).toBe(S + 1600);
    expect(lastAlignedTick(S + 350, 500, 100)).toBe(S + 100);
  });

  it("gives the table (every 500 ms) and a staggered panel (once a second) the same complete second, the panel's stagger apart at most", () => {
    // Sampled every 10 ms over a few seconds: where the panel has drawn this second (past its stagger), both read one second.
    for (let t = S; t < S + 5000; t += 10) {
      const table = completeBefore(lastAlignedTick(t, 500, SETTLE_MS % 500));
      for (const stagger of [0, 40, 360]) {
        const panel = completeBefore(lastAlignedTick(t - stagger, 1000, SETTLE_MS));
        const settledAgo = (t - SETTLE_MS - S) % 1000;
        if (settledAgo >= stagger) expect(panel, `at ${t - S} ms, stagger ${stagger}`).toBe(table);
      }
    }
  });
});
