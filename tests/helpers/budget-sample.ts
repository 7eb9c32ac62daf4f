/** What the store and telemetry tests feed in: a sample of one answer, and a clock whose timers never fire. */
import type { Clock } from '../../shared/clock';
import type { BudgetSample } from '../../shared/rate-limit';

/** An answer 200 to acme's listAssets (20 a second, 10 left, 5 ms), with `over` on top. */
export function budgetSample(over: Partial<BudgetSample> & Pick<BudgetSample, 'at'>): BudgetSample {
  return {
    vendor: 'acme',
    endpoint: 'listAssets',
    status: 200,
    limit: 20,
    remaining: 10,
    reset: 1,
    latencyMs: 5,
    waitedMs: 0,
    attempt: 1,
    headerProblems: [],
    ...over,
  };
}

/** A clock stopped at `now`; timers never fire (the test flushes and rolls up itself). */
export const stoppedClock = (now: number): Clock => ({ now: () => now, setTimeout: () => 0, clearTimeout: () => undefined });
