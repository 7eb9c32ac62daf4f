/**
 * One HTTP attempt: fetch with a timeout and the caller's AbortSignal, the body read as text, and
 * every way it can fail sorted into a kind that says whether the request could have reached the
 * server. Never throws.
 */
import type { Clock } from '../../shared/clock';

export type FetchFn = (input: string, init: RequestInit) => Promise<Response>;

export interface AttemptRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** The caller's signal (cancel one call). */
  signal?: AbortSignal;
  /** The client's signal (close()). */
  closeSignal?: AbortSignal;
}

/** Header reader of a response (fetch's Headers.get). */
export type HeaderGetter = (name: string) => string | null;

export type FailureKind =
  | 'timeout' // no complete answer in time: the server may have acted
  | 'aborted' // the caller cancelled while in flight: the server may have acted
  | 'closed' // the client was closed while in flight: the server may have acted
  | 'refused' // the connection was never made (refused, no such host, connect timeout): nothing reached the server
  | 'untrusted' // the service's certificate was refused in the TLS handshake: nothing was sent; never retried (it fails the same each time)
  | 'network' // the connection broke (reset, dropped): the server may have acted
  | 'too-large' // the answer went over the response-size cap (transport.ts): answered, so an unsafe call may have acted; never retried
  | 'odd-status' // the answer's status is outside 200-599 (transport.ts): it reached the server; never retried
  | 'redirect'; // a 3xx the shell's fetch rejected instead of returning (Electron, transport.ts): answered; never followed or retried

/** Answers that came back unusable: retrying would spend another slot for the same. */
export const NEVER_RETRIED: readonly FailureKind[] = ['too-large', 'odd-status', 'redirect', 'untrusted'];

/** Failed before the request was written: the service never saw it, so never counted it. */
export const NOTHING_SENT: readonly FailureKind[] = ['refused', 'untrusted'];

/** A fetch rejection sorted; `status`: the answer's, when one came back unusable (too large). */
export interface FetchFailure {
  failure: 'refused' | 'untrusted' | 'network' | 'too-large' | 'odd-status' | 'redirect';
  detail: string;
  status?: number;
}

export type AttemptOutcome =
  | { kind: 'response'; status: number; statusText: string; header: HeaderGetter; text: string; sentAt: number; receivedAt: number }
  | { kind: 'failure'; failure: FailureKind; detail: string; status?: number; sentAt: number; receivedAt: number };

// undici's connect timeout is raised before the socket connects; the request is written only after.
// ROUTE_REFUSED: the proxy could not be resolved or refused the tunnel (fresh-connection.ts).
const NOT_CONNECTED = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EADDRNOTAVAIL', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT', 'ROUTE_REFUSED'];
const NOT_CONNECTED_CHROMIUM = [
  'ERR_CONNECTION_REFUSED',
  'ERR_CONNECTION_TIMED_OUT',
  'ERR_NAME_NOT_RESOLVED',
  'ERR_ADDRESS_UNREACHABLE',
  'ERR_NAME_RESOLUTION_FAILED',
  'ERR_INTERNET_DISCONNECTED',
];

/**
 * The service's certificate refused (Node's and OpenSSL's codes): Node checks it before the socket
 * counts as connected, and undici writes the request only after that, so nothing was sent. Other TLS
 * errors (a bad record, an alert) can also come after the request was written: not among them.
 */
const CERTIFICATE_REFUSED = [
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_CHAIN_TOO_LONG',
  'INVALID_CA',
  'HOSTNAME_MISMATCH',
  'ERR_TLS_CERT_ALTNAME_INVALID',
];
/** Chromium's (Electron's net.fetch) words for the same: net::ERR_CERT_AUTHORITY_INVALID and its kin. */
const CERTIFICATE_REFUSED_CHROMIUM = /ERR_CERT_[A-Z_]+/;

/** The certificate code of a refused certificate, or null. */
function certificateRefused(codes: string[], text: string): string | null {
  return codes.find((c) => CERTIFICATE_REFUSED.includes(c)) ?? CERTIFICATE_REFUSED_CHROMIUM.exec(text)?.[0] ?? null;
}

/** Error codes and messages along the cause chain (undici nests them; happy eyeballs aggregates). */
function describe(e: unknown, depth = 0): { codes: string[]; messages: string[] } {
  const out = { codes: [] as string[], messages: [] as string[] };
  if (depth > 5 || e === null || typeof e !== 'object') {
    if (typeof e === 'string') out.messages.push(e);
    return out;
  }
  const rec = e as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof rec.code === 'string') out.codes.push(rec.code);
  if (typeof rec.message === 'string') out.messages.push(rec.message);
  const nested = [rec.cause, ...(Array.isArray(rec.errors) ? rec.errors : [])];
  for (const n of nested) {
    const d = describe(n, depth + 1);
    out.codes.push(...d.codes);
    out.messages.push(...d.messages);
  }
  return out;
}

/** An answer cut at the size cap (transport.ts's ResponseTooLargeError) along the cause chain: its words and status. */
function tooLarge(e: unknown, depth = 0): FetchFailure | null {
  if (depth > 5 || e === null || typeof e !== 'object') return null;
  const rec = e as { code?: unknown; message?: unknown; status?: unknown; cause?: unknown };
  if (rec.code === 'RESPONSE_TOO_LARGE' && typeof rec.message === 'string') {
    return { failure: 'too-large', detail: rec.message, ...(typeof rec.status === 'number' ? { status: rec.status } : {}) };
  }
  return tooLarge(rec.cause, depth + 1);
}

/** Sorts a fetch rejection that was not our own abort. */
export function classifyFetchError(e: unknown): FetchFailure {
  const { codes, messages } = describe(e);
  const text = messages.join(' | ');
  if (codes.includes('RESPONSE_TOO_LARGE')) return tooLarge(e) ?? { failure: 'too-large', detail: messages[0] ?? 'the answer is too large' };
  if (codes.includes('UNEXPECTED_STATUS')) return { failure: 'odd-status', detail: messages[0] ?? 'the service answered a status outside 200-599' };
  if (codes.includes('REDIRECTED')) return { failure: 'redirect', detail: messages[0] ?? 'the service answered with a redirect (not followed)' };
  const certificate = certificateRefused(codes, text);
  if (certificate)
    return { failure: 'untrusted', detail: `could not connect securely: the service's certificate was refused (${certificate}): ${text.slice(0, 200)}` };
  const refused = codes.some((c) => NOT_CONNECTED.includes(c)) || NOT_CONNECTED_CHROMIUM.some((c) => text.includes(c));
  const code = codes.find((c) => c.startsWith('E') || c.startsWith('UND_')) ?? '';
  const detail = `${refused ? 'could not connect' : 'connection failed'}${code ? ` (${code})` : ''}${text ? `: ${text.slice(0, 200)}` : ''}`;
  return { failure: refused ? 'refused' : 'network', detail };
}

type StopReason = 'timeout' | 'aborted' | 'closed';

/** What ends an attempt before its answer: the caller's signal, the client's close(), the timeout. */
interface Stopper {
  /** Aborts the fetch. */
  signal: AbortSignal;
  /** Rejects once stopped: raced against an injected fetch that may ignore the signal. */
  stopped: Promise<never>;
  why(): StopReason | null;
  /** Clears the timer and the listeners. */
  release(): void;
}

function stopperFor(req: AttemptRequest, clock: Clock): Stopper {
  const controller = new AbortController();
  let why: StopReason | null = null;
  let onStop: () => void = () => {};
  const stopped = new Promise<never>((_, reject) => {
    onStop = () => reject(new Error('stopped'));
  });
  stopped.catch(() => {});
  const stop = (reason: StopReason) => (): void => {
    if (why !== null) return;
    why = reason;
    controller.abort();
    onStop();
  };
  const onCaller = stop('aborted');
  const onClose = stop('closed');
  if (req.signal?.aborted) onCaller();
  if (req.closeSignal?.aborted) onClose();
  req.signal?.addEventListener('abort', onCaller, { once: true });
  req.closeSignal?.addEventListener('abort', onClose, { once: true });
  const timer = clock.setTimeout(stop('timeout'), req.timeoutMs);
  const release = (): void => {
    clock.clearTimeout(timer);
    req.signal?.removeEventListener('abort', onCaller);
    req.closeSignal?.removeEventListener('abort', onClose);
  };
  return { signal: controller.signal, stopped, why: () => why, release };
}

export async function attempt(fetchFn: FetchFn, req: AttemptRequest, clock: Clock): Promise<AttemptOutcome> {
  const sentAt = clock.now();
  const stopper = stopperFor(req, clock);
  const { stopped } = stopper;
  try {
    if (stopper.why() !== null) throw new Error('stopped');
    // Racing `stopped` settles the attempt on time even if an injected fetch ignores the signal.
    const res = await Promise.race([
      fetchFn(req.url, { method: req.method, headers: req.headers, body: req.body, signal: stopper.signal, redirect: 'manual' }),
      stopped,
    ]);
    const text = await Promise.race([res.text(), stopped]);
    const header: HeaderGetter = (name) => {
      try {
        return res.headers.get(name);
      } catch {
        return null;
      }
    };
    return { kind: 'response', status: res.status, statusText: res.statusText, header, text, sentAt, receivedAt: clock.now() };
  } catch (e) {
    const receivedAt = clock.now();
    const why = stopper.why();
    if (why !== null) {
      const detail = why === 'timeout' ? `no answer within ${req.timeoutMs} ms` : why === 'aborted' ? 'cancelled by the caller' : 'the client was closed';
      return { kind: 'failure', failure: why, detail, sentAt, receivedAt };
    }
    return { kind: 'failure', ...classifyFetchError(e), sentAt, receivedAt };
  } finally {
    stopper.release();
  }
}
