/**
 * Pure figures for the Budget view's history ranges (6 h ... 30 d, or a zoomed custom range): what
 * the `usageHistory` answer becomes in each endpoint's chart and in the summary table.
 */
import { z } from 'zod';
import type { UsageHistory, UsagePoint } from './bridge/usage-schemas';
import { compareEndpoints } from './endpoints';
import { budgetUseOf, weightedQuantile } from './usage-report';
import type { UseSums } from './usage-report';

export const HISTORY_RANGES = [
  { id: '6h', label: '6 h', ms: 6 * 3_600_000 },
  { id: '24h', label: '24 h', ms: 24 * 3_600_000 },
  { id: '7d', label: '7 d', ms: 7 * 86_400_000 },
  { id: '30d', label: '30 d', ms: 30 * 86_400_000 },
] as const;
export type HistoryRangeId = (typeof HISTORY_RANGES)[number]['id'];

/** A history range: a preset ending now, or a custom (zoomed) one with fixed ends. */
export interface HistoryWindow {
  preset: HistoryRangeId;
  /** Set when zoomed or picked: the custom range's ends (epoch ms, `to` exclusive). */
  custom: { fromMs: number; toMs: number } | null;
}

/** A remembered history range, checked when read back (view-prefs). */
export const historyWindowSchema: z.ZodType<HistoryWindow | null> = z
  .object({
    preset: z.enum(HISTORY_RANGES.map((r) => r.id) as [HistoryRangeId, ...HistoryRangeId[]]),
    custom: z
      .object({ fromMs: z.number().finite(), toMs: z.number().finite() })
      .refine((c) => c.toMs > c.fromMs)
      .nullable(),
  })
  .nullable();

/** Presets end at the next whole minute, so that a query key stays the same for a minute. */
export function windowRange(w: HistoryWindow, now: number): { fromMs: number; toMs: number } {
  if (w.custom) return w.custom;
  const toMs = Math.ceil(now / 60_000) * 60_000;
  const ms = HISTORY_RANGES.find((r) => r.id === w.preset)!.ms;
  return { fromMs: toMs - ms, toMs };
}

/** The smallest custom range a drag may zoom to. */
export const MIN_ZOOM_MS = 60_000;

/** A history axis fitted to the data spans at least this much (the app may have run for a minute only). */
export const MIN_FIT_MS = 10 * 60_000;

/**
 * Where a history chart's axis starts when the data starts well into the range (as the live ranges do):
 * the whole minute of the first point of any endpoint (at least MIN_FIT_MS before the end); null to keep
 * the range, where it has data from near its start (within a twentieth of it) or none. Ten minutes of
 * data in 6 h would otherwise be a one-pixel needle at the right edge.
 */
export function fittedFrom(history: Pick<UsageHistory, 'fromMs' | 'toMs' | 'points'>, minSpanMs = MIN_FIT_MS): number | null {
  if (history.points.length === 0) return null;
  const first = history.points.reduce((m, p) => Math.min(m, p.startMs), Infinity);
  if (first - history.fromMs < (history.toMs - history.fromMs) / 20) return null;
  const from = Math.max(history.fromMs, Math.min(Math.floor(first / 60_000) * 60_000, history.toMs - minSpanMs));
  return from > history.fromMs ? from : null;
}

/**
 * The history of a range with its axis fitted to the data: read again from where the data starts, and
 * again while coarse points hid where exactly (a 30 d range's 2-hour point says only "in these two
 * hours"), at most `maxReads` reads in all. `fitted`: the axis starts later than the range.
 */
export async function readFitted(
  read: (range: { fromMs: number; toMs: number }) => Promise<UsageHistory>,
  range: { fromMs: number; toMs: number },
  maxReads = 3,
): Promise<{ history: UsageHistory; fitted: boolean }> {
  let history = await read(range);
  let fitted = false;
  for (let reads = 1; reads < maxReads && !history.problem; reads++) {
    const from = fittedFrom(history);
    if (from === null) break;
    history = await read({ fromMs: from, toMs: range.toMs });
    fitted = true;
  }
  return { history, fitted };
}

/** One point of an endpoint's chart; an empty point (no traffic) is zeros with nulls where nothing was seen. */
export interface ChartPoint {
  t: number;
  /** Requests per second over the point: this app's, and other consumers' of the vendor as estimated from Remaining. */
  rate: number;
  othersRate: number;
  throttled: number;
  /** Peak use of the limit in percent; null without answers carrying the headers (the mean reads as the stacked rates). */
  peakPct: number | null;
  lowestRemaining: number | null;
  /** Mean wait for budget per request in the point; null without requests (never a sum of waits). */
  waitMeanMs: number | null;
}

/** Every point of the range for one endpoint, the gaps filled with zero traffic (so a quiet hour reads as quiet). */
export function chartSeries(history: UsageHistory, endpoint: string): ChartPoint[] {
  const byStart = new Map(history.points.filter((p) => p.endpoint === endpoint).map((p) => [p.startMs, p]));
  const out: ChartPoint[] = [];
  const seconds = history.bucketMs / 1000;
  for (let t = history.fromMs; t < history.toMs; t += history.bucketMs) {
    const p = byStart.get(t);
    out.push({
      t,
      rate: p ? p.requests / seconds : 0,
      othersRate: p ? p.foreignRequests / seconds : 0,
      throttled: p?.throttled ?? 0,
      peakPct: p?.peakUse === null || p?.peakUse === undefined ? null : p.peakUse * 100,
      lowestRemaining: p?.lowestRemaining ?? null,
      waitMeanMs: p && p.requests > 0 ? p.waitedMs / p.requests : null,
    });
  }
  return out;
}

export interface EndpointSummary {
  endpoint: string;
  requests: number;
  /**
   * Mean requests per second over the seconds that had requests (as meanUse beside it: a 6 h range with ten busy
   * minutes is not "0.5 req/s"), over the whole range where only older points without those seconds are kept;
   * and the busiest point's.
   */
  meanRate: number;
  peakRate: number;
  /**
   * Mean use of the whole budget (this app's and the others') over the seconds with requests (usage-report.ts
   * budgetUseOf, as the live table and the Overview read it), and the highest 1 - Remaining/Limit seen (0..1);
   * null when unknown. Use over the whole range: meanUse x activeSeconds / its length.
   */
  meanUse: number | null;
  /** This app's part of meanUse; null for the older measure. */
  meanUseOurs: number | null;
  /** The range holds points stored before the per-second measure: alone, meanUse is the older per-answer one; beside newer points, they are left out of it. */
  meanUseOlder: boolean;
  /** Seconds with requests in the range. */
  activeSeconds: number;
  peakUse: number | null;
  throttled: number;
  foreignRequests: number;
  lowestRemaining: number | null;
  /** Sum of waits: for the means only, never shown as such. */
  waitedMs: number;
  /** Mean wait per request over the range, and the p95 of the points' mean waits (weighted by requests); null without requests. */
  waitMeanMs: number | null;
  waitP95Ms: number | null;
}

/** One row per endpoint with traffic in the range, in the endpoint table's order. */
export function summarize(history: UsageHistory): EndpointSummary[] {
  const spanS = (history.toMs - history.fromMs) / 1000;
  const bucketS = history.bucketMs / 1000;
  const rows = new Map<string, EndpointSummary & { use: PointUse; requestsWithoutSeconds: number; waits: [number, number][] }>();
  for (const p of history.points) {
    const row = rows.get(p.endpoint) ?? {
      endpoint: p.endpoint,
      requests: 0,
      meanRate: 0,
      peakRate: 0,
      meanUse: null,
      meanUseOurs: null,
      meanUseOlder: false,
      activeSeconds: 0,
      peakUse: null,
      throttled: 0,
      foreignRequests: 0,
      lowestRemaining: null,
      waitedMs: 0,
      waitMeanMs: null,
      waitP95Ms: null,
      use: { activeSeconds: 0, useSeconds: 0, olderUseSum: 0, olderUseCount: 0, budgetSeconds: 0 },
      requestsWithoutSeconds: 0,
      waits: [],
    };
    row.requests += p.requests;
    if (p.requests > 0 && (p.meanUseOlder || p.activeSeconds === 0)) row.requestsWithoutSeconds += p.requests;
    row.peakRate = Math.max(row.peakRate, p.requests / bucketS);
    row.throttled += p.throttled;
    row.foreignRequests += p.foreignRequests;
    row.waitedMs += p.waitedMs;
    if (p.requests > 0) row.waits.push([p.waitedMs / p.requests, p.requests]);
    row.lowestRemaining = minOrNull(row.lowestRemaining, p.lowestRemaining);
    if (p.peakUse !== null) row.peakUse = Math.max(row.peakUse ?? 0, p.peakUse);
    addPointUse(row.use, p);
    rows.set(p.endpoint, row);
  }
  return [...rows.values()]
    .sort((a, b) => compareEndpoints(a.endpoint, b.endpoint))
    .map(({ use, waits, requestsWithoutSeconds, ...row }) => {
      const budgetUse = budgetUseOf(use);
      return {
        ...row,
        // Over the seconds with requests only where every request's point counts them (not in rows stored before).
        meanRate: use.activeSeconds > 0 && requestsWithoutSeconds === 0 ? row.requests / use.activeSeconds : spanS > 0 ? row.requests / spanS : 0,
        meanUse: budgetUse.value,
        meanUseOurs: budgetUse.ours,
        // Marked wherever older rows are in the range: alone they give the older measure, beside newer ones they are left out.
        meanUseOlder: use.olderUseCount > 0,
        activeSeconds: use.activeSeconds,
        waitMeanMs: row.requests > 0 ? row.waitedMs / row.requests : null,
        waitP95Ms: weightedQuantile(waits, 0.95),
      };
    });
}

/** Use sums, with the whole budget's use of the points that have the per-second measure (budgetUseOf). */
type PointUse = UseSums & { budgetSeconds: number };

/** A point's use back into sums: per-second means weigh by their seconds, older per-answer ones by requests. */
function addPointUse(into: PointUse, p: UsagePoint): void {
  if (p.meanUse === null) return;
  if (p.meanUseOlder) {
    into.olderUseSum += p.meanUse * p.requests;
    into.olderUseCount += p.requests;
  } else {
    into.useSeconds += p.meanUse * p.activeSeconds;
    into.activeSeconds += p.activeSeconds;
    // Capped per stored row already: capping the point's sums again would read higher for longer points.
    into.budgetSeconds += p.budgetSeconds;
  }
}

/** The point with the most requests of an endpoint: where a spike is. */
export function busiestPoint(history: UsageHistory, endpoint: string): UsagePoint | null {
  let best: UsagePoint | null = null;
  for (const p of history.points) if (p.endpoint === endpoint && (!best || p.requests > best.requests)) best = p;
  return best;
}

function minOrNull(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : Math.min(a, b);
}

/** "5 min points", "1 h points": what one point of the chart covers. */
export function bucketLabel(bucketMs: number): string {
  if (bucketMs < 60_000) return `${bucketMs / 1000} s points`;
  if (bucketMs < 3_600_000) return `${bucketMs / 60_000} min points`;
  return `${bucketMs / 3_600_000} h points`;
}
