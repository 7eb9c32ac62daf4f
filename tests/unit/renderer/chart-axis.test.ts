/** The Budget charts' time axis: round clock labels, as many as fit, and only the time the app has data for. */
import { describe, expect, it } from 'vitest';
import { timeTicks } from '../../../renderer/src/views/budget/LiveChart';
import { axisFrom } from '../../../renderer/src/views/budget/BudgetCharts';

const T = Date.UTC(2026, 10, 22, 12, 0, 0);

describe('timeTicks', () => {
  it('puts labels on round clock times, as many as the width holds (more than two on a narrow panel)', () => {
    const ticks = timeTicks(T, T + 5 * 60_000, 200);
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    expect(ticks.length).toBeLessThanOrEqual(4);
    for (const t of ticks) expect(t % 60_000).toBe(0);
    expect(timeTicks(T, T + 60 * 60_000, 600).every((t) => t % (5 * 60_000) === 0)).toBe(true);
  });
});

describe('axisFrom', () => {
  it('spans the range once the app has data for all of it', () => {
    expect(axisFrom(T, 3_600_000, T - 4_000_000)).toBe(T - 3_600_000);
  });

  it('spans only the time the app has data for (at least a minute) at 60 minutes, and grows with it', () => {
    expect(axisFrom(T, 3_600_000, T - 600_000)).toBe(T - 600_000);
    expect(axisFrom(T, 3_600_000, T - 10_000)).toBe(T - 60_000);
    expect(axisFrom(T, 3_600_000, null)).toBe(T - 3_600_000);
  });
});
