/**
 * The Usage report (issue 12 §2), pure: from stored usage rows (per-minute, or per-hour where minutes
 * are no longer kept) of one vendor, per endpoint and day the requests, mean (meanUseOf) and peak use of the limit,
 * 429s (ours, and those other consumers explain), and waits as a person reads them (mean and p95 per
 * request, share of the time held back; never a sum of waits); use by hour of day x endpoint; the busiest
 * minutes. Days and hours are those of `timeZone`.
 */
import type { BusyMinute, ReportDay, ReportHeatCell, UsageReport } from './bridge/report-schemas';
import { ENDPOINT_IDS, ENDPOINTS, isEndpointId } from './endpoints';
import { zonedTime } from './time-zone';

/** One stored bucket of one endpoint (the fields of the store's UsageRow the report reads). */
export interface ReportRow {
  endpoint: string;
  startMs: number;
  /** 60 000 for a per-minute row, 3 600 000 for a per-hour row. */
  bucketMs: number;
  requests: number;
  throttled: number;
  failures: number;
  activeSeconds: number;
  useSeconds: number;
  olderUseSum: number;
  olderUseCount: number;
  usePeak: number | null;
  waitedMs: number;
  foreignRequests: number;
}

/** What a bucket keeps for its mean use (electron/store/usage-aggregate.ts says how each is counted). */
export type UseSums = Pick<ReportRow, 'activeSeconds' | 'useSeconds' | 'olderUseSum' | 'olderUseCount'>;

/**
 * Mean use of the limit by this app: per second with requests, the share of the limit the server served
 * in it (answered, not 429), averaged over those seconds. Rows stored before that measure have only the
 * older one, the mean of 1 - Remaining/Limit per answer (about half the use of a budget drained every
 * second): it is given for them, with `older` set, never mixed with the new one.
 */
export function meanUseOf(s: UseSums): { value: number | null; older: boolean } {
  if (s.activeSeconds > 0) return { value: s.useSeconds / s.activeSeconds, older: false };
  if (s.olderUseCount > 0) return { value: s.olderUseSum / s.olderUseCount, older: true };
  return { value: null, older: false };
}

/** The endpoint's documented limit (what usage-aggregate.ts counts use against where an answer gave none); null if unknown. */
export function documentedLimit(endpoint: string): number | null {
  return isEndpointId(endpoint) ? ENDPOINTS[endpoint].limit : null;
}

/**
 * Seconds' worth of the WHOLE budget one stored bucket used, as the Budget view's utilisation and the
 * Overview read it: this app's use (useSeconds) plus the other consumers' requests the headers showed,
 * at most one per second with requests. Where we were idle, others' requests are put down to our next
 * busy second, so a sparse bucket can read high; the cap keeps it within the limit.
 */
export function budgetUseSeconds(b: { activeSeconds: number; useSeconds: number; foreignRequests: number }, limit: number | null): number {
  const others = limit !== null && limit > 0 ? b.foreignRequests / limit : 0;
  return Math.min(b.activeSeconds, b.useSeconds + others);
}

/**
 * budgetUseSeconds of one STORED row (a second, minute or hour), at its endpoint's documented limit: the one
 * figure both the report and the history sum (the store's SQL calls it per row, as budget_use_seconds). The
 * cap is per row, so sums of it do not depend on how rows are grouped into points.
 */
export function rowBudgetSeconds(r: { endpoint: string; activeSeconds: number; useSeconds: number; foreignRequests: number }): number {
  return budgetUseSeconds(r, documentedLimit(r.endpoint));
}

/**
 * Mean use of the whole budget over the seconds with requests (`value`, from the buckets' budgetUseSeconds
 * summed into `budgetSeconds`) and this app's part (`ours`, meanUseOf). The older measure already counted
 * others (it read Remaining), so it is the whole use there, and ours is unknown.
 */
export function budgetUseOf(s: UseSums & { budgetSeconds: number }): { value: number | null; ours: number | null; older: boolean } {
  const own = meanUseOf(s);
  if (own.value === null || own.older) return { value: own.value, ours: null, older: own.older };
  return { value: Math.min(1, s.budgetSeconds / s.activeSeconds), ours: own.value, older: false };
}

export interface ReportPeriod {
  fromMs: number;
  /** Exclusive. */
  toMs: number;
  timeZone: string;
  /** How many busiest minutes to list; default 10. */
  busiestCount?: number;
}

export type ReportFigures = Pick<UsageReport, 'fromMs' | 'toMs' | 'timeZone' | 'endpoints' | 'days' | 'heatMap' | 'busiestMinutes'>;

const MINUTE = 60_000;

interface Sums extends UseSums {
  requests: number;
  /** Summed budgetUseSeconds of the buckets. */
  budgetSeconds: number;
  peak: number | null;
  throttled: number;
  throttledByOthers: number;
  others: number;
  failures: number;
  waitedMs: number;
  /** Buckets with traffic, and the share of each that requests spent waiting (summed). */
  buckets: number;
  heldBack: number;
  /** [mean wait in the bucket, requests] for the weighted p95. */
  waits: [number, number][];
}

const emptySums = (): Sums => ({
  requests: 0,
  budgetSeconds: 0,
  activeSeconds: 0,
  useSeconds: 0,
  olderUseSum: 0,
  olderUseCount: 0,
  peak: null,
  throttled: 0,
  throttledByOthers: 0,
  others: 0,
  failures: 0,
  waitedMs: 0,
  buckets: 0,
  heldBack: 0,
  waits: [],
});

const maxOf = (a: number | null, b: number | null): number | null => (a === null ? b : b === null ? a : Math.max(a, b));

function add(s: Sums, r: ReportRow): void {
  s.requests += r.requests;
  s.activeSeconds += r.activeSeconds;
  s.useSeconds += r.useSeconds;
  s.budgetSeconds += rowBudgetSeconds(r);
  s.olderUseSum += r.olderUseSum;
  s.olderUseCount += r.olderUseCount;
  s.peak = maxOf(s.peak, r.usePeak);
  s.throttled += r.throttled;
  // Without the others' requests in that bucket, at most this many of our 429s would not have happened.
  s.throttledByOthers += Math.min(r.throttled, r.foreignRequests);
  s.others += r.foreignRequests;
  s.failures += r.failures;
  s.waitedMs += r.waitedMs;
  if (r.requests > 0) {
    s.buckets += 1;
    // Waits of requests that overlap each count: an upper estimate of the time held back, capped at the bucket.
    s.heldBack += Math.min(1, r.waitedMs / r.bucketMs);
    s.waits.push([r.waitedMs / r.requests, r.requests]);
  }
}

/** The smallest value under which a share q of the weight lies. */
export function weightedQuantile(values: readonly (readonly [number, number])[], q: number): number | null {
  const total = values.reduce((n, [, w]) => n + w, 0);
  if (total <= 0) return null;
  const sorted = [...values].sort((a, b) => a[0] - b[0]);
  let seen = 0;
  for (const [v, w] of sorted) {
    seen += w;
    if (seen >= q * total) return v;
  }
  return sorted[sorted.length - 1]![0];
}

function meanUseFields(s: Sums): { meanUse: number | null; meanUseOurs: number | null; meanUseOlder: boolean } {
  const { value, ours, older } = budgetUseOf(s);
  return { meanUse: value, meanUseOurs: ours, meanUseOlder: older };
}

function endpointOrder(a: string, b: string): number {
  const ia = (ENDPOINT_IDS as readonly string[]).indexOf(a);
  const ib = (ENDPOINT_IDS as readonly string[]).indexOf(b);
  return (ia < 0 ? Infinity : ia) - (ib < 0 ? Infinity : ib) || a.localeCompare(b);
}

export function buildUsageReport(rows: readonly ReportRow[], period: ReportPeriod): ReportFigures {
  const { fromMs, toMs, timeZone } = period;
  const days = new Map<string, { day: string; endpoint: string; sums: Sums }>();
  const hours = new Map<string, { endpoint: string; hour: number; sums: Sums }>();
  const minutes = new Map<number, { requests: number; throttled: number; peak: number | null; perEndpoint: Map<string, number> }>();
  const endpoints = new Set<string>();
  // Zoned time per quarter hour (every zone's offset is a multiple of 15 minutes): Intl is slow per row.
  const zoned = new Map<number, ReturnType<typeof zonedTime>>();
  const timeOf = (ms: number) => {
    const q = Math.floor(ms / 900_000) * 900_000;
    let t = zoned.get(q);
    if (!t) zoned.set(q, (t = zonedTime(q, timeZone)));
    return t;
  };

  for (const r of rows) {
    if (r.startMs < fromMs || r.startMs >= toMs || r.requests + r.foreignRequests === 0) continue;
    endpoints.add(r.endpoint);
    const t = timeOf(r.startMs);
    const dayKey = `${t.day}\u0000${r.endpoint}`;
    const day = days.get(dayKey) ?? { day: t.day, endpoint: r.endpoint, sums: emptySums() };
    days.set(dayKey, day);
    add(day.sums, r);
    const hourKey = `${r.endpoint}\u0000${t.hour}`;
    const hour = hours.get(hourKey) ?? { endpoint: r.endpoint, hour: t.hour, sums: emptySums() };
    hours.set(hourKey, hour);
    add(hour.sums, r);
    if (r.bucketMs === MINUTE && r.requests > 0) {
      const m = minutes.get(r.startMs) ?? { requests: 0, throttled: 0, peak: null, perEndpoint: new Map<string, number>() };
      minutes.set(r.startMs, m);
      m.requests += r.requests;
      m.throttled += r.throttled;
      m.peak = maxOf(m.peak, r.usePeak);
      m.perEndpoint.set(r.endpoint, (m.perEndpoint.get(r.endpoint) ?? 0) + r.requests);
    }
  }

  const dayRows: ReportDay[] = [...days.values()]
    .sort((a, b) => a.day.localeCompare(b.day) || endpointOrder(a.endpoint, b.endpoint))
    .map(({ day, endpoint, sums: s }) => ({
      day,
      endpoint,
      requests: s.requests,
      ...meanUseFields(s),
      peakUse: s.peak,
      throttled: s.throttled,
      throttledByOthers: s.throttledByOthers,
      othersRequests: s.others,
      failures: s.failures,
      waitMeanMs: s.requests === 0 ? null : s.waitedMs / s.requests,
      waitP95Ms: weightedQuantile(s.waits, 0.95),
      heldBackShare: s.buckets === 0 ? null : s.heldBack / s.buckets,
    }));

  const heatMap: ReportHeatCell[] = [...hours.values()]
    .sort((a, b) => endpointOrder(a.endpoint, b.endpoint) || a.hour - b.hour)
    .map(({ endpoint, hour, sums: s }) => ({ endpoint, hour, requests: s.requests, ...meanUseFields(s), peakUse: s.peak, throttled: s.throttled }));

  const busiestMinutes: BusyMinute[] = [...minutes.entries()]
    .sort(([ta, a], [tb, b]) => b.requests - a.requests || (b.peak ?? 0) - (a.peak ?? 0) || ta - tb)
    .slice(0, period.busiestCount ?? 10)
    .map(([startMs, m]) => ({
      startMs,
      requests: m.requests,
      throttled: m.throttled,
      peakUse: m.peak,
      topEndpoint: [...m.perEndpoint.entries()].sort((a, b) => b[1] - a[1] || endpointOrder(a[0], b[0]))[0]![0],
    }));

  return { fromMs, toMs, timeZone, endpoints: [...endpoints].sort(endpointOrder), days: dayRows, heatMap, busiestMinutes };
}
