/**
 * What a replay reads of a HAR file (ours, or one from Chrome DevTools, Charles, Postman): each entry's
 * start time, method, URL and request body. The zod schema keeps only those fields, so the page sends
 * main a small object rather than the file with its response bodies; main and the CLI read it the same way.
 */
import { z } from 'zod';
import { ENDPOINT_LIST } from './endpoints';
import type { EndpointId } from './endpoints';
import { parseJsonExact } from './json/parse-exact';

/** Largest HAR file a replay reads (the panel's upload and the CLI). */
export const MAX_HAR_BYTES = 20 * 1024 * 1024;
export const MAX_REPLAY_ENTRIES = 100_000;
/** A replay runs in real time: a file spanning longer (a clock gone wrong, two recordings joined) is refused. */
export const MAX_REPLAY_SPAN_MS = 24 * 3600_000;

const harReplayEntrySchema = z.object({
  startedDateTime: z
    .string()
    .max(64)
    .refine((s) => Number.isFinite(Date.parse(s)), 'not an ISO 8601 date'),
  request: z.object({
    method: z.string().min(1).max(16),
    url: z.string().min(1).max(16_384),
    postData: z
      .object({
        text: z
          .string()
          .max(1024 * 1024)
          .optional(),
      })
      .optional(),
  }),
  /** Ours: the client's attempt number (2, 3, ... are its own retries). */
  _attempt: z.number().int().min(1).optional(),
  /** Ours: postData.text is only the start of the body (the log cuts long bodies). */
  _requestBodyCut: z.boolean().optional(),
});

export const harReplayInputSchema = z.object({
  log: z.object({
    version: z.string().max(16).optional(),
    entries: z.array(harReplayEntrySchema).max(MAX_REPLAY_ENTRIES),
  }),
});
export type HarReplayInput = z.output<typeof harReplayInputSchema>;

export type HarReadResult = { ok: true; har: HarReplayInput } | { ok: false; message: string };

/** A file's text as a HAR the replay can use, or a sentence that says why not. */
export function readHarText(text: string): HarReadResult {
  if (text.length > MAX_HAR_BYTES)
    return { ok: false, message: `The file is larger than ${MAX_HAR_BYTES / 1024 / 1024} MB; export a filtered part of the log.` };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, message: 'This file is not JSON, so it is not a HAR file (a HAR file is JSON with a "log" object).' };
  }
  const log = typeof data === 'object' && data !== null ? (data as { log?: unknown }).log : undefined;
  if (typeof log !== 'object' || log === null || !Array.isArray((log as { entries?: unknown }).entries)) {
    return { ok: false, message: 'This JSON file is not a HAR file: it has no "log" with "entries".' };
  }
  const parsed = harReplayInputSchema.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.')}: ${i.message}`);
    return { ok: false, message: `This HAR file cannot be replayed: ${issues.join('; ')}.` };
  }
  const times = parsed.data.log.entries.map((e) => Date.parse(e.startedDateTime));
  if (times.length === 0) return { ok: false, message: 'This HAR file holds no request.' };
  // A loop, not Math.max(...times): 100,000 arguments can overflow the stack.
  let first = Infinity;
  let last = -Infinity;
  for (const t of times) [first, last] = [Math.min(first, t), Math.max(last, t)];
  const spanMs = last - first;
  if (spanMs > MAX_REPLAY_SPAN_MS)
    return {
      ok: false,
      message: `This HAR file spans ${Math.round(spanMs / 3600_000)} hours; a replay runs in real time, at most 24 hours: export a shorter part.`,
    };
  return { ok: true, har: parsed.data };
}

/** One request to send: `offsetMs` after the replay starts, as it was after the first entry. */
export interface ReplayStep {
  offsetMs: number;
  endpoint: EndpointId;
  query: Record<string, string>;
  /** Parsed JSON; undefined when the entry had no body (or one that is not JSON). */
  body: unknown;
}

export interface ReplayPlan {
  steps: ReplayStep[];
  /** From the first entry to the last one's start. */
  durationMs: number;
  /** bodyCut: entries whose request body was recorded cut; sent, they would carry another body. */
  skipped: { notAnEndpoint: number; retries: number; bodyCut: number };
}

/** The Partner endpoint a method and URL path call; a base path before it (/api/v1/assets/list) is allowed. */
function endpointOf(method: string, url: string): EndpointId | null {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return null;
  }
  const m = method.toUpperCase();
  return ENDPOINT_LIST.find((e) => e.method === m && (path === e.path || path.endsWith(e.path)))?.id ?? null;
}

function bodyOf(text: string | undefined): unknown {
  if (text === undefined || text.trim() === '') return undefined;
  try {
    return parseJsonExact(text);
  } catch {
    return undefined;
  }
}

/**
 * The steps of a HAR in time order, time 0 at its first entry. Only the ten endpoints' requests are
 * sent; an attempt our client made again (`_attempt` > 1) is left to the client, which retries on its own,
 * and one whose body was recorded cut (`_requestBodyCut`) is left out, never sent with the start of it.
 */
export function replayPlan(har: HarReplayInput): ReplayPlan {
  const timed = har.log.entries.map((e) => ({ e, at: Date.parse(e.startedDateTime) })).sort((a, b) => a.at - b.at);
  const start = timed[0]?.at ?? 0;
  const skipped = { notAnEndpoint: 0, retries: 0, bodyCut: 0 };
  const steps: ReplayStep[] = [];
  for (const { e, at } of timed) {
    const endpoint = endpointOf(e.request.method, e.request.url);
    if (endpoint === null) {
      skipped.notAnEndpoint++;
      continue;
    }
    if ((e._attempt ?? 1) > 1) {
      skipped.retries++;
      continue;
    }
    if (e._requestBodyCut === true) {
      skipped.bodyCut++;
      continue;
    }
    // No prototype: a parameter named __proto__ stays a parameter.
    const query = Object.create(null) as Record<string, string>;
    for (const [k, v] of new URL(e.request.url).searchParams) query[k] ??= v;
    steps.push({ offsetMs: at - start, endpoint, query, body: bodyOf(e.request.postData?.text) });
  }
  return { steps, durationMs: timed.length > 0 ? timed[timed.length - 1]!.at - start : 0, skipped };
}
