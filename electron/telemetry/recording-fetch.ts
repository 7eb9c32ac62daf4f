/**
 * A fetch that records what went over the wire (method, URL, request headers and body, status,
 * response headers, a body excerpt read from a clone) for the request log's detail view.
 *
 * Why a wrapper: the client's BudgetSample carries budget figures only, not headers or bodies, and
 * the client's fetch is injected anyway; wrapping it sees exactly what was sent, token included, so
 * the masking below sees it too. Recording never changes what the caller gets.
 */
import { BODY_EXCERPT_BYTES, truncateText } from './exchange';
import type { RecordedExchange } from './exchange';

export interface RecordingFetchOptions {
  /** Called once per exchange, when the response headers arrive or the request fails. */
  onExchange: (exchange: RecordedExchange) => void;
  now?: () => number;
  bodyLimit?: number;
}

export function createRecordingFetch(inner: typeof fetch, options: RecordingFetchOptions): typeof fetch {
  const now = options.now ?? Date.now;
  const limit = options.bodyLimit ?? BODY_EXCERPT_BYTES;
  const recording = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const body = bodyText(init?.body);
    const exchange: RecordedExchange = {
      method: (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase(),
      url: input instanceof Request ? input.url : String(input),
      requestHeaders: headersToRecord(init?.headers ?? (input instanceof Request ? input.headers : undefined)),
      requestBody: truncateText(body, limit),
      requestBodyCut: body !== null && body.length > limit,
      status: 0,
      responseHeaders: {},
      responseBody: { text: null },
      error: null,
      startedAt: now(),
      endedAt: 0,
    };
    let response: Response;
    try {
      response = await inner(input, init);
    } catch (e) {
      exchange.endedAt = now();
      exchange.error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
      safeNotify(options.onExchange, exchange);
      throw e;
    }
    exchange.endedAt = now();
    exchange.status = response.status;
    exchange.responseHeaders = headersToRecord(response.headers);
    if (response.body) {
      let copy: Response | null = null;
      try {
        copy = response.clone();
      } catch {
        copy = null;
      }
      if (copy) {
        void readExcerpt(copy, limit)
          .then((text) => (exchange.responseBody.text = text))
          .catch(() => undefined);
      }
    }
    safeNotify(options.onExchange, exchange);
    return response;
  };
  return recording as typeof fetch;
}

function safeNotify(listener: (e: RecordedExchange) => void, exchange: RecordedExchange): void {
  try {
    listener(exchange);
  } catch {
    // Recording is best effort; it never breaks a request.
  }
}

export function headersToRecord(headers: RequestInit['headers'] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  try {
    new Headers(headers).forEach((value, name) => (out[name] = value));
  } catch {
    // Headers the platform refuses to read are not worth failing for.
  }
  return out;
}

function bodyText(body: RequestInit['body'] | undefined): string | null {
  if (body === null || body === undefined) return null;
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  return '[non-text body]';
}

/** The first `limit` characters of a body, then the rest of the stream is cancelled (the caller's copy is untouched). */
async function readExcerpt(response: Response, limit: number): Promise<string | null> {
  const reader = response.body?.getReader();
  if (!reader) return null;
  const decoder = new TextDecoder();
  let text = '';
  let cut = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      if (text.length > limit) {
        cut = true;
        break;
      }
    }
    if (!cut) text += decoder.decode();
  } catch {
    // An aborted or broken body: keep what arrived.
  } finally {
    if (cut) void reader.cancel().catch(() => undefined);
  }
  return cut ? `${text.slice(0, limit)}… (cut at ${limit} characters)` : text;
}
