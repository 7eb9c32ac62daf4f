/**
 * The request log: one entry per sample (every attempt, answered or not), bounded. Details
 * (headers, body excerpts) are kept for the newest entries only, since they weigh up to 8 KB each.
 * Everything is masked when stored, so the log never holds a plain token.
 */
import type { z } from 'zod';
import type { logDetailSchema, logEntrySchema } from '../../shared/bridge/schemas';
import { ENDPOINTS } from '../../shared/endpoints';
import type { EndpointId } from '../../shared/endpoints';
import type { ErrorCode } from '../../shared/errors';
import type { BudgetSample } from '../../shared/rate-limit';
import { codeOfStatus } from '../client/classify';
import { redactTokens } from '../profiles/mask-token';
import type { BodyExcerpt, MaskContext, RecordedExchange } from './exchange';
import { maskHeaders, maskedPathAndQuery } from './exchange';
import { RingBuffer } from '../../shared/ring-buffer';

export type LogEntry = z.output<typeof logEntrySchema>;
export type LogDetail = z.output<typeof logDetailSchema>;

export interface RequestLogOptions {
  /** Entries kept; default 5000. */
  capacity?: number;
  /** Entries whose detail is kept; default 1000. */
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
  responseHeaders: Record<string, string>;
  /** Shared with the recording fetch, which fills it in when the excerpt is read. */
  responseBody: BodyExcerpt;
  error: string | null;
}

interface StoredEntry {
  entry: LogEntry;
  detail: StoredDetail | null;
  headerProblems: string[];
  /** scheme://host:port the request went to (no credentials): a HAR needs whole URLs. */
  origin: string | null;
}

/** An entry with what is left of its detail, for an export (HAR). */
export interface ExportedEntry {
  entry: LogEntry;
  origin: string | null;
  detail: (Omit<StoredDetail, 'responseBody'> & { responseBody: string | null }) | null;
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
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
    this.detailCapacity = Math.max(0, Math.min(options.detailCapacity ?? 1000, this.entries.capacity));
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
            requestBody: exchange.requestBody === null ? null : redactTokens(exchange.requestBody, mask.tokens),
            responseHeaders: maskHeaders(exchange.responseHeaders, mask),
            responseBody: exchange.responseBody,
            error: exchange.error === null ? null : redactTokens(exchange.error, mask.tokens),
          }
        : null;
    this.entries.push({ entry, detail, headerProblems: sample.headerProblems, origin: exchange ? originOf(exchange.url) : null });
    // Let the detail of the entry that just left the detail window go: memory stays bounded.
    const old = this.entries.at(this.entries.size - 1 - this.detailCapacity);
    if (old) old.detail = null;
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
    if (!d) problems.push('No headers or bodies: they are kept for the newest requests only, or the request was never sent.');
    if (d?.error) problems.push(`No response: ${d.error}`);
    const body = d?.responseBody.text ?? null;
    return {
      ...found.entry,
      requestHeaders: d ? { ...d.requestHeaders } : {},
      requestBody: d?.requestBody ?? null,
      responseHeaders: d ? { ...d.responseHeaders } : {},
      responseBody: body === null ? null : redactTokens(body, tokens),
      headerProblems: problems,
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
        detail: d ? { ...d, requestHeaders: { ...d.requestHeaders }, responseHeaders: { ...d.responseHeaders }, responseBody: body === null ? null : redactTokens(body, tokens) } : null,
      });
      return true;
    });
    return out.reverse();
  }

  clear(): void {
    this.entries.clear();
  }
}
