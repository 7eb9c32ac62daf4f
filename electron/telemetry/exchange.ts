/**
 * One HTTP exchange as the recording fetch saw it, and how it is shown: tokens masked wherever
 * they could appear (auth headers, cookies, query values), bodies cut to a few KB.
 */
import { TOKEN_SCHEME } from '../../shared/token-scheme';
import { maskToken, redactText } from '../profiles/mask-token';

export const BODY_EXCERPT_BYTES = 4096;

export interface BodyExcerpt {
  /** null until read, or when there is no body. */
  text: string | null;
}

export interface RecordedExchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody: string | null;
  /** True when requestBody is only the start of the body (over the excerpt's limit): never to be sent again as if whole. */
  requestBodyCut?: boolean;
  /** 0 when no response arrived. */
  status: number;
  responseHeaders: Record<string, string>;
  /** Filled in once the body excerpt is read (asynchronously); a box, so that a log entry can keep it alone. */
  responseBody: BodyExcerpt;
  /** The failure's name and message when no response arrived. */
  error: string | null;
  startedAt: number;
  endedAt: number;
}

/** Headers whose whole value is a credential, whatever the token. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'api-key', 'x-auth-token']);

export interface MaskContext {
  /** Every plain token the app knows now (masked wherever it appears). */
  tokens: readonly string[];
  /** Extra header names that carry a token (the profiles' token presentation headers), lower case. */
  tokenHeaders: ReadonlySet<string>;
}

export function maskHeaderValue(name: string, value: string, ctx: MaskContext): string {
  const lower = name.toLowerCase();
  if (CREDENTIAL_HEADERS.has(lower) || ctx.tokenHeaders.has(lower)) {
    // Keep a scheme word ("Bearer", "Partner.v1": any the profile accepts), mask the credential after it.
    const space = value.indexOf(' ');
    const scheme = value.slice(0, Math.max(0, space));
    if (isScheme(scheme, ctx)) return `${scheme} ${maskToken(value.slice(space + 1).trim())}`;
    return maskToken(value);
  }
  return redactText(value, ctx.tokens);
}

/** A scheme word to show as is: never one with a known token in it (a wide pattern could take a credential for one). */
function isScheme(word: string, ctx: MaskContext): boolean {
  return TOKEN_SCHEME.test(word) && !ctx.tokens.some((t) => t !== '' && word.includes(t));
}

export function maskHeaders(headers: Record<string, string>, ctx: MaskContext): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = maskHeaderValue(name, value, ctx);
  return out;
}

/**
 * The request target (path and query) exactly as sent: the URL as fetch serializes it onto the
 * request line, its percent-encoding kept byte for byte (Copy as curl sends it again verbatim). Only a
 * path segment or query name or value that carries a known token is replaced, by its masked form.
 */
export function maskedTarget(url: string, ctx: MaskContext): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return redactText(url, ctx.tokens);
  }
  const path = parsed.pathname
    .split('/')
    .map((segment) => maskedPart(segment, ctx, decodeSafe))
    .join('/');
  // "…?" goes out with its empty query; search is '' for it as for no query.
  const query = parsed.search !== '' ? parsed.search.slice(1) : parsed.href.replace(/#.*$/, '').endsWith('?') ? '' : null;
  if (query === null) return path;
  const pairs = query.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    if (eq < 0) return maskedPart(pair, ctx, decodeForm);
    return `${maskedPart(pair.slice(0, eq), ctx, decodeForm)}=${maskedPart(pair.slice(eq + 1), ctx, decodeForm)}`;
  });
  return `${path}?${pairs.join('&')}`;
}

/** The raw part itself unless its decoded text carries a token; then the masked text, encoded. */
function maskedPart(raw: string, ctx: MaskContext, decode: (raw: string) => string): string {
  const plain = decode(raw);
  const shown = plain !== '' && ctx.tokens.includes(plain) ? maskToken(plain) : redactText(plain, ctx.tokens);
  return shown === plain ? raw : encodeURIComponent(shown);
}

/** A query part as a form decodes it ("+" is a space). */
function decodeForm(raw: string): string {
  return decodeSafe(raw.replace(/\+/g, ' '));
}

/** Path and query of a URL for reading (the log's list and search), with any query value (or path part) that is a known token masked. */
export function maskedPathAndQuery(url: string, ctx: MaskContext): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return redactText(url, ctx.tokens);
  }
  const known = new Set(ctx.tokens);
  const params = [...parsed.searchParams.entries()].map(([k, v]) => {
    const shown = known.has(v) ? maskToken(v) : redactText(v, ctx.tokens);
    return `${encodeURIComponent(k)}=${encodeURIComponent(shown).replace(/%E2%80%A6/g, '…')}`;
  });
  const path = redactText(decodeSafe(parsed.pathname), ctx.tokens);
  return params.length > 0 ? `${path}?${params.join('&')}` : path;
}

function decodeSafe(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** At most `limit` characters (the excerpt's unit), marked when cut. */
export function truncateText(text: string | null, limit = BODY_EXCERPT_BYTES): string | null {
  if (text === null) return null;
  return text.length > limit ? `${text.slice(0, limit)}… (${text.length - limit} more characters)` : text;
}
