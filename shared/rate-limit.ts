/**
 * The rate-limit vocabulary: header names, a tolerant parser, and the BudgetSample
 * that every response (error or not) produces for telemetry.
 */
import { z } from 'zod';
import { ENDPOINT_IDS } from './endpoints';
import { waitCausesSchema } from './wait-causes';

export const RATE_LIMIT_HEADERS = {
  limit: 'X-Rate-Limit-Limit',
  remaining: 'X-Rate-Limit-Remaining',
  reset: 'X-Rate-Limit-Reset',
} as const;

export type RateLimitField = keyof typeof RATE_LIMIT_HEADERS;

/** What a header source gives back: fetch's Headers.get joins repeats with ", "; Node gives arrays. */
export type RawHeaderValue = string | readonly string[] | null | undefined;

export interface RateLimitHeaders {
  /** null means unknown: missing or unreadable. Never NaN, never negative. */
  limit: number | null;
  remaining: number | null;
  /** Seconds; 0 means "under a second", not "now". */
  reset: number | null;
  /** One line per header we could not read as sent, for the request log. */
  problems: string[];
}

/** Values above these are not believed: a limit of a million per second is a garbled header. */
const MAX_BELIEVABLE: Record<RateLimitField, number> = { limit: 100_000, remaining: 100_000, reset: 3_600 };

function parseOne(field: RateLimitField, raw: RawHeaderValue, problems: string[]): number | null {
  const name = RATE_LIMIT_HEADERS[field];
  if (raw === null || raw === undefined) {
    problems.push(`${name} missing`);
    return null;
  }
  // Hostile sources: a number (Node's getHeader), a non-array object, an element whose toString throws.
  const list: unknown[] = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? [...(raw as unknown[])] : [raw];
  let texts: string[];
  try {
    texts = list.map((v) => {
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint') return String(v);
      throw new TypeError(typeof v);
    });
  } catch {
    problems.push(`${name} unreadable`);
    return null;
  }
  const parts = texts
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
  if (parts.length === 0) {
    problems.push(`${name} empty`);
    return null;
  }
  const values: number[] = [];
  for (const part of parts) {
    if (!/^\+?\d+(\.\d+)?$/.test(part)) {
      problems.push(`${name} not a non-negative number: ${JSON.stringify(part.slice(0, 40))}`);
      return null;
    }
    const n = Number(part);
    if (!Number.isFinite(n) || n > MAX_BELIEVABLE[field]) {
      problems.push(`${name} too large: ${part.slice(0, 40)}`);
      return null;
    }
    values.push(n);
  }
  if (new Set(values).size > 1) problems.push(`${name} repeated with different values: ${parts.join(', ')}`);
  // Conservative choice among repeats: the smallest budget, the longest wait.
  let value = field === 'reset' ? Math.max(...values) : Math.min(...values);
  if (!Number.isInteger(value)) {
    problems.push(`${name} fractional: ${value}`);
    value = field === 'reset' ? value : Math.floor(value);
  }
  return value;
}

/** Never throws: whatever the server sends, unknown values come back as null with a problem line. */
export function parseRateLimitHeaders(get: (name: string) => RawHeaderValue): RateLimitHeaders {
  const problems: string[] = [];
  const read = (field: RateLimitField): number | null => {
    let raw: RawHeaderValue;
    try {
      raw = get(RATE_LIMIT_HEADERS[field]);
    } catch {
      raw = undefined;
    }
    try {
      return parseOne(field, raw, problems);
    } catch {
      problems.push(`${RATE_LIMIT_HEADERS[field]} unreadable`);
      return null;
    }
  };
  const limit = read('limit');
  let remaining = read('remaining');
  const reset = read('reset');
  // A Limit under 1 is no budget, a garbled header (the client ignores it): capping Remaining at it
  // would read every answer as the budget used up.
  if (limit !== null && limit < 1) problems.push(`${RATE_LIMIT_HEADERS.limit} ${limit} is under 1: not a budget`);
  else if (limit !== null && remaining !== null && remaining > limit) {
    problems.push(`${RATE_LIMIT_HEADERS.remaining} ${remaining} exceeds limit ${limit}`);
    remaining = limit;
  }
  return { limit, remaining, reset, problems };
}

/** The server's Date header in epoch ms, or null. Its whole second is the one the budget uses. */
export function parseServerDate(raw: RawHeaderValue): number | null {
  const value = typeof raw === 'string' ? raw : raw?.[0];
  if (!value) return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}

/** One response's budget figures, emitted by the client for every response and failure. */
export const budgetSampleSchema = z.object({
  vendor: z.string(),
  endpoint: z.enum(ENDPOINT_IDS),
  /** Epoch ms when the response (or failure) arrived. */
  at: z.number(),
  /** The whole second (epoch ms) of the answer's Date header: the second the server counted it in. null without one. */
  serverSecond: z.number().nullable().optional(),
  /** HTTP status; 0 when no response arrived (timeout, reset, refused). */
  status: z.number().int(),
  limit: z.number().nullable(),
  remaining: z.number().nullable(),
  reset: z.number().nullable(),
  latencyMs: z.number(),
  /** Time the request waited for budget before it was sent. */
  waitedMs: z.number(),
  /** 1 for the first try. */
  attempt: z.number().int(),
  headerProblems: z.array(z.string()),
  /** Consumers estimated to share this endpoint's budget, us included (1: alone); absent when unknown. */
  consumers: z.number().int().min(1).optional(),
  /** Why the attempt waited (ms per cause, adding up to waitedMs); absent when the client did not say. */
  waitCauses: waitCausesSchema.optional(),
  /** false: the request never reached the service (connection refused, certificate refused); absent: it did, or may have. */
  reachedService: z.literal(false).optional(),
});

export type BudgetSample = z.infer<typeof budgetSampleSchema>;

/** Whether the service may have counted the sample's request: all but those that never reached it. */
export function reachedService(sample: BudgetSample): boolean {
  return sample.reachedService !== false;
}
