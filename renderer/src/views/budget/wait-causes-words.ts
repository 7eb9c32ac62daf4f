/**
 * Why requests were held back, in words (issue 22 §1): the Budget table's wait tooltip and the status
 * line of a panel held back while Remaining is above 0. The client splits every wait by cause
 * (shared/wait-causes.ts); these read the per-second sums.
 */
import type { EndpointId } from '../../../../shared/endpoints';
import type { WaitCause, WaitCauses } from '../../../../shared/wait-causes';
import { addWaitCauses, emptyWaitCauses, HELD_WITH_BUDGET_LEFT, rankedWaitCauses, waitCausesTotal } from '../../../../shared/wait-causes';
import { fmtMs, fmtPercent } from '../../lib/format';
import type { BudgetSeconds } from '../../live/budget-seconds';
import { SECOND_MS } from '../../live/budget-seconds';

export const WAIT_CAUSE_WORDS: Record<WaitCause, string> = {
  others: 'pacing for another consumer',
  window: 'whole-second window end',
  budget: 'budget used up (Remaining 0)',
  pause: 'pause after a 429',
  store: 'fleet store slot',
  inFlight: 'own requests ahead of it',
};

/** The same, to follow "Held back 62%" on a small panel. */
const SHORT_WORDS: Record<WaitCause, string> = {
  others: 'for another consumer',
  window: 'for whole-second windows',
  budget: 'by the budget used up',
  pause: 'after 429s',
  store: 'by the fleet store',
  inFlight: 'by own requests ahead',
};

/** A cause below this share of the time is left out of the words (it would read "0 ms ..."). */
const MIN_SHARE = 0.02;

/**
 * "held back 2.1 s: 1.6 s pacing for another consumer, 0.5 s whole-second window end". The held-back
 * time (overlapping waits counted once) is shared out as the requests' waits were; null when nothing
 * was held back or the client did not say why.
 */
export function heldBackWords(heldMs: number, causes: Readonly<WaitCauses>): string | null {
  const total = waitCausesTotal(causes);
  if (!(heldMs >= 0.5) || !(total > 0)) return null;
  const parts = rankedWaitCauses(causes)
    .filter((c) => causes[c] / total >= MIN_SHARE)
    .map((c) => `${fmtMs((heldMs * causes[c]) / total)} ${WAIT_CAUSE_WORDS[c]}`);
  return `held back ${fmtMs(heldMs)}: ${parts.join(', ')}`;
}

/** Below this share of the window held back with budget left, a panel says nothing. */
export const HELD_NOTE_MIN_SHARE = 0.1;

/** A panel's status line: short enough for a small panel ("Held back 62% for another consumer"), and in full. */
export interface HeldBackNote {
  short: string;
  /** "Held back 62% of the last 5 s with Remaining above 0: pacing for another consumer (80%), whole-second window end (20%)" */
  full: string;
}

/**
 * Why a panel's endpoint was held back while Remaining was above 0, read over the `windowS` complete
 * seconds before `end`; null when it was not held back that long for causes other than the budget itself.
 */
export function heldBackNote(store: BudgetSeconds, vendor: string, endpoint: EndpointId, end: number, windowS: number): HeldBackNote | null {
  const causes = emptyWaitCauses();
  let heldMs = 0;
  store.forEach(vendor, endpoint, end - windowS * SECOND_MS, end, (b) => {
    heldMs += b.heldMs;
    addWaitCauses(causes, b.waitCauses);
  });
  const total = waitCausesTotal(causes);
  if (total <= 0) return null;
  const left = HELD_WITH_BUDGET_LEFT.reduce((sum, c) => sum + causes[c], 0);
  const share = Math.min(1, heldMs / (windowS * SECOND_MS)) * (left / total);
  if (share < HELD_NOTE_MIN_SHARE) return null;
  const named = rankedWaitCauses(causes).filter((c) => HELD_WITH_BUDGET_LEFT.includes(c) && causes[c] / left >= MIN_SHARE);
  const full = named.slice(0, 2).map((c) => `${WAIT_CAUSE_WORDS[c]} (${fmtPercent(causes[c] / left)})`);
  return {
    short: `Held back ${fmtPercent(share)} ${SHORT_WORDS[named[0]!]}`,
    full: `Held back ${fmtPercent(share)} of the last ${windowS} s with Remaining above 0: ${full.join(', ')}`,
  };
}
