/**
 * The request log: one entry per sample (every attempt, answered or not), bounded. Details
 * (headers, body excerpts) are kept for the newest entries only, since they weigh up to 8 KB each,
 * and for small purchase calls for as long as the log holds them (LONG_KEPT_BODY_ENDPOINTS).
 * Everything is masked when stored, so the log never holds a plain token.
 */
import type { z } from 'zod';
import type { logDetailSchema, logEntrySchema, logSearchSchema, logSpanSchema } from '../../shared/bridge/schemas';
import { ENDPOINTS } from '../../shared/endpoints';
import type { EndpointId } from '../../shared/endpoints';
import type { ErrorCode } from '../../shared/errors';
import type { BudgetSample } from '../../shared/rate-limit';
import { codeOfStatus } from '../client/classify';
import { redactText } from '../profiles/mask-token';
import type { BodyExcerpt, MaskContext, RecordedExchange } from './exchange';
import { maskHeaders, maskedPathAndQuery, maskedTarget } from './exchange';
import { RingBuffer } from '../../shared/ring-buffer';
import { LOG_BODIES_KEPT, LONG_KEPT_BODY_ENDPOINTS, LONG_KEPT_DETAIL_CHARS } from '../../shared/request-log-filter';

export type LogEntry = z.output<typeof logEntrySchema>;
export type LogDetail = z.output<typeof logDetailSchema>;
export type LogSearch = z.output<typeof logSearchSchema>;
export type LogSpan = z.output<typeof logSpanSchema>;
type TokenHeader = LogDetail['tokenHeader'];

export interface RequestLogOptions {
  /** Entries kept; default 5000. */
  capacity?: number;
  /** Entries whose detail is kept; default LOG_BODIES_KEPT (1000). Small purchase calls keep theirs longer. */
  detailCapacity?: number;
}

export interface LogFilter {
  endpoint: EndpointId | null;
  status: number | null;
  limit: number;
}

interface StoredDetail {
  requestHeaders: Record<string, string>;
  requestBody: string | null;
  /** The request body is only its start (cut at the excerpt's limit). */
  requestBodyCut: boolean;
  responseHeaders: Record<string, string>;
  /** Shared with the recording fetch, which fills it in when the excerpt is read. */
  responseBody: BodyExcerpt;
  error: string | null;
  tokenHeader: TokenHeader;
  /** The bodies as searched (masked, lower case), made once the response excerpt is in; `tokens`: the mask it was made with. */
  searchable?: { tokens: string; text: string };
}

interface StoredEntry {
  entry: LogEntry;
  detail: StoredDetail | null;
  headerProblems: string[];
  /** scheme://host:port the request went to (no credentials): a HAR needs whole URLs. */
  origin: string | null;
  /** Path and query exactly as sent (maskedTarget); the endpoint's path when nothing was sent. */
  target: string;
}

/** An entry with what is left of its detail, for an export (HAR). */
export interface ExportedEntry {
  entry: LogEntry;
  origin: string | null;
  target: string;
  detail: (Omit<StoredDetail, 'responseBody' | 'searchable'> & { responseBody: string | null }) | null;
}

/** The error code a status stands for in the log (the client's final error may differ after retries). */
export function errorCodeOfStatus(status: number, exchangeError: string | null): ErrorCode | null {
  if (status === 0) return exchangeError && /abort|timeout/i.test(exchangeError) ? 'TIMEOUT' : 'NETWORK';
  if (status >= 400) return codeOfStatus(status);
  return null;
}

export class RequestLog {
  private readonly entries: RingBuffer<StoredEntry>;
  private readonly detailCapacity: number;
  private nextId = 1;

  constructor(options: RequestLogOptions = {}) {
    this.entries = new RingBuffer(options.capacity ?? 5000);
    this.detailCapacity = Math.max(0, Math.min(options.detailCapacity ?? LOG_BODIES_KEPT, this.entries.capacity));
  }

  /** Entries the bounded log has let go so far. */
  get dropped(): number {
    return this.entries.evicted;
  }

  get capacity(): number {
    return this.entries.capacity;
  }

  add(sample: BudgetSample, exchange: RecordedExchange | null, mask: MaskContext): LogEntry {
    const spec = ENDPOINTS[sample.endpoint];
    const entry: LogEntry = {
      id: this.nextId++,
      at: sample.at,
      vendor: sample.vendor,
      endpoint: sample.endpoint,
      method: exchange?.method ?? spec.method,
      path: exchange ? maskedPathAndQuery(exchange.url, mask) : spec.path,
      status: sample.status,
      latencyMs: sample.latencyMs,
      waitedMs: sample.waitedMs,
      attempt: sample.attempt,
      limit: sample.limit,
      remaining: sample.remaining,
      reset: sample.reset,
      errorCode: errorCodeOfStatus(sample.status, exchange?.error ?? null),
    };
    const detail: StoredDetail | null =
      exchange && this.detailCapacity > 0
        ? {
            requestHeaders: maskHeaders(exchange.requestHeaders, mask),
            requestBody: exchange.requestBody === null ? null : redactText(exchange.requestBody, mask.tokens),
            requestBodyCut: exchange.requestBodyCut === true,
            responseHeaders: maskHeaders(exchange.responseHeaders, mask),
            responseBody: exchange.responseBody,
            error: exchange.error === null ? null : redactText(exchange.error, mask.tokens),
            tokenHeader: findTokenHeader(exchange.requestHeaders, mask.tokens),
          }
        : null;
    this.entries.push({
      entry,
      detail,
      headerProblems: sample.headerProblems,
      origin: exchange ? originOf(exchange.url) : null,
      target: exchange ? maskedTarget(exchange.url, mask) : spec.path,
    });
    // Let the detail of the entry that just left the detail window go: memory stays bounded.
    // (Only once the window is full: a negative index would count from the newest and drop a fresh detail.)
    const leaving = this.entries.size - 1 - this.detailCapacity;
    const old = leaving >= 0 ? this.entries.at(leaving) : undefined;
    if (old?.detail && !keptLonger(old.entry, old.detail)) old.detail = null;
    return entry;
  }

  /** The newest `limit` entries that pass the filter, oldest first. */
  list(filter: LogFilter): { entries: LogEntry[]; dropped: number } {
    const out: LogEntry[] = [];
    this.entries.forEachNewest((stored) => {
      if (out.length >= filter.limit) return false;
      const e = stored.entry;
      if (filter.endpoint !== null && e.endpoint !== filter.endpoint) return true;
      if (filter.status !== null && e.status !== filter.status) return true;
      out.push({ ...e });
      return true;
    });
    return { entries: out.reverse(), dropped: this.dropped };
  }

  /** How far back the newest `limit` entries reach: the oldest of them, read without copying any. */
  span(limit: number): LogSpan {
    const count = Math.min(this.entries.size, limit);
    const oldest = this.entries.at(this.entries.size - count); // none when count is 0
    return { oldestAt: oldest?.entry.at ?? null, count, capacity: this.capacity, dropped: this.dropped };
  }

  /** The entry with its detail; null when the log no longer has it. `tokens`: masked in the late body excerpt. */
  detail(id: number, tokens: readonly string[]): LogDetail | null {
    let found: StoredEntry | undefined;
    this.entries.forEachNewest((stored) => {
      if (stored.entry.id === id) found = stored;
      return stored.entry.id > id;
    });
    if (!found) return null;
    const d = found.detail;
    const problems = [...found.headerProblems];
    if (!d)
      problems.push(
        `No headers or bodies: they are kept for the newest ${LOG_BODIES_KEPT.toLocaleString('en-US')} requests only (small purchase calls longer), or the request was never sent.`,
      );
    if (d?.error) problems.push(`No response: ${d.error}`);
    const body = d?.responseBody.text ?? null;
    return {
      ...found.entry,
      detailKept: d !== null,
      requestHeaders: d ? { ...d.requestHeaders } : {},
      requestBody: d?.requestBody ?? null,
      requestBodyCut: d?.requestBodyCut ?? false,
      responseHeaders: d ? { ...d.responseHeaders } : {},
      responseBody: body === null ? null : redactText(body, tokens),
      headerProblems: problems,
      // Kept with the entry: where it went is known after its headers and bodies are let go.
      origin: found.origin,
      target: found.target,
      tokenHeader: d?.tokenHeader ? { ...d.tokenHeader } : null,
    };
  }

  /** Every entry that passes `keep`, oldest first, with its detail where still kept. `tokens`: masked in the late body excerpt. */
  exported(keep: (e: LogEntry) => boolean, tokens: readonly string[]): ExportedEntry[] {
    const out: ExportedEntry[] = [];
    this.entries.forEachNewest((stored) => {
      if (!keep(stored.entry)) return true;
      const d = stored.detail;
      const body = d?.responseBody.text ?? null;
      out.push({
        entry: { ...stored.entry },
        origin: stored.origin,
        target: stored.target,
        detail: d
          ? {
              requestHeaders: { ...d.requestHeaders },
              requestBody: d.requestBody,
              requestBodyCut: d.requestBodyCut,
              responseHeaders: { ...d.responseHeaders },
              responseBody: body === null ? null : redactText(body, tokens),
              error: d.error,
              tokenHeader: d.tokenHeader,
            }
          : null,
      });
      return true;
    });
    return out.reverse();
  }

  /**
   * Every kept entry whose method, path and query, vendor, status or error code contains `text`
   * (case-insensitively), or whose request or response body does where the log still keeps it:
   * client references, asset and purchase ids. Bodies are searched masked, so a token is never found
   * by typing it. A bounded scan (the log's capacity), newest first.
   */
  search(text: string, tokens: readonly string[]): LogSearch {
    const needle = text.trim().toLowerCase();
    const maskKey = tokens.join('\u0000');
    const ids: number[] = [];
    let scanned = 0;
    let withBodies = 0;
    if (needle === '') return { ids, scanned, withBodies };
    this.entries.forEachNewest((stored) => {
      scanned++;
      const e = stored.entry;
      if (stored.detail) withBodies++;
      const meta = `${e.method} ${e.path} ${e.vendor} ${e.errorCode ?? ''} ${e.status}`.toLowerCase();
      if (meta.includes(needle) || (stored.detail !== null && searchableBodies(stored.detail, tokens, maskKey).includes(needle))) ids.push(e.id);
    });
    return { ids, scanned, withBodies };
  }

  clear(): void {
    this.entries.clear();
  }
}

/**
 * A small purchase call's detail outlives the newest-entries window (so that a reference search finds
 * its register call for the whole log); at most the log's capacity of them, each under LONG_KEPT_DETAIL_CHARS.
 */
function keptLonger(entry: LogEntry, d: StoredDetail): boolean {
  return LONG_KEPT_BODY_ENDPOINTS.includes(entry.endpoint) && detailChars(d) <= LONG_KEPT_DETAIL_CHARS;
}

function detailChars(d: StoredDetail): number {
  const headers = (h: Record<string, string>) => Object.entries(h).reduce((n, [k, v]) => n + k.length + v.length, 0);
  return headers(d.requestHeaders) + headers(d.responseHeaders) + (d.requestBody?.length ?? 0) + (d.responseBody.text?.length ?? 0) + (d.error?.length ?? 0);
}

/** The bodies of an entry as the search reads them; kept once the response excerpt has arrived, for the same mask. */
function searchableBodies(d: StoredDetail, tokens: readonly string[], maskKey: string): string {
  if (d.searchable?.tokens === maskKey) return d.searchable.text;
  const response = d.responseBody.text === null ? '' : redactText(d.responseBody.text, tokens);
  const text = `${d.requestBody ?? ''}\n${response}`.toLowerCase();
  if (d.responseBody.text !== null) d.searchable = { tokens: maskKey, text };
  return text;
}

/** Scheme, host and port of a URL (never its user or password); null when it is not one. */
function originOf(url: string): string | null {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/** The header whose value is a known token, bare or after one scheme word: its name and scheme, never the token. */
export function findTokenHeader(headers: Record<string, string>, tokens: readonly string[]): TokenHeader {
  const known = new Set(tokens);
  for (const [header, value] of Object.entries(headers)) {
    if (known.has(value)) return { header, scheme: null };
    const space = value.indexOf(' ');
    if (space > 0 && known.has(value.slice(space + 1).trim())) return { header, scheme: value.slice(0, space) };
  }
  return null;
}
