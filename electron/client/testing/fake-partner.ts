/**
 * A fake Partner service behind a fake fetch, on a ManualClock, for the client's unit tests. It runs
 * the limiter's arithmetic of spec/server-behaviour.md (written again here, independently of the
 * simulator): 'whole-second' (Yii2: the allowance comes back whole when the server's second
 * changes; a refusal re-stamps) and 'continuous' (N per second, millisecond precision). Requests
 * reach the "server" after half the latency (or another share) and the answer comes back after the rest; the
 * server's clock may be offset from the client's. Hooks inject faults and rewrite headers.
 */
import { ENDPOINTS, findEndpoint } from '../../../shared/endpoints';
import type { EndpointId } from '../../../shared/endpoints';
import type { ManualClock } from './manual-clock';

export type FakeRefill = 'whole-second' | 'continuous';

/** What the fake does with one request, decided when it reaches the server. */
export type FakeAction =
  | { kind: 'answer'; status?: number; body?: unknown; text?: string } // through the limiter (default)
  | { kind: 'rate-limited' } // a 429 whatever the limiter says (Remaining 0, Reset 1)
  | { kind: 'drop' } // the limiter and action run, then the connection breaks
  | { kind: 'hang' } // never answers (until aborted)
  | { kind: 'refuse' }; // connection refused: nothing reaches the server

export interface FakeRequest {
  endpoint: EndpointId;
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: unknown;
  token: string | null;
  /** Server time (ms) at which it was processed. */
  serverAt: number;
}

export interface FakeRecord {
  endpoint: EndpointId;
  vendor: string;
  serverAt: number;
  status: number;
  foreign: boolean;
}

export interface FakePartnerOptions {
  clock: ManualClock;
  refill: FakeRefill;
  /** Round-trip latency in ms (number or generator), split as `toServerShare` says. Default 2. */
  latencyMs?: number | (() => number);
  /**
   * The share of the round trip before the server counts the request, the rest after it answers. Default 0.5.
   * The simulator's added latency is all before (1); a service that counts on arrival and then works answers late (near 0).
   */
  toServerShare?: number;
  /** Server clock minus client clock, ms. Default 0. */
  serverOffsetMs?: number;
  /** token -> vendor. Default: every token is vendor 'v'. */
  vendorOf?: (token: string) => string | null;
  /** Decide a request's fate (faults); default answer. */
  action?: (req: FakeRequest) => FakeAction;
  /** Rewrite the rate-limit headers of an answer (fuzzing, garbling); return the headers to send. */
  rewriteHeaders?: (headers: Record<string, string>, req: FakeRequest) => Record<string, string | string[] | undefined>;
  /** Omit the Date header. */
  noDate?: boolean;
  /** The server's limit per endpoint (default: the endpoint table's). */
  limitOf?: (endpoint: EndpointId) => number;
}

/** One fetch in progress: how it ends, the latency of its way back, and a later timer of it (which an abort clears). */
interface Exchange {
  resolve(response: Response): void;
  reject(error: unknown): void;
  /** Ends the fetch once (a late abort or answer does nothing). */
  finish(fn: () => void): void;
  backMs: number;
  later(fn: () => void, ms: number): void;
}

interface Bucket {
  allowance: number;
  stamp: number;
}

function abortError(): Error {
  const e = new Error('This operation was aborted');
  e.name = 'AbortError';
  return e;
}

export class FakePartner {
  readonly records: FakeRecord[] = [];
  readonly received: FakeRequest[] = [];
  private buckets = new Map<string, Bucket>();
  refill: FakeRefill;
  constructor(private readonly options: FakePartnerOptions) {
    this.refill = options.refill;
  }

  serverNow(): number {
    return this.options.clock.now() + (this.options.serverOffsetMs ?? 0);
  }

  /** The limiter: one check at server time `at` (ms). */
  take(vendor: string, endpoint: EndpointId, at: number): { allowed: boolean; limit: number; remaining: number; reset: number } {
    const limit = this.options.limitOf?.(endpoint) ?? ENDPOINTS[endpoint].limit;
    const key = `${vendor}/${endpoint}`;
    const b = this.buckets.get(key);
    if (this.refill === 'whole-second') {
      const current = Math.floor(at / 1000);
      let allowance = b ? b.allowance + Math.max(0, current - b.stamp) * limit : limit;
      allowance = Math.min(limit, allowance);
      if (allowance < 1) {
        this.buckets.set(key, { allowance: 0, stamp: current });
        return { allowed: false, limit, remaining: 0, reset: 1 };
      }
      this.buckets.set(key, { allowance: allowance - 1, stamp: current });
      return { allowed: true, limit, remaining: allowance - 1, reset: Math.trunc((limit - allowance + 1) / limit) };
    }
    const now = Math.floor(at);
    const full = limit * 1000;
    let allowance = b ? b.allowance + Math.max(0, now - b.stamp) * limit : full;
    allowance = Math.min(full, allowance);
    if (allowance < 1000) {
      this.buckets.set(key, { allowance, stamp: now });
      return { allowed: false, limit, remaining: 0, reset: 1 };
    }
    allowance -= 1000;
    this.buckets.set(key, { allowance, stamp: now });
    return { allowed: true, limit, remaining: Math.floor(allowance / 1000), reset: Math.floor((full - allowance) / full) };
  }

  /** Another consumer of the vendor's budget takes a slot now (a competitor, another process). */
  foreign(vendor: string, endpoint: EndpointId): boolean {
    const at = this.serverNow();
    const d = this.take(vendor, endpoint, at);
    this.records.push({ endpoint, vendor, serverAt: at, status: d.allowed ? 200 : 429, foreign: true });
    return d.allowed;
  }

  /** Our requests answered 429 (or all of them, with foreign). */
  count(status: number, endpoint?: EndpointId, includeForeign = false): number {
    return this.records.filter((r) => r.status === status && (endpoint === undefined || r.endpoint === endpoint) && (includeForeign || !r.foreign)).length;
  }

  /** Most of our successful requests processed in any single server second. */
  maxPerServerSecond(endpoint: EndpointId): number {
    const per = new Map<number, number>();
    for (const r of this.records) {
      if (r.foreign || r.endpoint !== endpoint || r.status === 429) continue;
      const s = Math.floor(r.serverAt / 1000);
      per.set(s, (per.get(s) ?? 0) + 1);
    }
    return Math.max(0, ...per.values());
  }

  private latency(): number {
    const l = this.options.latencyMs ?? 2;
    return Math.max(0, typeof l === 'function' ? l() : l);
  }

  readonly fetch = (input: string, init: RequestInit = {}): Promise<Response> => {
    const clock = this.options.clock;
    const signal = init.signal ?? undefined;
    const url = new URL(input);
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = Object.fromEntries(Object.entries((init.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]));
    const total = this.latency();
    return new Promise<Response>((resolve, reject) => {
      let timer: unknown = null;
      let done = false;
      const finish = (fn: () => void): void => {
        if (done) return;
        done = true;
        signal?.removeEventListener('abort', onAbort);
        fn();
      };
      const onAbort = (): void => {
        if (timer !== null) clock.clearTimeout(timer);
        finish(() => reject(abortError()));
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort);
      const later = (fn: () => void, ms: number): void => {
        timer = clock.setTimeout(fn, ms);
      };
      const toServer = total * (this.options.toServerShare ?? 0.5);
      const exchange: Exchange = { resolve, reject, finish, backMs: total - toServer, later };
      timer = clock.setTimeout(() => {
        timer = null;
        this.arrive(exchange, { method, url, headers, body: init.body });
      }, toServer);
    });
  };

  /** The request reaches the server (its share of the latency after it was sent). */
  private arrive(x: Exchange, sent: { method: string; url: URL; headers: Record<string, string>; body: RequestInit['body'] }): void {
    const { method, url, headers } = sent;
    const endpoint = findEndpoint(method, url.pathname);
    if (!endpoint) return x.finish(() => x.resolve(new Response('{"name":"Not Found"}', { status: 404 })));
    const auth = headers['authorization'] ?? '';
    const token = /^Bearer (\S+)$/.exec(auth)?.[1] ?? headers['x-api-key'] ?? null;
    const serverAt = this.serverNow();
    const req: FakeRequest = {
      endpoint: endpoint.id,
      method,
      url,
      headers,
      body: typeof sent.body === 'string' ? (JSON.parse(sent.body) as unknown) : undefined,
      token,
      serverAt,
    };
    const action = this.options.action?.(req) ?? { kind: 'answer' };
    if (action.kind === 'refuse') {
      return x.finish(() =>
        x.reject(new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }) })),
      );
    }
    this.received.push(req);
    const vendor = token === null ? null : (this.options.vendorOf?.(token) ?? 'v');
    if (vendor === null) {
      this.records.push({ endpoint: endpoint.id, vendor: '', serverAt, status: 401, foreign: false });
      const body = { name: 'Unauthorized', message: 'Your request was made with invalid credentials.', code: 0, status: 401 };
      return this.reply(x, 401, body, undefined, {}, req);
    }
    this.decide(x, req, vendor, action);
  }

  /** The limiter's decision on a request of `vendor`, and the answer (or the fault) it gets. */
  private decide(x: Exchange, req: FakeRequest, vendor: string, action: FakeAction): void {
    const { endpoint: id, serverAt } = req;
    const d =
      action.kind === 'rate-limited'
        ? { allowed: false, limit: this.options.limitOf?.(id) ?? ENDPOINTS[id].limit, remaining: 0, reset: 1 }
        : this.take(vendor, id, serverAt);
    const status = d.allowed ? (action.kind === 'answer' ? (action.status ?? 200) : 200) : 429;
    this.records.push({ endpoint: id, vendor, serverAt, status: action.kind === 'drop' ? 0 : status, foreign: false });
    if (action.kind === 'hang') return;
    if (action.kind === 'drop') {
      const dropped = new TypeError('fetch failed', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) });
      x.later(() => x.finish(() => x.reject(dropped)), x.backMs);
      return;
    }
    const answer: { body?: unknown; text?: string } = action.kind === 'answer' ? action : {};
    const body = !d.allowed
      ? { name: 'Too Many Requests', message: 'Rate limit exceeded.', code: 0, status: 429 }
      : (answer.body ?? { ok: true, endpoint: id });
    const rate = { 'X-Rate-Limit-Limit': String(d.limit), 'X-Rate-Limit-Remaining': String(d.remaining), 'X-Rate-Limit-Reset': String(d.reset) };
    this.reply(x, status, body, d.allowed ? answer.text : undefined, rate, req);
  }

  private reply(x: Exchange, status: number, body: unknown, text: string | undefined, rate: Record<string, string>, req: FakeRequest): void {
    const serverAt = req.serverAt;
    const h = new Headers({ 'Content-Type': 'application/json' });
    if (!this.options.noDate) h.set('Date', new Date(serverAt).toUTCString());
    const rewritten = this.options.rewriteHeaders && Object.keys(rate).length > 0 ? this.options.rewriteHeaders({ ...rate }, req) : rate;
    for (const [k, v] of Object.entries(rewritten)) {
      if (v === undefined) continue;
      if (Array.isArray(v)) for (const one of v) h.append(k, one);
      else h.set(k, v);
    }
    this.options.clock.setTimeout(() => x.finish(() => x.resolve(new Response(text ?? JSON.stringify(body), { status, headers: h }))), x.backMs);
  }
}
