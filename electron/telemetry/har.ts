/**
 * The request log as HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), the format Chrome
 * DevTools, Charles and Postman import. One HAR entry per attempt of the log (a 429 and its retry are
 * two entries, as the server saw them). The log is masked when stored; the whole text is masked once
 * more with the tokens known now, so an export never carries a plain token.
 *
 * Times: startedDateTime is when the attempt began to wait for budget; timings.blocked is that wait,
 * timings.wait the latency (request sent to answer read). Custom fields (`_endpoint`, `_attempt`, ...)
 * start with an underscore, as the spec allows; a replay reads `_attempt` to leave the client's own
 * retries to the client.
 */
import { STATUS_CODES } from 'node:http';
import type { Entry, Har, Header, QueryString } from 'har-format';
import { MASK_ELLIPSIS, maskToken, redactText } from '../profiles/mask-token';
import { BODY_EXCERPT_BYTES } from './exchange';
import type { MaskContext } from './exchange';
import { maskHeaderValue, maskedTarget } from './exchange';
import type { ExportedEntry } from './request-log';

/** Where a request whose exchange was never recorded went: no real host is named. */
const UNKNOWN_ORIGIN = 'http://partner-service.invalid';

export interface HarCreator {
  name: string;
  version: string;
}

/** Entries the export holds, and how many of them lost their headers and bodies to the log's bound. */
export interface HarExport {
  har: Har;
  entries: number;
  withoutDetail: number;
}

/** Headers as stored were masked then; masked again here with today's token headers, unless already masked. */
const headerList = (headers: Record<string, string>, mask: MaskContext): Header[] =>
  Object.entries(headers).map(([name, value]) => ({ name, value: value.includes(MASK_ELLIPSIS) ? value : maskHeaderValue(name, value, mask) }));

function headerValue(headers: Record<string, string>, name: string): string | undefined {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

function queryOf(url: URL, mask: MaskContext): QueryString[] {
  const known = new Set(mask.tokens);
  return [...url.searchParams.entries()].map(([name, value]) => ({ name, value: known.has(value) ? maskToken(value) : value }));
}

const byteLength = (text: string): number => new TextEncoder().encode(text).length;

/** Said on a cut request body (HAR 1.2 allows a comment on postData): its text is only the start. */
export const CUT_BODY_COMMENT = `Cut: only the first ${BODY_EXCERPT_BYTES} characters of this body were recorded; the text is not the whole body.`;

/** The request body as HAR postData, marked when cut; none when the request had none. */
function postDataOf(d: ExportedEntry['detail']): Pick<Entry['request'], 'postData' | 'bodySize'> {
  if (d?.requestBody == null) return { bodySize: 0 };
  const mimeType = headerValue(d.requestHeaders, 'content-type') ?? 'application/json';
  if (!d.requestBodyCut) return { postData: { mimeType, text: d.requestBody }, bodySize: byteLength(d.requestBody) };
  // The whole size is not known: -1, as HAR says.
  return { postData: { mimeType, text: d.requestBody, comment: CUT_BODY_COMMENT }, bodySize: -1 };
}

/** The URL as sent (the logged target, byte for byte, as Copy as curl shows it); masked as stored, and again with the tokens known now. */
function sentUrl(origin: string | null, target: string, mask: MaskContext): string {
  const base = origin ?? UNKNOWN_ORIGIN;
  // Joined as text: a target such as "//x" is a path here, not a host.
  const whole = target.startsWith('/') ? base + target : new URL(target, base).href;
  return base + maskedTarget(whole, mask);
}

function harEntry({ entry: e, origin, target, detail: d }: ExportedEntry, mask: MaskContext): Entry {
  const href = sentUrl(origin, target, mask);
  const url = new URL(href);
  const requestHeaders = d?.requestHeaders ?? {};
  const responseHeaders = d?.responseHeaders ?? {};
  const answered = e.status > 0;
  const body = d?.responseBody ?? null;
  const contentLength = Number(headerValue(responseHeaders, 'content-length'));
  const responseSize = Number.isFinite(contentLength) && contentLength >= 0 ? contentLength : body === null ? (answered ? -1 : 0) : byteLength(body);
  const started = e.at - e.latencyMs - e.waitedMs;
  const harEntry: Entry & Record<`_${string}`, unknown> = {
    startedDateTime: new Date(started).toISOString(),
    time: e.waitedMs + e.latencyMs,
    request: {
      method: e.method,
      url: href,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headerList(requestHeaders, mask),
      queryString: queryOf(url, mask),
      headersSize: -1,
      ...postDataOf(d),
    },
    response: {
      status: e.status,
      statusText: answered ? (STATUS_CODES[e.status] ?? '') : '',
      httpVersion: answered ? 'HTTP/1.1' : '',
      cookies: [],
      headers: headerList(responseHeaders, mask),
      content: {
        size: responseSize,
        mimeType: headerValue(responseHeaders, 'content-type') ?? (body === null ? 'x-unknown' : 'application/json'),
        ...(body !== null ? { text: body } : {}),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: responseSize,
    },
    cache: {},
    timings: { blocked: e.waitedMs, dns: -1, connect: -1, ssl: -1, send: 0, wait: e.latencyMs, receive: 0 },
    _endpoint: e.endpoint,
    _vendor: e.vendor,
    _attempt: e.attempt,
    // A replay leaves such an entry out: it would send the start of the body as if whole.
    ...(d?.requestBodyCut ? { _requestBodyCut: true } : {}),
    _logId: e.id,
    _rateLimit: { limit: e.limit, remaining: e.remaining, reset: e.reset },
    ...(e.errorCode !== null ? { _error: e.errorCode } : {}),
    ...(d === null ? { comment: 'Headers and bodies are kept for the newest requests only.' } : {}),
  };
  return harEntry;
}

/** The entries (oldest first) as one HAR 1.2 log; `comment` says what part of the log it is. */
export function buildHar(entries: readonly ExportedEntry[], creator: HarCreator, mask: MaskContext, comment: string): HarExport {
  const har: Har = {
    log: {
      version: '1.2',
      creator: { name: creator.name, version: creator.version },
      entries: entries.map((e) => harEntry(e, mask)),
      comment,
    },
  };
  return { har, entries: entries.length, withoutDetail: entries.filter((e) => e.detail === null).length };
}

/** The HAR as file text: every token known now masked wherever it still appears (defence in depth). */
export function harText(har: Har, mask: MaskContext): string {
  return redactText(JSON.stringify(har, null, 2), mask.tokens);
}
