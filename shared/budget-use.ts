/**
 * The one definition of an endpoint's use of its budget, shared by the Budget table and the alert
 * rules: requests the server served (answered, not refused) per second over the last USE_WINDOW_S
 * complete seconds, against the limit. A rule that read something else (the peak of
 * (limit - remaining) / limit) stayed quiet while the table was red.
 */

/** The window of use (and of the table's Req/s), in complete seconds. */
export const USE_WINDOW_S = 5;

/** One second's counts, as the telemetry sums them. `limit`: that second's, where known. */
export interface CountedSecond {
  requests: number;
  unanswered: number;
  rateLimited: number;
  limit?: number | null;
}

/** Requests of one second that took budget: answered, not refused, never more than the limit (more would have been a 429). */
export function servedRequests(b: Readonly<CountedSecond>, limit: number): number {
  return Math.min(Math.max(0, b.requests - b.unanswered - b.rateLimited), limit);
}

/** Share of the limit (0..1) that `served` requests over `windowS` seconds are. */
export function useOfServed(served: number, limit: number, windowS = USE_WINDOW_S): number {
  return limit > 0 && windowS > 0 ? Math.min(1, Math.max(0, served / windowS / limit)) : 0;
}

/** Use over a window: the seconds of the window that had requests (missing seconds served none). */
export function windowUse(seconds: Iterable<Readonly<CountedSecond>>, limit: number, windowS = USE_WINDOW_S): number {
  let served = 0;
  for (const b of seconds) served += servedRequests(b, b.limit ?? limit);
  return useOfServed(served, limit, windowS);
}
