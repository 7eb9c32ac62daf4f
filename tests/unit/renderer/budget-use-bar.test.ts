/** The Budget table's utilisation bar: the whole budget's use (ours + others'), coloured on the Overview's scale. */
import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../../shared/endpoints';
import { BudgetSeconds } from '../../../renderer/src/live/budget-seconds';
import type { BudgetAggregate } from '../../../renderer/src/live/budget-seconds';
import { endpointRow } from '../../../renderer/src/views/budget/budget-model';
import { bandOfUse, percentLabel } from '../../../renderer/src/views/budget/use-bands';
import { overviewCell } from '../../../renderer/src/views/overview/overview-model';

const S = 1_700_000_040_000;
const NOW = S + 60_000 + 700; // the seconds S .. S+59 s are complete

function second(t: number, over: Partial<BudgetAggregate> = {}): BudgetAggregate {
  return {
    vendor: 'demo',
    endpoint: 'listAssets',
    from: t,
    to: t + 1000,
    requests: 0,
    rateLimited: 0,
    errors: 0,
    limit: 20,
    remaining: 0,
    minRemaining: 0,
    reset: 1,
    waitedMs: 0,
    latencyMsSum: 0,
    latencyMsMax: 0,
    foreignUse: 0,
    waitBins: [],
    heldMs: 0,
    unanswered: 0,
    ...over,
  };
}

function steady(over: (i: number) => Partial<BudgetAggregate>): BudgetSeconds {
  const store = new BudgetSeconds();
  store.ingest(
    Array.from({ length: 60 }, (_, i) => second(S + i * 1000, over(i))),
    1,
  );
  return store;
}

const row = (store: BudgetSeconds) =>
  endpointRow({ store, vendor: 'demo', spec: ENDPOINTS.listAssets, bucket: undefined, now: NOW, rangeMs: 5 * 60_000, reach: 'answering' });

describe('Budget utilisation bar', () => {
  it("is this app's use plus the others' over the same 5 s: 1.2 of 20/s beside another consumer's 18/s reads 96%, not a green 6%", () => {
    const r = row(steady((i) => ({ requests: i % 5 === 0 ? 2 : 1, foreignUse: 18 })));
    expect(r.utilisation).toBeCloseTo(0.06);
    expect(r.othersUse).toBeCloseTo(0.9);
    expect(r.totalUse).toBeCloseTo(0.96);
    expect(percentLabel(r.totalUse)).toBe('96%');
    expect(bandOfUse(r.totalUse, r.recent429)).toBe('warn');
  });

  it('is coloured as the Overview colours the same endpoint: 54% ours and 40% others is a warning on both', () => {
    const store = steady(() => ({ requests: 11, foreignUse: 8 }));
    const r = row(store);
    expect(r.utilisation).toBeCloseTo(0.55);
    const cell = overviewCell({ store, vendor: 'demo', spec: ENDPOINTS.listAssets, now: NOW, alerts: [], fleet: null });
    expect(bandOfUse(r.totalUse, r.recent429)).toBe('warn');
    expect(cell.band).toBe(bandOfUse(r.totalUse, r.recent429));
  });

  it('is at the limit with a 429 in its window, and only then', () => {
    const store = steady((i) => (i === 58 ? { requests: 6, rateLimited: 1 } : { requests: 5 }));
    const r = row(store);
    expect(r.recent429).toBe(1);
    expect(bandOfUse(r.totalUse, r.recent429)).toBe('limit');
    expect(bandOfUse(row(steady(() => ({ requests: 5 }))).totalUse, 0)).toBe('low');
  });
});
