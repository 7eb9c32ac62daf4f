import { fmtClock } from '../../lib/format';

/** What the Budget view says while paused: every figure on it (charts and table) stays at that moment. */
export function pausedNote(frozenAt: number): string {
  return `Paused at ${fmtClock(frozenAt)}: figures frozen, press Live to follow again`;
}
