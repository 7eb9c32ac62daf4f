/**
 * One usage bucket's figures (issue 12): what budget samples of one (profile, vendor, endpoint) add up
 * to over a second, a minute or an hour. Every field merges exactly (sums, min, max, a latency
 * histogram), so a minute is the merge of its seconds and an hour of its minutes: downsampling
 * preserves the sums, and p50/p95 come from the merged histogram.
 */
import type { BudgetSample } from '../../shared/rate-limit';

/** Upper bounds (ms) of the latency histogram's bins; the last bin holds everything above. */
export const LATENCY_BOUNDS_MS = [5, 10, 20, 35, 50, 75, 100, 150, 200, 300, 500, 750, 1000, 2000, 5000, 10_000] as const;

export interface UsageAggregate {
  requests: number;
  /** 429 answers. */
  throttled: number;
  /** Other failures: no answer (status 0) or a 5xx. */
  failures: number;
  /** Lowest X-Rate-Limit-Remaining seen; null when no answer carried one. */
  lowestRemaining: number | null;
  /** Sum and count of the use of the limit per answer (1 - remaining/limit), for the mean. */
  useSum: number;
  useCount: number;
  /** Highest use of the limit seen. */
  usePeak: number | null;
  waitedMs: number;
  /** Requests of other consumers of the vendor, inferred from Remaining. */
  foreignRequests: number;
  /** Counts per LATENCY_BOUNDS_MS bin (+1 for above the last bound). */
  latency: number[];
}

export function emptyAggregate(): UsageAggregate {
  return {
    requests: 0,
    throttled: 0,
    failures: 0,
    lowestRemaining: null,
    useSum: 0,
    useCount: 0,
    usePeak: null,
    waitedMs: 0,
    foreignRequests: 0,
    latency: new Array<number>(LATENCY_BOUNDS_MS.length + 1).fill(0),
  };
}

function latencyBin(ms: number): number {
  const i = LATENCY_BOUNDS_MS.findIndex((bound) => ms <= bound);
  return i === -1 ? LATENCY_BOUNDS_MS.length : i;
}

const minOf = (a: number | null, b: number | null): number | null => (a === null ? b : b === null ? a : Math.min(a, b));
const maxOf = (a: number | null, b: number | null): number | null => (a === null ? b : b === null ? a : Math.max(a, b));

/** Adds one sample; `foreign` is the other consumers' requests the caller inferred for it (default 0). */
export function addSample(into: UsageAggregate, sample: BudgetSample, foreign = 0): void {
  into.requests += 1;
  if (sample.status === 429) into.throttled += 1;
  else if (sample.status === 0 || sample.status >= 500) into.failures += 1;
  if (sample.remaining !== null) into.lowestRemaining = minOf(into.lowestRemaining, sample.remaining);
  if (sample.limit !== null && sample.limit > 0 && sample.remaining !== null) {
    const use = Math.min(1, Math.max(0, 1 - sample.remaining / sample.limit));
    into.useSum += use;
    into.useCount += 1;
    into.usePeak = maxOf(into.usePeak, use);
  }
  into.waitedMs += Math.max(0, sample.waitedMs);
  into.foreignRequests += Math.max(0, foreign);
  into.latency[latencyBin(sample.latencyMs)]! += 1;
}

/** `into` plus `other`, in place. */
export function mergeAggregate(into: UsageAggregate, other: UsageAggregate): UsageAggregate {
  into.requests += other.requests;
  into.throttled += other.throttled;
  into.failures += other.failures;
  into.lowestRemaining = minOf(into.lowestRemaining, other.lowestRemaining);
  into.useSum += other.useSum;
  into.useCount += other.useCount;
  into.usePeak = maxOf(into.usePeak, other.usePeak);
  into.waitedMs += other.waitedMs;
  into.foreignRequests += other.foreignRequests;
  other.latency.forEach((n, i) => (into.latency[i] = (into.latency[i] ?? 0) + n));
  return into;
}

/** The latency below which a share `q` (0..1) of the requests answered: the bin's upper bound; null when empty. */
export function latencyQuantile(agg: UsageAggregate, q: number): number | null {
  const total = agg.latency.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  let seen = 0;
  for (const [i, n] of agg.latency.entries()) {
    seen += n;
    if (seen >= q * total) return LATENCY_BOUNDS_MS[i] ?? Infinity;
  }
  return Infinity;
}

export function meanUse(agg: UsageAggregate): number | null {
  return agg.useCount === 0 ? null : agg.useSum / agg.useCount;
}
