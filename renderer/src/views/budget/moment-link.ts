/** A link to a moment (#/budget/at=<ms>, the Usage report's busiest minutes): the history range shown for it. */
import type { HistoryWindow } from '../../../../shared/usage-history-model';

/** How far either side of the linked minute the Budget view shows. */
export const AROUND_MOMENT_MS = 30 * 60_000;

/** A custom range centred on the minute the moment falls in, with half an hour either side. */
export function aroundMoment(at: number): HistoryWindow {
  const minute = Math.floor(at / 60_000) * 60_000;
  return { preset: '6h', custom: { fromMs: minute - AROUND_MOMENT_MS, toMs: minute + 60_000 + AROUND_MOMENT_MS } };
}
