/**
 * Pure figures for the Budget view, computed from the bounded per-second rings (one slot per
 * server second). Rates are read from complete seconds only, and a second never counts more requests
 * as served than the limit allows: more than that without a 429 is impossible, whatever the binning.
 */
import type { EndpointId, EndpointSpec } from '../../../../shared/endpoints';
import { servedRequests, useOfServed } from '../../../../shared/budget-use';
import { WAIT_BIN_COUNT, waitQuantileMs } from '../../../../shared/wait-bins';
import type { WaitCauses } from '../../../../shared/wait-causes';
import { addWaitCauses, emptyWaitCauses, WAIT_CAUSES } from '../../../../shared/wait-causes';
import type { BucketView } from '../../api/queries';
import type { BudgetSeconds, SecondFigures } from '../../live/budget-seconds';
import { SECOND_MS } from '../../live/budget-seconds';
import { AVERAGE_WINDOW_S } from './averaging-window';

/** Share of the limit above which a rate is a warning. */
export const WARN_SHARE = 0.8;
/** The table's Req/s and utilisation: an average over this many complete seconds (the view's one window, the alert rules' too). */
export const RATE_WINDOW_S = AVERAGE_WINDOW_S;
/**
 * The fleet's use as the budget store counts it: slots granted per second over the last `windowS`
 * complete seconds of the store's clock (every worker counted, this app too); null without counts.
 */
export function fleetRate(granted: readonly number[], windowS = RATE_WINDOW_S): number | null {
  const last = granted.slice(-windowS);
  return last.length === 0 ? null : last.reduce((a, b) => a + b, 0) / last.length;
}

/** A second is complete this long after it ended: its late answers and the event batch have arrived. */
export const SETTLE_MS = 600;
const FOREIGN_WINDOW_MS = 30_000;
const IDLE_REFILL_MS = 2_000;

/** Above this share of errors per request, the Errors column is tinted red: more than a few conflicts. */
export const ERROR_WARN_SHARE = 0.05;

/** What the app knows of the service: from the connection state. */
export type Reach = 'answering' | 'no-answer' | 'offline';

export interface WaitFigures {
  /** Mean wait for budget per request; null without requests. */
  meanMs: number | null;
  /** 95% of requests waited at most this long (the bound of their wait class); null without requests. */
  p95Ms: number | null;
  /** Share (0..1) of the window during which at least one request was held back by the budget. */
  heldShare: number;
}

export const RANGES_MIN = [1, 5, 15, 60] as const;
export type RangeMin = (typeof RANGES_MIN)[number];

export interface EndpointRow {
  spec: EndpointSpec;
  limit: number;
  remaining: number | null;
  /** Remaining is an estimate: no response for a while, so the budget has refilled since the last one. */
  remainingEstimated: boolean;
  /** Requests per second over the last RATE_WINDOW_S complete seconds. */
  rps: number;
  /** Share of the limit the server counted over the same seconds (at most 1): this app's. */
  utilisation: number;
  /** Share of the limit other consumers took over the same seconds (estimated from the headers; at most 1). */
  othersUse: number;
  /** The whole budget's use over the same seconds: ours + others' (at most 1). What the bar and its colour show. */
  totalUse: number;
  /** 429s over the same seconds: the bar is at the limit with any. */
  recent429: number;
  rateLimited: number;
  /** Errors in the range: answered 4xx other than 429, 5xx, and attempts with no answer. */
  errors: number;
  /** Errors per request sent in the range (0..1). */
  errorShare: number;
  /** Sum of waits in the range: for the CSV and averages only, never shown as such. */
  waitedMs: number;
  wait: WaitFigures;
  /** Time in the range during which requests were held back (overlapping waits counted once). */
  heldMs: number;
  /** The range's waits split by what held them (adding up to waitedMs). */
  waitCauses: WaitCauses;
  requests: number;
  reach: Reach;
  resetInMs: number | null;
  pausedForMs: number | null;
  queued: number;
  inFlight: number;
  /** Other consumers' slots over the last FOREIGN_WINDOW_MS (estimated from the headers), and per second. */
  foreignUse: number;
  othersRps: number;
  lastSeen: number | null;
}

function startOfSecond(ms: number): number {
  return Math.floor(ms / SECOND_MS) * SECOND_MS;
}

/** Start of the first second that is not complete at `now`: figures read the seconds before it. */
export function completeBefore(now: number): number {
  return startOfSecond(now - SETTLE_MS);
}

/** Requests of one second as the server can have counted them: served ones at most the limit, plus the refused. */
export function countedRequests(b: Readonly<SecondFigures>, limit: number): number {
  return servedRequests(b, limit) + b.rateLimited;
}

export { servedRequests };

/** Mean and p95 wait per request and the share of time held back, over the seconds summed by `add`. */
export class WaitSummary {
  private requests = 0;
  private waitedMs = 0;
  private heldMs = 0;
  private readonly bins = new Float64Array(WAIT_BIN_COUNT);

  add(b: Readonly<SecondFigures>): void {
    this.requests += b.requests;
    this.waitedMs += b.waitedMs;
    this.heldMs += b.heldMs;
    for (let i = 0; i < WAIT_BIN_COUNT; i++) this.bins[i]! += b.waitBins[i] ?? 0;
  }

  /** `spanMs`: the time the window covers (where the app has data). */
  figures(spanMs: number): WaitFigures {
    return {
      meanMs: this.requests > 0 ? this.waitedMs / this.requests : null,
      p95Ms: this.requests > 0 ? waitQuantileMs(this.bins, 0.95) : null,
      heldShare: spanMs > 0 ? Math.min(1, this.heldMs / spanMs) : 0,
    };
  }
}

export interface RowInput {
  store: BudgetSeconds;
  vendor: string;
  spec: EndpointSpec;
  /** The client's model of the bucket now (budgetSnapshot). */
  bucket: BucketView | undefined;
  now: number;
  rangeMs: number;
  reach: Reach;
}

export function endpointRow({ store, vendor, spec, bucket, now, rangeMs, reach }: RowInput): EndpointRow {
  const end = completeBefore(now);
  const rateFrom = end - RATE_WINDOW_S * SECOND_MS;
  const last = store.last(vendor, spec.id) ?? undefined;
  const limit = bucket?.limit ?? last?.limit ?? spec.limit;
  const wait = new WaitSummary();
  let rateLimited = 0;
  let errors = 0;
  let waitedMs = 0;
  let requests = 0;
  let recent = 0;
  let served = 0;
  let recentForeign = 0;
  let recent429 = 0;
  let foreignUse = 0;
  let foreignFrom: number | null = null;
  let first: number | null = null;
  let heldMs = 0;
  const waitCauses = emptyWaitCauses();
  store.forEach(vendor, spec.id, end - rangeMs, end, (b) => {
    first ??= b.t;
    heldMs += b.heldMs;
    addWaitCauses(waitCauses, b.waitCauses);
    rateLimited += b.rateLimited;
    errors += b.errors;
    waitedMs += b.waitedMs;
    requests += b.requests;
    wait.add(b);
    if (b.t >= rateFrom) {
      recent += countedRequests(b, b.limit ?? limit);
      served += servedRequests(b, b.limit ?? limit);
      recentForeign += b.foreignUse;
      recent429 += b.rateLimited;
    }
    if (b.t >= now - FOREIGN_WINDOW_MS) {
      foreignUse += b.foreignUse;
      foreignFrom ??= b.t;
    }
  });
  const rps = recent / RATE_WINDOW_S;
  const utilisation = useOfServed(served, limit, RATE_WINDOW_S);
  // The others' slots as a share, like ours: over the same complete seconds, against the same limit.
  const othersUse = useOfServed(recentForeign, limit, RATE_WINDOW_S);
  const online = reach === 'answering';
  const reported = online ? (bucket?.remaining ?? last?.remaining ?? null) : null;
  const paused = bucket?.pausedUntil != null && bucket.pausedUntil > now;
  // Both refill models give the whole budget back within a second of idling; a stale low figure would
  // mislead. Only where the service has answered: an address that cannot be reached has no budget to show.
  const idle = online && reported !== null && last !== undefined && now - (last.lastTo || last.t) > IDLE_REFILL_MS && (bucket?.inFlight ?? 0) === 0 && !paused;
  return {
    spec,
    limit,
    remaining: idle ? limit : reported,
    remainingEstimated: idle && reported !== limit,
    rps,
    utilisation,
    othersUse,
    totalUse: Math.min(1, utilisation + othersUse),
    recent429,
    rateLimited,
    errors,
    errorShare: requests > 0 ? errors / requests : 0,
    waitedMs,
    wait: wait.figures(first === null ? 0 : end - Math.max(first, end - rangeMs)),
    heldMs,
    waitCauses,
    requests,
    reach,
    resetInMs: online && bucket?.resetAt && bucket.resetAt > now ? bucket.resetAt - now : null,
    pausedForMs: online && bucket?.pausedUntil && bucket.pausedUntil > now ? bucket.pausedUntil - now : null,
    queued: online ? (bucket?.queued ?? 0) : 0,
    inFlight: bucket?.inFlight ?? 0,
    foreignUse,
    // Per second over the seconds the window has data for (at least one), so that a fresh start does not read low.
    othersRps: foreignFrom === null ? 0 : foreignUse / Math.max(1, Math.min(FOREIGN_WINDOW_MS, end - foreignFrom) / SECOND_MS),
    lastSeen: last ? last.t : null,
  };
}

export interface ChartPoint {
  t: number;
  /** Requests per second over the AVERAGE_WINDOW_S seconds ending with this point's slot. */
  rps: number | null;
  /** Other consumers' slots per second over the same seconds, estimated from our answers' headers (beyond `fleet`). */
  others: number | null;
  /** The fleet's other workers' slots per second over the same seconds, as the budget store counted them; null without counts. */
  fleet: number | null;
  remaining: number | null;
  /** 0 where the slot saw 429s (a marker on the time axis), else null. */
  mark429: number | null;
  n429: number;
  /** Mean wait per request in the slot and the share of it held back by the budget. */
  wait: WaitFigures;
}

/** Slots the budget store granted per second of its clock, every worker counted (this app too). */
export interface FleetCounts {
  fromMs: number;
  granted: readonly number[];
}

export interface ChartSeries {
  endpoint: EndpointId;
  limit: number;
  points: ChartPoint[];
  /** The highest point of ours and others stacked. */
  maxRps: number;
  total429: number;
  /** Length of one point (ms): a second, or the averaging window on long ranges. */
  slotMs: number;
  /** The seconds each point's rate averages over: the view's one window. */
  windowS: number;
  /** Start of the first slot the app has data for (null: none in the range); the range may start earlier. */
  dataFrom: number | null;
  /** End of the last complete slot (exclusive). */
  end: number;
}

/**
 * One point per second (per averaging window on ranges longer than `maxPoints` seconds), each rate
 * the average over the AVERAGE_WINDOW_S seconds ending with it: the same figure the table shows.
 */
export function chartSeries(
  store: BudgetSeconds,
  vendor: string,
  spec: EndpointSpec,
  now: number,
  rangeMs: number,
  maxPoints = 300,
  fleet: FleetCounts | null = null,
): ChartSeries {
  const windowMs = AVERAGE_WINDOW_S * SECOND_MS;
  const slotMs = rangeMs / SECOND_MS <= maxPoints ? SECOND_MS : windowMs;
  const end = Math.floor(completeBefore(now) / slotMs) * slotMs; // exclusive: the current slot is incomplete
  const n = Math.ceil(rangeMs / slotMs);
  const first = end - n * slotMs;
  // The first point's average reads seconds before the range.
  const readFrom = first - (windowMs - slotMs);
  const counted = new Float64Array((end - readFrom) / SECOND_MS);
  const served = new Float64Array(counted.length);
  const foreign = new Float64Array(counted.length);
  const slots: { n429: number; min: number | null; wait: WaitSummary; seen: boolean }[] = Array.from({ length: n }, () => ({
    n429: 0,
    min: null,
    wait: new WaitSummary(),
    seen: false,
  }));
  let limit = spec.limit;
  let firstSeen = Infinity;
  store.forEach(vendor, spec.id, readFrom, end, (b) => {
    if (b.limit !== null) limit = b.limit;
    const second = Math.floor((b.t - readFrom) / SECOND_MS);
    if (second >= 0 && second < counted.length) {
      counted[second]! += countedRequests(b, limit);
      served[second]! += servedRequests(b, limit);
      foreign[second]! += b.foreignUse;
    }
    firstSeen = Math.min(firstSeen, b.t);
    const slot = b.t >= first ? slots[Math.floor((b.t - first) / slotMs)] : undefined;
    if (!slot) return;
    slot.seen = true;
    slot.n429 += b.rateLimited;
    slot.wait.add(b);
    const low = b.minRemaining ?? b.remaining;
    if (low !== null) slot.min = slot.min === null ? low : Math.min(slot.min, low);
  });
  const earlier = store.hasBefore(vendor, spec.id, first);
  const points: ChartPoint[] = [];
  let maxRps = 0;
  let total429 = 0;
  slots.forEach((slot, i) => {
    const t = first + i * slotMs;
    const started = earlier || t >= startOfSlot(firstSeen, slotMs, first);
    let sum = 0;
    let others = 0;
    let fleetOthers = 0;
    let fleetSeconds = 0;
    const upTo = (t + slotMs - readFrom) / SECOND_MS;
    for (let s = upTo - AVERAGE_WINDOW_S; s < upTo; s++) {
      sum += counted[s] ?? 0;
      others += foreign[s] ?? 0;
      const granted = fleet?.granted[(readFrom + s * SECOND_MS - fleet.fromMs) / SECOND_MS];
      if (granted !== undefined) {
        fleetOthers += Math.max(0, granted - (served[s] ?? 0));
        fleetSeconds += 1;
      }
    }
    const rps = started ? sum / AVERAGE_WINDOW_S : null;
    // The store counts the fleet's other workers exactly; the headers' estimate covers them too, so only the rest is estimated.
    const fleetRps = started && fleetSeconds > 0 ? fleetOthers / fleetSeconds : null;
    const othersRps = started ? Math.max(0, others / AVERAGE_WINDOW_S - (fleetRps ?? 0)) : null;
    // An idle second refills the budget: with no request in it, Remaining is back at the limit.
    const remaining = slot.seen ? slot.min : started ? limit : null;
    if (rps !== null) maxRps = Math.max(maxRps, rps + (othersRps ?? 0) + (fleetRps ?? 0));
    total429 += slot.n429;
    points.push({ t, rps, others: othersRps, fleet: fleetRps, remaining, mark429: slot.n429 > 0 ? 0 : null, n429: slot.n429, wait: slot.wait.figures(slotMs) });
  });
  const dataFrom = earlier ? first : Number.isFinite(firstSeen) ? startOfSlot(firstSeen, slotMs, first) : null;
  return { endpoint: spec.id, limit, points, maxRps, total429, slotMs, windowS: AVERAGE_WINDOW_S, dataFrom, end };
}

function startOfSlot(t: number, slotMs: number, first: number): number {
  if (!Number.isFinite(t)) return Infinity;
  return first + Math.floor((t - first) / slotMs) * slotMs;
}

/** One CSV column per wait cause, in WAIT_CAUSES order. */
export const WAIT_CAUSE_CSV = {
  others: 'wait_others_pacing_ms',
  window: 'wait_window_end_ms',
  budget: 'wait_budget_used_ms',
  pause: 'wait_429_pause_ms',
  store: 'wait_store_ms',
  inFlight: 'wait_in_flight_ms',
} as const satisfies Record<(typeof WAIT_CAUSES)[number], string>;

/**
 * One row per endpoint and server second. requests: answered ones (what the server counted);
 * errors: answered 4xx/5xx other than 429; no_answer: attempts that got none (the server may or may
 * not have counted them). foreign_use: other consumers' slots, estimated from our answers' headers
 * (one decimal; the unseen end of a whole server second is estimated in the next one).
 */
export const CSV_HEADER = [
  'time',
  'vendor',
  'endpoint',
  'requests',
  'rate_limited',
  'errors',
  'no_answer',
  'limit',
  'remaining',
  'min_remaining',
  'reset_s',
  'waited_ms',
  'mean_wait_ms',
  'p95_wait_ms',
  'held_back_ms',
  'avg_latency_ms',
  'max_latency_ms',
  'foreign_use',
  // waited_ms split by what held the requests (shared/wait-causes.ts): they add up to it.
  ...WAIT_CAUSES.map((c) => WAIT_CAUSE_CSV[c]),
] as const;

/** A wait bound for the CSV: empty without requests, words for the open last class. */
function csvNumber(n: number | null): number | string {
  return n === null ? '' : Number.isFinite(n) ? n : 'over 30000';
}

/** The per-second samples behind the charts, for CSV export. */
export function csvRows(store: BudgetSeconds, vendor: string, endpoints: readonly EndpointId[], from: number, to: number): unknown[][] {
  const rows: { t: number; row: unknown[] }[] = [];
  for (const endpoint of endpoints) {
    store.forEach(vendor, endpoint, from, to, (b) => rows.push({ t: b.t, row: csvRow(vendor, endpoint, b) }));
  }
  return rows.sort((a, b) => a.t - b.t).map((r) => r.row);
}

function csvRow(vendor: string, endpoint: EndpointId, b: Readonly<SecondFigures>): unknown[] {
  return [
    new Date(b.t).toISOString(),
    vendor,
    endpoint,
    b.requests - b.unanswered,
    b.rateLimited,
    b.errors - b.unanswered,
    b.unanswered,
    b.limit,
    b.remaining,
    b.minRemaining,
    b.reset,
    Math.round(b.waitedMs),
    b.requests > 0 ? Math.round(b.waitedMs / b.requests) : '',
    csvNumber(waitQuantileMs(b.waitBins, 0.95)),
    Math.round(b.heldMs),
    b.requests > 0 ? Math.round(b.latencyMsSum / b.requests) : '',
    Math.round(b.latencyMsMax),
    Math.round(b.foreignUse * 10) / 10,
    ...WAIT_CAUSES.map((c) => Math.round(b.waitCauses[c])),
  ];
}

export const ENDPOINT_COLORS: Record<EndpointId, string> = {
  listAssets: '#3d8bfd',
  searchAssets: '#20b58a',
  assetHistory: '#e5a50a',
  categories: '#9b6bdf',
  purchaseInfo: '#e0603a',
  registerPurchase: '#17a2b8',
  validatePurchase: '#d63384',
  downloadUrl: '#6f9b2d',
  viewUrl: '#b07d3a',
  cancelPurchase: '#6c7a91',
};
