/** The Budget charts' time axis: round clock labels, as many as fit, and only the time the app has data for. */
import { describe, expect, it } from 'vitest';
import { timeAxis, timeTicks } from '../../../renderer/src/views/budget/LiveChart';
import { chartTick } from '../../../renderer/src/lib/chart-time';
import { axisFrom } from '../../../renderer/src/views/budget/BudgetCharts';

const T = Date.UTC(2026, 10, 22, 12, 0, 0);

describe('timeTicks', () => {
  it('puts labels on round clock times, as many as the width holds (more than two on a narrow panel)', () => {
    const ticks = timeTicks(T, T + 5 * 60_000, 200);
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    expect(ticks.length).toBeLessThanOrEqual(6);
    for (const t of ticks) expect(t % 60_000).toBe(0);
    expect(timeTicks(T, T + 60 * 60_000, 600).every((t) => t % (5 * 60_000) === 0)).toBe(true);
  });

  it('gives a narrow panel (a fifth of 1440 px: 165 px of plot; a third of 1024 px: 217) three or more labels at every live range, none overlapping', () => {
    for (const widthPx of [165, 217, 300]) {
      for (const min of [1, 5, 15, 60]) {
        for (const offset of [0, 7_300, 31_000]) {
          const from = T + offset;
          const to = from + min * 60_000;
          const { ticks, stepMs } = timeAxis(from, to, widthPx);
          expect(ticks.length, `${min} min in ${widthPx} px`).toBeGreaterThanOrEqual(3);
          // 10 px tabular digits as drawn (DejaVu Sans): "15:04" 29 px, "15:04:05" 46 px; and a gap between labels.
          const widest = Math.max(...ticks.map((t) => (chartTick(t, to - from, stepMs).length > 5 ? 46 : 29) + 3));
          expect((stepMs / (to - from)) * widthPx, `${min} min in ${widthPx} px`).toBeGreaterThan(widest);
        }
      }
    }
  });

  it('labels whole minutes as "15:04" and finer steps with seconds, 24-hour', () => {
    const at = new Date(2026, 10, 22, 15, 4, 0).getTime();
    expect(chartTick(at, 5 * 60_000, 60_000)).toBe('15:04');
    expect(chartTick(at + 20_000, 60_000, 20_000)).toBe('15:04:20');
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
