/**
 * Why held back (issue 22 §1), on the renderer's side: the CSV gets one column per cause (after the
 * existing ones, adding up to waited_ms),
 * the Wait tooltip says it in words, and a panel held back while Remaining > 0 says why.
 */
import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../../shared/endpoints';
import type { WaitCauses } from '../../../shared/wait-causes';
import { emptyWaitCauses, waitCausesTotal } from '../../../shared/wait-causes';
import { emptyWaitBins, waitBinOf } from '../../../shared/wait-bins';
import { BudgetSeconds } from '../../../renderer/src/live/budget-seconds';
import type { BudgetAggregate } from '../../../renderer/src/live/budget-seconds';
import { CSV_HEADER, csvRows, endpointRow } from '../../../renderer/src/views/budget/budget-model';
import { waitTitle } from '../../../renderer/src/views/budget/BudgetTable';
import { heldBackNote } from '../../../renderer/src/views/budget/wait-causes-words';

const S = 1_700_000_000_000;

function causes(over: Partial<WaitCauses>): WaitCauses {
  return { ...emptyWaitCauses(), ...over };
}

function second(t: number, over: Partial<BudgetAggregate> = {}): BudgetAggregate {
  return {
    vendor: 'demo',
    endpoint: 'listAssets',
    from: t,
    to: t + 1000,
    requests: 10,
    rateLimited: 0,
    errors: 0,
    limit: 20,
    remaining: 9,
    minRemaining: 8,
    reset: 1,
    waitedMs: 0,
    latencyMsSum: 50,
    latencyMsMax: 10,
    foreignUse: 8,
    waitBins: [],
    heldMs: 0,
    unanswered: 0,
    ...over,
  };
}

/** Five seconds beside a competitor: each second 600 ms held back, 1,000 ms of waits, 80% of them pacing for it. */
function competitorStore(): BudgetSeconds {
  const store = new BudgetSeconds();
  const waitBins = emptyWaitBins();
  waitBins[waitBinOf(100)] = 10;
  store.ingest(
    [0, 1, 2, 3, 4].map((i) => second(S + i * 1000, { waitedMs: 1000, waitBins, heldMs: 600, waitCauses: causes({ others: 800, window: 200 }) })),
    1,
  );
  return store;
}

describe('wait causes in the CSV', () => {
  it('one column per cause after the existing ones, adding up to waited_ms', () => {
    const store = new BudgetSeconds();
    store.ingest([second(S, { waitedMs: 1000, waitCauses: causes({ others: 750, window: 50, pause: 200 }) })], 1);
    const [row] = csvRows(store, 'demo', ['listAssets'], S, S + 1000);
    const at = (name: string): unknown => row![CSV_HEADER.indexOf(name as (typeof CSV_HEADER)[number])];
    // The existing columns keep their places; the new ones follow foreign_use.
    expect(CSV_HEADER.slice(0, 18).at(-1)).toBe('foreign_use');
    expect(CSV_HEADER.slice(18)).toEqual([
      'wait_others_pacing_ms',
      'wait_window_end_ms',
      'wait_budget_used_ms',
      'wait_429_pause_ms',
      'wait_store_ms',
      'wait_in_flight_ms',
    ]);
    expect(row!.length).toBe(CSV_HEADER.length);
    expect([at('wait_others_pacing_ms'), at('wait_window_end_ms'), at('wait_429_pause_ms'), at('wait_budget_used_ms')]).toEqual([750, 50, 200, 0]);
    const parts = CSV_HEADER.slice(18).reduce((sum, name) => sum + Number(at(name)), 0);
    expect(Math.abs(parts - Number(at('waited_ms')))).toBeLessThanOrEqual(0.05 * Number(at('waited_ms')));
  });
});

describe('wait causes in words', () => {
  it('the Wait tooltip says how long the endpoint was held back and why, largest cause first', () => {
    const r = endpointRow({
      store: competitorStore(),
      vendor: 'demo',
      spec: ENDPOINTS.listAssets,
      bucket: undefined,
      now: S + 5700,
      rangeMs: 60_000,
      reach: 'answering',
    });
    expect(r.heldMs).toBe(3000);
    expect(waitCausesTotal(r.waitCauses)).toBe(r.waitedMs);
    expect(waitTitle(r)).toBe('mean 100 ms, 95% waited at most 100 ms; held back 3.00 s: 2.40 s pacing for another consumer, 600 ms whole-second window end');
  });

  it('a panel held back with Remaining above 0 says why; one held by the budget itself, or barely held, says nothing', () => {
    expect(heldBackNote(competitorStore(), 'demo', 'listAssets', S + 5000, 5)).toEqual({
      short: 'Held back 60% for another consumer',
      full: 'Held back 60% of the last 5 s with Remaining above 0: pacing for another consumer (80%), whole-second window end (20%)',
    });
    const spent = new BudgetSeconds();
    spent.ingest(
      [0, 1, 2, 3, 4].map((i) => second(S + i * 1000, { waitedMs: 900, heldMs: 900, waitCauses: causes({ budget: 900 }) })),
      1,
    );
    expect(heldBackNote(spent, 'demo', 'listAssets', S + 5000, 5)).toBeNull();
    const barely = new BudgetSeconds();
    barely.ingest([second(S, { waitedMs: 100, heldMs: 100, waitCauses: causes({ others: 100 }) })], 1);
    expect(heldBackNote(barely, 'demo', 'listAssets', S + 5000, 5)).toBeNull();
  });
});
