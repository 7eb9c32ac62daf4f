/**
 * Reading the usage history for a range (the `usageHistory` call): the stored level that fits the
 * range (seconds while they are kept, minutes up to about a day, hours beyond), its rows merged into
 * points of a round length so that an endpoint has at most ~MAX_POINTS of them. Merging is exact
 * (usage-aggregate.ts), so a point's sums equal its rows'.
 */
import type { UsageHistory, UsagePoint } from '../../shared/bridge/usage-schemas';
import { ENDPOINT_IDS } from '../../shared/endpoints';
import type { UsageLevel, UsageRetention, UsageStore } from '../store';
import type { UsagePointAggregate } from '../store';
import { meanUseOf } from '../../shared/usage-report';
import { latencyQuantile } from '../store/usage-aggregate';

export const MAX_POINTS = 500;

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
/** Ranges up to this long are read from per-minute rows (a day at 5-minute points). */
const MINUTE_LEVEL_MAX_SPAN = 26 * HOUR;
const STEPS: Record<UsageLevel, { bucketMs: number; multiples: number[] }> = {
  second: { bucketMs: SECOND, multiples: [1, 2, 5, 10, 15, 30] },
  minute: { bucketMs: MINUTE, multiples: [1, 2, 5, 10, 15, 30, 60] },
  hour: { bucketMs: HOUR, multiples: [1, 2, 3, 6, 12, 24, 48, 168] },
};

export interface HistoryRange {
  fromMs: number;
  /** Exclusive. */
  toMs: number;
}

/** The level and point length for a range, given what each level still holds at `now`. */
export function chooseLevel(range: HistoryRange, now: number, retention: UsageRetention): { level: UsageLevel; bucketMs: number } {
  const span = range.toMs - range.fromMs;
  const level: UsageLevel =
    range.fromMs >= now - retention.secondMs && span <= MAX_POINTS * SECOND
      ? 'second'
      : range.fromMs >= now - retention.minuteMs && span <= MINUTE_LEVEL_MAX_SPAN
        ? 'minute'
        : 'hour';
  const { bucketMs, multiples } = STEPS[level];
  const k = multiples.find((m) => span / (m * bucketMs) <= MAX_POINTS) ?? Math.ceil(span / (MAX_POINTS * bucketMs));
  return { level, bucketMs: k * bucketMs };
}

export interface HistoryQuery extends HistoryRange {
  profileId: string;
  vendor: string;
  /** Default: every endpoint. */
  endpoints?: readonly string[];
}

/** The history for a range, as the bridge answers it (without profileId, vendor and problem). */
export function readHistory(
  store: UsageStore,
  query: HistoryQuery,
  now: number,
  retention: UsageRetention,
): Pick<UsageHistory, 'level' | 'bucketMs' | 'fromMs' | 'toMs' | 'points'> {
  const { level, bucketMs } = chooseLevel(query, now, retention);
  // Whole points only: the range is widened to the points it touches, and ends at the last complete one (a
  // point still running, or not rolled up yet, would read as a drop to 0 at the end of every chart).
  const fromMs = Math.floor(query.fromMs / bucketMs) * bucketMs;
  const complete = Math.floor(store.completeUntil(level, now) / bucketMs) * bucketMs;
  const toMs = Math.max(fromMs + bucketMs, Math.min(Math.ceil(query.toMs / bucketMs) * bucketMs, complete));
  // One read per endpoint: each is a range of the primary key (profile, vendor, endpoint, time), so
  // a day costs a day's rows whatever else the table holds; SQLite merges the rows into points.
  const groups = (query.endpoints ?? ENDPOINT_IDS).flatMap((endpoint) =>
    store.readPoints({ level, fromMs, toMs, pointMs: bucketMs, profileId: query.profileId, vendor: query.vendor, endpoint }),
  );
  const points = groups.sort((a, b) => a.startMs - b.startMs || a.endpoint.localeCompare(b.endpoint)).map(toPoint);
  return { level, bucketMs, fromMs, toMs, points };
}

function toPoint({ endpoint, startMs, agg, budgetSeconds }: UsagePointAggregate): UsagePoint {
  const p95 = latencyQuantile(agg, 0.95);
  const p50 = latencyQuantile(agg, 0.5);
  const use = meanUseOf(agg);
  return {
    endpoint,
    startMs,
    requests: agg.requests,
    throttled: agg.throttled,
    failures: agg.failures,
    lowestRemaining: agg.lowestRemaining,
    meanUse: use.value,
    meanUseOlder: use.older,
    activeSeconds: agg.activeSeconds,
    budgetSeconds,
    peakUse: agg.usePeak,
    waitedMs: agg.waitedMs,
    foreignRequests: agg.foreignRequests,
    // Above the histogram's last bound: no finite figure to send (JSON has no Infinity).
    latencyP50: p50 === Infinity ? null : p50,
    latencyP95: p95 === Infinity ? null : p95,
  };
}
