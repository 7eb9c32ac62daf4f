/**
 * The HTTP transport under every client, in every shell.
 *
 * - A request the endpoint table marks safe to resend goes through the shell's pooled fetch
 *   (Electron's net.fetch in the desktop app, for the system proxy and certificates; Node's fetch
 *   elsewhere). Any other request (registration, and anything the table does not know) goes through
 *   undici on a connection of its own, closed after the answer: a stack that reuses keep-alive
 *   connections may silently resend a request on a connection the server closed after acting
 *   (Chromium does), and a fresh undici connection is never resent. It is routed as the shell's
 *   stack would route it (fresh-connection.ts: the desktop's system proxy and certificates).
 * - Every body is counted as it streams and cut at the size cap with RESPONSE_TOO_LARGE, so a
 *   hostile answer can neither fill memory nor be downloaded again by a retry.
 * - An answer with a status outside 200-599 fails with UNEXPECTED_STATUS, its body cancelled: it
 *   reached the server, so it is not taken for a broken connection and retried.
 * - A redirect is never followed (redirect: 'manual'). Electron's net.fetch rejects it instead of
 *   returning the 3xx: that rejection becomes REDIRECTED, an answer, not a broken connection.
 * - Every request names the app as its User-Agent (user-agent.ts), set before `observe` sees it.
 */
import { ENDPOINT_LIST } from '../../shared/endpoints';
import { fetchOnFreshConnection } from './fresh-connection';
import type { NetworkRoute } from './fresh-connection';
import { appUserAgent, withUserAgent } from './user-agent';

export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** The error a body over the cap fails with (fetch rejects, or the body's stream errors); `status`: the answer's. */
export class ResponseTooLargeError extends Error {
  readonly code = 'RESPONSE_TOO_LARGE';
  constructor(
    readonly limitBytes: number,
    readonly status?: number,
  ) {
    const cap = `the ${formatBytes(limitBytes)} response-size cap`;
    super(status === undefined ? `the answer is larger than ${cap}` : `the service answered ${status} with a body larger than ${cap}`);
    this.name = 'ResponseTooLargeError';
  }
}

/** An answer whose status a Response cannot carry (outside 200-599): it reached the server, and is not retried. */
export class UnexpectedStatusError extends Error {
  readonly code = 'UNEXPECTED_STATUS';
  constructor(
    readonly status: number,
    statusText: string,
  ) {
    super(`the service answered status ${status}${statusText ? ` ${statusText}` : ''}, outside HTTP's 200-599`);
    this.name = 'UnexpectedStatusError';
  }
}

/** A redirect the shell's fetch would not hand back (Electron): the service answered 3xx; not followed. */
export class RedirectedError extends Error {
  readonly code = 'REDIRECTED';
  constructor() {
    super('the service answered with a redirect (not followed)');
    this.name = 'RedirectedError';
  }
}

/** What Electron's net.fetch rejects a 3xx with under redirect: 'manual' (electron/electron#43715). */
const ELECTRON_REDIRECT_REJECTION = 'Redirect was cancelled';

function isRedirectRejection(e: unknown): boolean {
  return e instanceof Error && (e.message === ELECTRON_REDIRECT_REJECTION || (e.cause instanceof Error && e.cause.message === ELECTRON_REDIRECT_REJECTION));
}

/** The shell's fetch, with Electron's redirect rejection told apart from a broken connection. */
async function fetchPooled(pooled: typeof fetch, input: string | URL | Request, init: RequestInit | undefined): Promise<Response> {
  try {
    return await pooled(input, init);
  } catch (e) {
    throw isRedirectRejection(e) ? new RedirectedError() : e;
  }
}

export interface TransportOptions {
  /** The shell's fetch for requests that are safe to resend (default: Node's global fetch). */
  pooled?: typeof fetch;
  /** How the shell's stack routes a request (its proxy, its certificates), for the others; absent: as Node's fetch. */
  route?: NetworkRoute;
  /** Read per response, so a changed setting applies at once (default 64 MiB). */
  maxResponseBytes?: number | (() => number);
  /** Sent when a request names none; default appUserAgent() ("PartnerConsole"). */
  userAgent?: string;
  /** Wraps the stack's fetch (the request log's recording): it sees the request with the transport's own headers. */
  observe?: (inner: typeof fetch) => typeof fetch;
}

function formatBytes(n: number): string {
  return n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MiB` : `${n} bytes`;
}

/** Whether the request may go over a reused connection: only what the endpoint table says is safe to resend. */
export function mayReuseConnection(method: string, url: string): boolean {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    return false;
  }
  const m = method.toUpperCase();
  // A suffix, because a base URL may carry a path prefix (https://host/api/v1).
  const spec = ENDPOINT_LIST.find((e) => e.method === m && pathname.endsWith(e.path));
  return spec?.safeToResend === true;
}

/** The response with its body counted as it streams; an announced length over the cap, or a status it cannot carry, fails at once. */
function capped(res: Response, limit: number): Response {
  if (res.status < 200 || res.status > 599) {
    void res.body?.cancel().catch(() => undefined);
    throw new UnexpectedStatusError(res.status, res.statusText);
  }
  const announced = Number(res.headers.get('content-length'));
  if (Number.isFinite(announced) && announced > limit) {
    void res.body?.cancel().catch(() => undefined);
    throw new ResponseTooLargeError(limit, res.status);
  }
  if (res.body === null) return res;
  let seen = 0;
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > limit) controller.error(new ResponseTooLargeError(limit, res.status));
      else controller.enqueue(chunk);
    },
  });
  return new Response(res.body.pipeThrough(counter), { status: res.status, statusText: carriableReason(res.statusText), headers: res.headers });
}

/**
 * The reason phrase without the characters a Response refuses (RFC 9110 allows tab, space, visible
 * ASCII and obs-text): Node's parser lets a control byte through, and the constructor would throw,
 * turning an answer into a broken connection. Only the status carries meaning.
 */
function carriableReason(statusText: string | undefined): string {
  // undici leaves it undefined on an answer relayed by a proxy in absolute form.
  return (statusText ?? '').replace(/[^\t\x20-\x7e\x80-\xff]/g, '');
}

/**
 * Node loads its fetch on first use: 50-90 ms of module loading on the 2-core machine here, far more
 * with a fleet of 16 processes starting together. Done when the transport is made, not inside the
 * first request after its budget slot, where it would make that request reach the service late (a
 * 429 under a whole-second limit, for whoever's request is then one too many in that second).
 */
let nodeFetchLoaded = false;
function loadNodeFetch(): void {
  if (nodeFetchLoaded) return;
  nodeFetchLoaded = true;
  globalThis
    .fetch('data:,')
    .then((r) => r.arrayBuffer())
    .catch(() => undefined);
}

export function createTransport(options: TransportOptions = {}): typeof fetch {
  if (!options.pooled) loadNodeFetch();
  const pooled = options.pooled ?? ((input, init) => globalThis.fetch(input, init));
  const limit = (): number => {
    const raw = typeof options.maxResponseBytes === 'function' ? options.maxResponseBytes() : options.maxResponseBytes;
    return typeof raw === 'number' && Number.isFinite(raw) && raw > 0 ? raw : DEFAULT_MAX_RESPONSE_BYTES;
  };
  const transport = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = input instanceof Request ? input.url : String(input);
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    const res = mayReuseConnection(method, url) ? await fetchPooled(pooled, input, init) : await fetchOnFreshConnection(url, init, options.route);
    return capped(res, limit());
  };
  const observed = options.observe ? options.observe(transport as typeof fetch) : (transport as typeof fetch);
  return withUserAgent(observed, options.userAgent ?? appUserAgent());
}
