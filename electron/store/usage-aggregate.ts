/**
 * One usage bucket's figures (issue 12): what budget samples of one (profile, vendor, endpoint) add up
 * to over a second, a minute or an hour. Every field merges exactly (sums, min, max, a latency
 * histogram), so a minute is the merge of its seconds and an hour of its minutes: downsampling
 * preserves the sums, and p50/p95 come from the merged histogram. Two parts of the SAME second merge
 * with mergeSameSecond: that second's use is capped at the limit and counted once.
 */
import { ENDPOINTS } from '../../shared/endpoints';
import type { BudgetSample } from '../../shared/rate-limit';
import { meanUseOf } from '../../shared/usage-report';

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
  /** Seconds with requests. */
  activeSeconds: number;
  /**
   * Sum over those seconds of the share of the limit the server served in each (answered, not 429;
   * at most 1): the Budget view's utilisation, second by second. useSeconds / activeSeconds is the mean use.
   */
  useSeconds: number;
  /**
   * The older measure, written before useSeconds existed and kept for those rows only: sum and count
   * of 1 - remaining/limit per answer. It reads about 50% for a budget drained every second.
   */
  olderUseSum: number;
  olderUseCount: number;
  /** Highest use of the limit seen in an answer (1 - remaining/limit). */
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
    activeSeconds: 0,
    useSeconds: 0,
    olderUseSum: 0,
    olderUseCount: 0,
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

/** As shared/budget-use.ts counts it: an answer other than 429 took a slot of the budget; no answer took none we know of. */
const tookBudget = (status: number): boolean => status !== 0 && status !== 429;

/** The answer's limit, else the endpoint's documented one (as the Budget view falls back to). */
function limitOf(sample: BudgetSample): number {
  return sample.limit !== null && sample.limit > 0 ? sample.limit : ENDPOINTS[sample.endpoint].limit;
}

/**
 * Adds one sample to the aggregate of ITS second (the store keeps one per second until written);
 * `foreign` is the other consumers' requests the caller inferred for it (default 0).
 */
export function addSample(into: UsageAggregate, sample: BudgetSample, foreign = 0): void {
  into.requests += 1;
  if (sample.status === 429) into.throttled += 1;
  else if (sample.status === 0 || sample.status >= 500) into.failures += 1;
  if (sample.remaining !== null) into.lowestRemaining = minOf(into.lowestRemaining, sample.remaining);
  into.activeSeconds = Math.max(into.activeSeconds, 1);
  // Capped per second: more than the limit served in one second reads as the whole limit, as in the Budget view.
  if (tookBudget(sample.status)) into.useSeconds = Math.min(into.activeSeconds, into.useSeconds + 1 / limitOf(sample));
  if (sample.limit !== null && sample.limit > 0 && sample.remaining !== null) {
    into.usePeak = maxOf(into.usePeak, Math.min(1, Math.max(0, 1 - sample.remaining / sample.limit)));
  }
  into.waitedMs += Math.max(0, sample.waitedMs);
  into.foreignRequests += Math.max(0, foreign);
  into.latency[latencyBin(sample.latencyMs)]! += 1;
}

/** `into` plus `other` (other seconds), in place. */
export function mergeAggregate(into: UsageAggregate, other: UsageAggregate): UsageAggregate {
  into.requests += other.requests;
  into.throttled += other.throttled;
  into.failures += other.failures;
  into.lowestRemaining = minOf(into.lowestRemaining, other.lowestRemaining);
  into.activeSeconds += other.activeSeconds;
  into.useSeconds += other.useSeconds;
  into.olderUseSum += other.olderUseSum;
  into.olderUseCount += other.olderUseCount;
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

/**
 * `into` plus another part of the same second (a sample written in the next flush), in place: the
 * second counts once, and its use stays within the limit.
 */
export function mergeSameSecond(into: UsageAggregate, other: UsageAggregate): UsageAggregate {
  const activeSeconds = Math.max(into.activeSeconds, other.activeSeconds);
  const useSeconds = Math.min(activeSeconds, into.useSeconds + other.useSeconds);
  return Object.assign(mergeAggregate(into, other), { activeSeconds, useSeconds });
}

/** Mean use of the limit over the seconds with requests; rows stored before that measure give the older one. */
export function meanUse(agg: UsageAggregate): number | null {
  return meanUseOf(agg).value;
}
