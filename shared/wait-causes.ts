/**
 * Why a request waited before it was sent: its wait split over a closed set of causes, each the time
 * during which that cause held the next send back. The parts add up to the attempt's measured wait
 * (BudgetSample.waitedMs), so per-second sums and any window's sums add up too.
 *
 *   others    pacing for another consumer: the fair-share spacing, or a slot kept back because
 *             Remaining showed others spending this budget
 *   window    a whole-second window's end: N of ours may still count in the server's second (our own
 *             bound, whatever Remaining reads)
 *   budget    the budget is used up: Remaining (the server's, or what our own sends leave) is 0
 *   pause     the pause after a 429
 *   store     the fleet's budget store (Redis): waiting for this attempt's slot, and asking for it
 *   inFlight  our own requests: those in flight take every slot of the budget (only an answer frees
 *             one), or those ahead of it in the queue are being sent (nothing held the bucket back, but
 *             this request's turn had not come: on a busy process, a few milliseconds per request)
 */
import { z } from 'zod';

export const WAIT_CAUSES = ['others', 'window', 'budget', 'pause', 'store', 'inFlight'] as const;
export type WaitCause = (typeof WAIT_CAUSES)[number];

export const waitCausesSchema = z.object({
  others: z.number(),
  window: z.number(),
  budget: z.number(),
  pause: z.number(),
  store: z.number(),
  inFlight: z.number(),
});

/** Milliseconds per cause. */
export type WaitCauses = Record<WaitCause, number>;

export function emptyWaitCauses(): WaitCauses {
  return { others: 0, window: 0, budget: 0, pause: 0, store: 0, inFlight: 0 };
}

/** Adds `from` into `into`, in place. */
export function addWaitCauses(into: WaitCauses, from: Readonly<Partial<WaitCauses>> | undefined): void {
  if (!from) return;
  for (const c of WAIT_CAUSES) {
    const ms = from[c];
    if (typeof ms === 'number' && Number.isFinite(ms) && ms > 0) into[c] += ms;
  }
}

export function waitCausesTotal(causes: Readonly<WaitCauses>): number {
  return WAIT_CAUSES.reduce((sum, c) => sum + causes[c], 0);
}

/** The causes with any time, largest first. */
export function rankedWaitCauses(causes: Readonly<WaitCauses>): WaitCause[] {
  return WAIT_CAUSES.filter((c) => causes[c] > 0).sort((a, b) => causes[b] - causes[a]);
}

/** Causes that hold requests back while Remaining is above 0 (the budget itself is not what holds them). */
export const HELD_WITH_BUDGET_LEFT: readonly WaitCause[] = ['others', 'window', 'pause', 'store'];

/**
 * The causes of a wait of `waitedMs`, the part that no bound, pause or store held (our own queue ahead of
 * the request, the process's own scheduling) counted as `inFlight`: so the parts add up to the wait.
 */
export function ownShare(causes: WaitCauses, waitedMs: number): WaitCauses {
  const rest = waitedMs - waitCausesTotal(causes);
  if (rest > 0) causes.inFlight += rest;
  return causes;
}
