/**
 * What the Requests view's filters keep: status class, endpoint, time range and free text. Shared, so
 * that main applies the very filter the page shows when it exports that part of the log (HAR).
 */
import { z } from 'zod';
import type { logEntrySchema } from './bridge/schemas';
import { ENDPOINT_IDS } from './endpoints';
import type { EndpointId } from './endpoints';

type LogEntry = z.output<typeof logEntrySchema>;

/** In the order the selector lists them: "All statuses" first. */
export const STATUS_FILTERS = [
  { id: 'all', label: 'All statuses', keep: () => true },
  { id: 'ok', label: '2xx success', keep: (e: LogEntry) => e.status >= 200 && e.status < 300 },
  { id: '429', label: '429 rate limited', keep: (e: LogEntry) => e.status === 429 },
  { id: '409', label: '409 conflict', keep: (e: LogEntry) => e.status === 409 },
  { id: '4xx', label: '4xx other client errors', keep: (e: LogEntry) => e.status >= 400 && e.status < 500 && e.status !== 429 && e.status !== 409 },
  { id: '5xx', label: '5xx server errors', keep: (e: LogEntry) => e.status >= 500 },
  { id: 'none', label: 'No answer (0)', keep: (e: LogEntry) => e.status === 0 },
] as const;
export type StatusFilterId = (typeof STATUS_FILTERS)[number]['id'];
export const STATUS_FILTER_IDS = STATUS_FILTERS.map((f) => f.id) as [StatusFilterId, ...StatusFilterId[]];

/** Main keeps the headers and bodies of this many newest requests (its log keeps 5,000 entries). */
export const LOG_BODIES_KEPT = 1000;

/**
 * Purchase calls whose headers and bodies main keeps past the newest LOG_BODIES_KEPT, for as long as
 * the log holds the entry, when they are small (LONG_KEPT_DETAIL_CHARS): a search for a client reference or
 * a purchase id then finds its register call across the whole log. Catalog pages (large) go with the window.
 */
export const LONG_KEPT_BODY_ENDPOINTS: readonly EndpointId[] = ['registerPurchase', 'purchaseInfo', 'validatePurchase', 'cancelPurchase'];
/** Headers and bodies of a purchase call kept longer, in characters at most: the demo's weigh under 1,000. */
export const LONG_KEPT_DETAIL_CHARS = 2048;

/** Time ranges in seconds; 0 keeps every entry the page holds. */
export const LOG_RANGES_S = [0, 10, 60, 300] as const;
export type LogRange = (typeof LOG_RANGES_S)[number];

export interface LogFilter {
  endpoint: EndpointId | 'all';
  status: StatusFilterId;
  rangeS: LogRange;
  /** Matched, case-insensitively, in the method, path and query (purchase ids, references, asset ids), vendor and error code. */
  text: string;
  /** Entries main found the text in, bodies included (searchRequestLog); null while it has not answered. */
  found?: ReadonlySet<number> | null;
  /** Only this minute (epoch ms of its start, from a #/requests/at=<ms> link); replaces rangeS when set. */
  minute?: number | null;
  /** The moment the view's time range counted back from (its table may be paused): an export uses the same. */
  now?: number | null;
}

/** The view's filter as it crosses the bridge, whole. */
export const logFilterSchema = z.object({
  endpoint: z.enum([...ENDPOINT_IDS, 'all']),
  status: z.enum(STATUS_FILTER_IDS),
  rangeS: z.union(LOG_RANGES_S.map((s) => z.literal(s)) as [z.ZodLiteral<LogRange>, ...z.ZodLiteral<LogRange>[]]),
  text: z.string().max(200),
  minute: z.number().int().nullable().optional(),
  now: z.number().finite().nullable().optional(),
}) satisfies z.ZodType<LogFilter>;

/** The start of the minute a moment falls in. */
export const minuteOf = (ms: number): number => Math.floor(ms / 60_000) * 60_000;

/**
 * The moment an export's time range counts back from: the view's (what its table showed), bounded to
 * the log's span: never past main's clock, never before the oldest entry kept. Main's clock when the
 * view gave none.
 */
export function referenceTime(asked: number | null | undefined, clockNow: number, oldest: number | null): number {
  if (asked == null) return clockNow;
  return Math.min(Math.max(asked, oldest ?? asked), clockNow);
}

export function logFilter(f: LogFilter, now: number): (e: LogEntry) => boolean {
  const keepStatus = STATUS_FILTERS.find((s) => s.id === f.status)?.keep ?? (() => true);
  const minute = f.minute ?? null;
  const since = minute !== null ? minute : f.rangeS > 0 ? now - f.rangeS * 1000 : -Infinity;
  const until = minute !== null ? minute + 60_000 : Infinity;
  const needle = f.text.trim().toLowerCase();
  const found = f.found ?? null;
  return (e) =>
    e.at >= since &&
    e.at < until &&
    (f.endpoint === 'all' || e.endpoint === f.endpoint) &&
    keepStatus(e) &&
    (needle === '' || found?.has(e.id) === true || `${e.method} ${e.path} ${e.vendor} ${e.errorCode ?? ''} ${e.status}`.toLowerCase().includes(needle));
}
