/** Why held back (issue 22 §1): the telemetry sums each attempt's wait causes per second, and the bridge keeps them. */
import { describe, expect, it } from 'vitest';
import { budgetAggregateSchema } from '../../shared/bridge/schemas';
import type { BudgetSample } from '../../shared/rate-limit';
import type { WaitCauses } from '../../shared/wait-causes';
import { emptyWaitCauses, ownShare, waitCausesTotal } from '../../shared/wait-causes';
import { createTelemetry } from '../../electron/telemetry/telemetry';
import { ManualClock } from '../../electron/client/testing/manual-clock';

const S = 1_700_000_000_000;

function causes(over: Partial<WaitCauses>): WaitCauses {
  return { ...emptyWaitCauses(), ...over };
}

describe('wait causes per second', () => {
  it("are summed into their second's aggregate, add up to its waitedMs, and cross the bridge", () => {
    const clock = new ManualClock(S);
    const telemetry = createTelemetry({ clock });
    const sample = (at: number, waitedMs: number, c: Partial<WaitCauses>): BudgetSample => ({
      vendor: 'demo',
      endpoint: 'listAssets',
      at,
      serverSecond: S,
      status: 200,
      limit: 20,
      remaining: 5,
      reset: 0,
      latencyMs: 5,
      waitedMs,
      attempt: 1,
      headerProblems: [],
      waitCauses: causes(c),
    });
    telemetry.record(sample(S + 100, 300, { others: 250, window: 50 }));
    telemetry.record(sample(S + 400, 700, { others: 500, pause: 200 }));
    const [agg] = telemetry.budgetHistory(0).aggregates;
    expect(agg!.waitCauses).toEqual(causes({ others: 750, window: 50, pause: 200 }));
    expect(agg!.waitedMs).toBe(1000);
    expect(budgetAggregateSchema.parse(agg).waitCauses).toEqual(agg!.waitCauses);
    telemetry.dispose();
  });
});

describe('the part of a wait that nothing held back', () => {
  it('is our own queue ahead of the request (inFlight), so the parts add up to the wait; an over-count is left as it is', () => {
    const causes = { ...emptyWaitCauses(), others: 40 };
    expect(ownShare(causes, 46.7)).toEqual({ ...emptyWaitCauses(), others: 40, inFlight: 46.7 - 40 });
    expect(waitCausesTotal(causes)).toBeCloseTo(46.7);
    const over = { ...emptyWaitCauses(), store: 50 };
    expect(ownShare(over, 46.7)).toEqual({ ...emptyWaitCauses(), store: 50 });
  });
});
