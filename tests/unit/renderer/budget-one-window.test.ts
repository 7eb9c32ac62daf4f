/** The Budget view averages every rate over one window, stated once: the panels, the table and the tooltip agree. */
import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../../shared/endpoints';
import { BudgetSeconds } from '../../../renderer/src/live/budget-seconds';
import type { BudgetAggregate } from '../../../renderer/src/live/budget-seconds';
import { chartSeries, endpointRow, RANGES_MIN, RATE_WINDOW_S } from '../../../renderer/src/views/budget/budget-model';
import { AVERAGE_WINDOW_NOTE, AVERAGE_WINDOW_S } from '../../../renderer/src/views/budget/averaging-window';
import { panelRateCaption } from '../../../renderer/src/views/budget/BudgetCharts';
import { tooltipRateCaption } from '../../../renderer/src/views/budget/LiveChart';
import { pausedNote } from '../../../renderer/src/views/budget/paused-note';

const S = 1_700_000_000_000;
const spec = ENDPOINTS.listAssets; // limit 20

function second(t: number, requests: number): BudgetAggregate {
  return {
    vendor: 'demo',
    endpoint: 'listAssets',
    from: t,
    to: t + 1000,
    requests,
    rateLimited: 0,
    errors: 0,
    limit: 20,
    remaining: 20 - requests,
    minRemaining: 20 - requests,
    reset: 1,
    waitedMs: 0,
    latencyMsSum: 0,
    latencyMsMax: 0,
    foreignUse: 0,
    waitBins: [requests],
    heldMs: 0,
    unanswered: 0,
  };
}

/** An hour and a bit of traffic that changes every second (0..19 req/s), so that two windows never read the same. */
function busyStore(): { store: BudgetSeconds; now: number } {
  const store = new BudgetSeconds();
  const seconds = 3700;
  store.ingest(
    Array.from({ length: seconds }, (_, i) => second(S + i * 1000, (i * 7) % 20)),
    1,
  );
  return { store, now: S + seconds * 1000 + 700 };
}

describe('one averaging window on the Budget view', () => {
  it('the table, the panels and the tooltip take it from one constant, and the view states it', () => {
    expect(RATE_WINDOW_S).toBe(AVERAGE_WINDOW_S);
    const caption = `${AVERAGE_WINDOW_S}\u00a0s avg`;
    expect(panelRateCaption({ windowS: AVERAGE_WINDOW_S })).toContain(caption);
    expect(tooltipRateCaption({ windowS: AVERAGE_WINDOW_S })).toContain(caption);
    expect(AVERAGE_WINDOW_NOTE).toBe(`Rates average over ${AVERAGE_WINDOW_S} s`);
  });

  it("at every range, a panel averages over that window, and its last point is the table row's Req/s", () => {
    const { store, now } = busyStore();
    for (const min of RANGES_MIN) {
      const rangeMs = min * 60_000;
      const chart = chartSeries(store, 'demo', spec, now, rangeMs);
      const row = endpointRow({ store, vendor: 'demo', spec, bucket: undefined, now, rangeMs, reach: 'answering' });
      expect(chart.windowS, `${min} min`).toBe(AVERAGE_WINDOW_S);
      expect(chart.points.at(-1)?.rps, `${min} min`).toBeCloseTo(row.rps, 9);
    }
  });

  it('every point averages the window ending with it, on long ranges too (points never longer than the window)', () => {
    const { store, now } = busyStore();
    for (const min of RANGES_MIN) {
      const chart = chartSeries(store, 'demo', spec, now, min * 60_000);
      expect(chart.slotMs).toBeLessThanOrEqual(AVERAGE_WINDOW_S * 1000);
      for (const p of chart.points.slice(-20)) {
        const endS = (p.t + chart.slotMs - S) / 1000;
        let sum = 0;
        for (let i = endS - AVERAGE_WINDOW_S; i < endS; i++) sum += (i * 7) % 20;
        expect(p.rps).toBeCloseTo(sum / AVERAGE_WINDOW_S, 9);
      }
    }
  });
});

describe('pause', () => {
  it('says when the figures froze and that they are frozen', () => {
    const at = new Date(2026, 0, 2, 12, 3, 4).getTime();
    expect(pausedNote(at)).toMatch(/^Paused at 12:03:04: figures frozen/);
  });
});
