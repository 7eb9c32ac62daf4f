/** Pure figures for the Budget view, computed from the bounded per-second buffers. */
import type { EndpointId, EndpointSpec } from '../../../../shared/endpoints';
import type { BucketView } from '../../api/queries';
import type { BudgetStore, SecondBucket } from '../../live/budget-store';
import { BUCKET_MS } from '../../live/budget-store';

/** Share of the limit above which a rate is a warning. */
export const WARN_SHARE = 0.8;
/** Requests per second are averaged over the last complete seconds. */
const RATE_WINDOW_S = 5;
const FOREIGN_WINDOW_MS = 30_000;
const IDLE_REFILL_MS = 2_000;

export const RANGES_MIN = [1, 5, 15, 60] as const;
export type RangeMin = (typeof RANGES_MIN)[number];

export interface EndpointRow {
  spec: EndpointSpec;
  limit: number;
  remaining: number | null;
  /** Remaining is an estimate: no response for a while, so the budget has refilled since the last one. */
  remainingEstimated: boolean;
  rps: number;
  utilisation: number;
  rateLimited: number;
  waitedMs: number;
  requests: number;
  resetInMs: number | null;
  pausedForMs: number | null;
  queued: number;
  inFlight: number;
  foreignUse: number;
  lastSeen: number | null;
}

function startOfSecond(ms: number): number {
  return Math.floor(ms / BUCKET_MS) * BUCKET_MS;
}

export function endpointRow(
  store: BudgetStore,
  vendor: string,
  spec: EndpointSpec,
  bucket: BucketView | undefined,
  now: number,
  rangeMs: number,
): EndpointRow {
  const current = startOfSecond(now);
  let rateLimited = 0;
  let waitedMs = 0;
  let requests = 0;
  let recent = 0;
  let foreignUse = 0;
  store.forEach(vendor, spec.id, now - rangeMs, Infinity, (b) => {
    rateLimited += b.rateLimited;
    waitedMs += b.waitedMs;
    requests += b.requests;
    if (b.t >= current - RATE_WINDOW_S * BUCKET_MS && b.t < current) recent += b.requests;
    if (b.t >= now - FOREIGN_WINDOW_MS) foreignUse += b.foreignUse;
  });
  const last = store.last(vendor, spec.id) ?? undefined;
  const limit = bucket?.limit ?? last?.limit ?? spec.limit;
  const rps = recent / RATE_WINDOW_S;
  const reported = bucket?.remaining ?? last?.remaining ?? null;
  const paused = bucket?.pausedUntil != null && bucket.pausedUntil > now;
  // Both refill models give the whole budget back within a second of idling; a stale low figure would mislead.
  const idle = last !== undefined && now - (last.lastTo || last.t) > IDLE_REFILL_MS && (bucket?.inFlight ?? 0) === 0 && !paused;
  return {
    spec,
    limit,
    remaining: idle ? limit : reported,
    remainingEstimated: idle && reported !== limit,
    rps,
    utilisation: limit > 0 ? rps / limit : 0,
    rateLimited,
    waitedMs,
    requests,
    resetInMs: bucket?.resetAt && bucket.resetAt > now ? bucket.resetAt - now : null,
    pausedForMs: bucket?.pausedUntil && bucket.pausedUntil > now ? bucket.pausedUntil - now : null,
    queued: bucket?.queued ?? 0,
    inFlight: bucket?.inFlight ?? 0,
    foreignUse,
    lastSeen: last ? last.t : null,
  };
}

export interface ChartPoint {
  t: number;
  rps: number | null;
  remaining: number | null;
  /** 0 where the slot saw 429s (a marker on the time axis), else null. */
  mark429: number | null;
  n429: number;
  waitedMs: number;
}

export interface ChartSeries {
  endpoint: EndpointId;
  limit: number;
  points: ChartPoint[];
  maxRps: number;
  total429: number;
}

/** One point per slot over the range; at most `maxPoints` so a chart costs the same at 1 or 60 minutes. */
export function chartSeries(
  store: BudgetStore,
  vendor: string,
  spec: EndpointSpec,
  now: number,
  rangeMs: number,
  maxPoints = 160,
): ChartSeries {
  const slotMs = Math.max(BUCKET_MS, Math.ceil(rangeMs / maxPoints / BUCKET_MS) * BUCKET_MS);
  const end = Math.floor(startOfSecond(now) / slotMs) * slotMs; // exclusive: the current slot is incomplete
  const n = Math.ceil(rangeMs / slotMs);
  const first = end - n * slotMs;
  const slots: { requests: number; n429: number; min: number | null; waited: number; seen: boolean }[] = Array.from(
    { length: n },
    () => ({ requests: 0, n429: 0, min: null, waited: 0, seen: false }),
  );
  let limit = spec.limit;
  let firstSeen = Infinity;
  store.forEach(vendor, spec.id, first, end, (b) => {
    const slot = slots[Math.floor((b.t - first) / slotMs)];
    if (!slot) return;
    slot.seen = true;
    slot.requests += b.requests;
    slot.n429 += b.rateLimited;
    slot.waited += b.waitedMs;
    const low = b.minRemaining ?? b.remaining;
    if (low !== null) slot.min = slot.min === null ? low : Math.min(slot.min, low);
    if (b.limit !== null) limit = b.limit;
    firstSeen = Math.min(firstSeen, b.t);
  });
  const earlier = store.hasBefore(vendor, spec.id, first);
  const points: ChartPoint[] = [];
  let maxRps = 0;
  let total429 = 0;
  slots.forEach((slot, i) => {
    const t = first + i * slotMs;
    const started = earlier || t >= startOfSlot(firstSeen, slotMs, first);
    const rps = slot.seen ? slot.requests / (slotMs / 1000) : started ? 0 : null;
    // An idle second refills the budget: with no request in it, Remaining is back at the limit.
    const remaining = slot.seen ? slot.min : started ? limit : null;
    if (rps !== null) maxRps = Math.max(maxRps, rps);
    total429 += slot.n429;
    points.push({ t, rps, remaining, mark429: slot.n429 > 0 ? 0 : null, n429: slot.n429, waitedMs: slot.waited });
  });
  return { endpoint: spec.id, limit, points, maxRps, total429 };
}

function startOfSlot(t: number, slotMs: number, first: number): number {
  if (!Number.isFinite(t)) return Infinity;
  return first + Math.floor((t - first) / slotMs) * slotMs;
}

export const CSV_HEADER = [
  'time',
  'vendor',
  'endpoint',
  'requests',
  'rate_limited',
  'errors',
  'limit',
  'remaining',
  'min_remaining',
  'reset_s',
  'waited_ms',
  'avg_latency_ms',
  'max_latency_ms',
  'foreign_use',
] as const;

/** The per-second samples behind the charts, for CSV export. */
export function csvRows(store: BudgetStore, vendor: string, endpoints: readonly EndpointId[], from: number, to: number): unknown[][] {
  const rows: { t: number; row: unknown[] }[] = [];
  for (const endpoint of endpoints) {
    store.forEach(vendor, endpoint, from, to, (b) => rows.push({ t: b.t, row: csvRow(vendor, endpoint, b) }));
  }
  return rows.sort((a, b) => a.t - b.t).map((r) => r.row);
}

function csvRow(vendor: string, endpoint: EndpointId, b: Readonly<SecondBucket>): unknown[] {
  return [
    new Date(b.t).toISOString(),
    vendor,
    endpoint,
    b.requests,
    b.rateLimited,
    b.errors,
    b.limit,
    b.remaining,
    b.minRemaining,
    b.reset,
    Math.round(b.waitedMs),
    b.requests > 0 ? Math.round(b.latencyMsSum / b.requests) : '',
    Math.round(b.latencyMsMax),
    b.foreignUse,
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
