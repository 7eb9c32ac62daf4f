/**
 * How long requests waited for budget, kept as counts per wait class (a fixed histogram) so that
 * per-second aggregates can be summed over any window and still give a mean and a p95: a sum of
 * waits alone says nothing a person can read ("1 h 38 min waited in 5 minutes").
 */

/** Upper bounds (ms, inclusive) of the wait classes; the last class is everything longer. */
export const WAIT_BIN_UPPER_MS = [1, 10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000, Number.POSITIVE_INFINITY] as const;

export const WAIT_BIN_COUNT = WAIT_BIN_UPPER_MS.length;

export function emptyWaitBins(): number[] {
  return new Array<number>(WAIT_BIN_COUNT).fill(0);
}

/** The class a wait falls in. */
export function waitBinOf(waitedMs: number): number {
  const ms = Number.isFinite(waitedMs) ? Math.max(0, waitedMs) : 0;
  const i = WAIT_BIN_UPPER_MS.findIndex((upper) => ms <= upper);
  return i < 0 ? WAIT_BIN_COUNT - 1 : i;
}

/**
 * The upper bound of the class holding the q-quantile (0 < q <= 1): "95% of requests waited at most
 * this long". Infinity when it falls in the open last class; null when there is no request.
 */
export function waitQuantileMs(bins: ArrayLike<number>, q: number): number | null {
  let total = 0;
  for (let i = 0; i < bins.length; i++) total += bins[i] ?? 0;
  if (total <= 0) return null;
  const rank = Math.ceil(q * total);
  let seen = 0;
  for (let i = 0; i < bins.length; i++) {
    seen += bins[i] ?? 0;
    if (seen >= rank) return WAIT_BIN_UPPER_MS[i] ?? Number.POSITIVE_INFINITY;
  }
  return Number.POSITIVE_INFINITY;
}
