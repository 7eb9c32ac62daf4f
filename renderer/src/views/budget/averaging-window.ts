import { USE_WINDOW_S } from '../../../../shared/budget-use';
/**
 * The one averaging window of the Budget view. The panels' lines and headers, the table's Req/s and
 * utilisation and the chart tooltip all average over it, so that one screen never shows one rate
 * three ways; the view states it once (AVERAGE_WINDOW_NOTE). It is the alert rules' window of use too.
 */
export const AVERAGE_WINDOW_S = USE_WINDOW_S;

/** The view's one statement of the window. */
export const AVERAGE_WINDOW_NOTE = `Rates average over ${AVERAGE_WINDOW_S} s`;

/** A rate's short caption (panel header, tooltip, table header): "5 s avg". */
export function averageCaption(windowS: number = AVERAGE_WINDOW_S): string {
  return `${windowS}\u00a0s avg`;
}
