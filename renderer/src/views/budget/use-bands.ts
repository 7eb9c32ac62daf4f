/**
 * One colour scale for an endpoint's budget, on the Overview's cells and the Budget table's bar alike,
 * so that one endpoint never reads green on one view and red on the other: the whole budget's use (this
 * app's and other consumers') against the limit, banded at the warning share. A 429 in the window is
 * at the limit whatever the mean says: the service refused a request, so the budget was spent.
 */
import { WARN_SHARE } from './budget-model';

export type UseBand = 'low' | 'mid' | 'warn' | 'limit';

/** The scale, lowest first (legends list it in this order); `from`: whole percent of the limit. */
export const USE_BANDS: readonly { band: UseBand; from: number; label: string }[] = [
  { band: 'low', from: 0, label: 'under 50%' },
  { band: 'mid', from: 50, label: `50–${WARN_SHARE * 100 - 1}%` },
  { band: 'warn', from: WARN_SHARE * 100, label: `${WARN_SHARE * 100}–99%` },
  { band: 'limit', from: 100, label: '100% (at the limit), or a 429' },
];

/** Whole percent as shown: the band and the label always agree. */
export function percentOf(share: number): number {
  return Math.round(share * 100);
}

/** A share as a whole percent: "<1%" for a trickle (not "0%" while some is used). */
export function percentLabel(share: number): string {
  const percent = percentOf(share);
  return percent === 0 && share > 0 ? '<1%' : `${percent}%`;
}

/** The whole budget's use (0..1): ours + the others' estimated use against the limit, at most all of it. */
export function totalOf(figures: { use: number; othersUse: number }): number {
  return Math.min(1, Math.max(0, figures.use + figures.othersUse));
}

/** The band of the whole budget's use (0..1 of the limit), at the limit with any 429 in the same window. */
export function bandOfUse(total: number, n429 = 0): UseBand {
  if (n429 > 0) return 'limit';
  const percent = percentOf(total);
  let band: UseBand = 'low';
  for (const b of USE_BANDS) if (percent >= b.from) band = b.band;
  return band;
}
