/**
 * Hand-made answers for FairShare on a whole-second budget, as the pacing tests drive it: one server
 * second `k` (from `t0`) in which we send at our pace, evenly, the others spend `others` a second, evenly,
 * and the budget comes back whole at each second. `refusedAt`: our request of that index gets a 429;
 * `roundTripMs`: the round trip every answer reports (default: none).
 */
import type { FairShare } from '../../electron/client/fair-share';

export function serverSecond(s: FairShare, budget: { t0: number; limit: number; roundTripMs?: number }, k: number, others: number, refusedAt = -1): void {
  const { t0, limit, roundTripMs } = budget;
  const n = Math.max(1, Math.round(s.rate(t0 + k * 1000)));
  for (let j = 0; j < n; j++) {
    const phase = (j + 0.5) / n;
    const at = t0 + k * 1000 + phase * 1000;
    s.sent(at - 5);
    const refused = j === refusedAt;
    s.answered({
      at,
      refused,
      remaining: refused ? 0 : Math.max(0, limit - (j + 1) - Math.round(others * phase)),
      aloneFloor: limit - (j + 1),
      phase,
      roundTripMs,
    });
  }
}
