/**
 * PartnerClient: every call to the Partner service goes through here. It validates what would only
 * earn a 400, waits for its bucket's budget (shared per vendor and endpoint, see header-model.ts), sends
 * one attempt at a time with a timeout, reports a BudgetSample for every answer or failure, and
 * decides what may be retried:
 *   429            always safe to resend (nothing happened): the whole bucket pauses for at least
 *                  Reset (0 = "under a second", never "now") plus full jitter growing with each
 *                  429 in a row, within the retry budget; then RATE_LIMITED with the 429 body.
 *   refused        nothing reached the server: retried with backoff for any endpoint (NETWORK).
 *   timeout, reset, 5xx   unknown outcome: retried with backoff only where the endpoint table says
 *                  safeToResend; otherwise UNKNOWN_OUTCOME at once (registration is never resent).
 */
import { DEFAULT_GIVE_UP_AFTER_MINUTES } from '../../shared/background-work';
import { ENDPOINTS, isEndpointId } from '../../shared/endpoints';
import type { EndpointId, EndpointSpec } from '../../shared/endpoints';
import type { PartnerError } from '../../shared/errors';
import { PartnerError as PartnerErrorClass } from '../../shared/errors';
import type { BudgetSample } from '../../shared/rate-limit';
import type { RetryPolicy } from './backoff';
import { fullJitter, mayRetry, retryPolicy } from './backoff';
import type { BudgetBucket, BucketSnapshot } from './budget-bucket';
import { nextQueueOrder } from './header-pacer';
import type { FleetSlots } from './pacer';
import { BudgetRegistry, defaultBudgetRegistry } from './budget-registry';
import { normalizeBaseUrl } from '../../shared/base-url';
import type { ScopeStores } from './scope-stores';
import { failureError, invalidBodyError, parseBody, statusError, unknownOutcomeAnswerError } from './classify';
import type { Clock } from '../../shared/clock';
import { systemClock } from './clock';
import { cancelledError, label, sharedBudgetError, stalledError } from './errors';
import type { AttemptOutcome, FetchFn } from './http';
import type { AnsweredAttempt, FailedAttempt } from './attempt';
import { budgetSample, isAnswered, recordAttempt } from './attempt';
import { attempt } from './http';
import { createTransport } from './transport';
import type { Priority } from './queue';
import type { ApiResponse, ClientOptions, QueryValue, RequestOptions, TokenPresentation } from './types';
import { DEFAULT_TOKEN_PRESENTATION } from './types';
import { requestProblem } from './validation';
import { stringifyJsonExact } from '../../shared/json/stringify-exact';
import { emptyWaitCauses, ownShare } from '../../shared/wait-causes';

export const DEFAULT_TIMEOUT_MS = 15_000;
/** A background call gives up only after nothing of its budget went through for anyone this long. */
export const DEFAULT_STALL_LIMIT_MS = DEFAULT_GIVE_UP_AFTER_MINUTES * 60_000;
export const DEFAULT_MAX_QUEUE_MS = 60_000;
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Visible ASCII only: no spaces, no control characters (a newline would split the header).
const TOKEN_CHARS = /^[\x21-\x7e]+$/;

function validTimeout(ms: unknown): ms is number {
  return typeof ms === 'number' && Number.isFinite(ms) && ms > 0;
}

function badRequest(message: string, endpoint?: EndpointId): PartnerError {
  return new PartnerErrorClass({ code: 'BAD_REQUEST', message, endpoint, retryable: false });
}

export class PartnerClient {
  readonly baseUrl: string;
  readonly vendor: string;
  readonly policy: RetryPolicy;
  private readonly tokens: string[];
  private nextToken = 0;
  private readonly fetchFn: FetchFn;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly timeoutMs: number | (() => number);
  private readonly presentation: TokenPresentation;
  private readonly registry: BudgetRegistry;
  private readonly stores: ScopeStores | undefined;
  private readonly stallLimit: number | (() => number);
  private readonly maxQueueMs: number;
  private readonly listeners = new Set<(sample: BudgetSample) => void>();
  /** One controller per attempt in flight, aborted by close() (no listener piles up on a shared signal). */
  private readonly closers = new Set<AbortController>();
  private readonly sleeps = new Set<{ timer: unknown; cancel: () => void }>();
  private closed = false;

  constructor(options: ClientOptions) {
    if (options === null || typeof options !== 'object') throw badRequest('PartnerClient needs options');
    try {
      const url = new URL(options.baseUrl);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
    } catch {
      throw badRequest(`baseUrl must be an http(s) URL, got ${JSON.stringify(String(options.baseUrl).slice(0, 100))}`);
    }
    if (typeof options.vendor !== 'string' || options.vendor.trim() === '') throw badRequest('vendor must be a non-empty string');
    if (!Array.isArray(options.tokens)) throw badRequest('tokens must be a list of strings');
    options.tokens.forEach((t, i) => {
      if (typeof t !== 'string' || !TOKEN_CHARS.test(t))
        throw badRequest(`token #${i + 1} of vendor ${options.vendor} is empty or has characters an HTTP header cannot carry`);
    });
    const presentation = options.tokenPresentation ?? DEFAULT_TOKEN_PRESENTATION;
    if (!HEADER_NAME.test(presentation.header) || (presentation.scheme !== null && !HEADER_NAME.test(presentation.scheme))) {
      throw badRequest('tokenPresentation needs a header name and a scheme (or null) made of token characters');
    }
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const stallLimitMs = options.stallLimitMs ?? DEFAULT_STALL_LIMIT_MS;
    if (typeof stallLimitMs !== 'function' && !validTimeout(stallLimitMs)) throw badRequest('stallLimitMs must be a positive number');
    const maxQueueMs = options.maxQueueMs ?? DEFAULT_MAX_QUEUE_MS;
    if (!validTimeout(maxQueueMs)) throw badRequest('maxQueueMs must be a positive number');
    if (typeof timeoutMs !== 'function' && !validTimeout(timeoutMs)) throw badRequest('timeoutMs must be a positive number');
    this.baseUrl = normalizeBaseUrl(options.baseUrl);
    this.vendor = options.vendor;
    this.tokens = [...options.tokens];
    this.presentation = { ...presentation };
    this.timeoutMs = timeoutMs;
    this.stallLimit = stallLimitMs;
    this.maxQueueMs = maxQueueMs;
    this.policy = retryPolicy(options.retry);
    this.clock = options.clock ?? options.budgets?.clock ?? systemClock;
    this.random = options.random ?? Math.random;
    this.registry = options.budgets ?? (options.clock ? new BudgetRegistry({ clock: options.clock }) : defaultBudgetRegistry());
    this.stores = options.stores;
    const injected = options.fetch as FetchFn | undefined;
    this.fetchFn = injected ?? createTransport();
  }

  /** Subscribes to every response's (and failure's) budget figures; returns the unsubscribe. */
  onSample(listener: (sample: BudgetSample) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Every endpoint's bucket for this vendor: limit, estimates, pause, queue and in-flight counts. */
  budgetSnapshot(): BucketSnapshot[] {
    return this.registry.snapshot(this.baseUrl, this.vendor);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Rejects this client's queued requests with CANCELLED, aborts its requests in flight, clears its timers. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const bucket of this.registry.all()) bucket.cancelOwner(this, 'The client was closed.');
    for (const c of [...this.closers]) c.abort();
    for (const s of [...this.sleeps]) s.cancel();
  }

  async request<T = unknown>(endpoint: EndpointId, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    if (!isEndpointId(endpoint)) throw badRequest(`unknown endpoint ${JSON.stringify(String(endpoint).slice(0, 60))}`);
    if (this.closed) throw cancelledError(endpoint, 'The client is closed.');
    const opts = options ?? {};
    const problem = requestProblem(endpoint, opts);
    if (problem) throw badRequest(`${label(endpoint)}: ${problem}. Not sent.`, endpoint);
    const spec = ENDPOINTS[endpoint];
    const token = this.pickToken(endpoint, opts.token);
    const bucket = this.registry.bucket(this.baseUrl, this.vendor, endpoint);
    const request = {
      url: this.urlFor(spec, opts.query),
      method: spec.method,
      headers: { ...opts.headers, ...this.headersFor(token, opts.body !== undefined) },
      // Ids past 2^53 (NumberText) go out as the number text the service wrote.
      body: opts.body === undefined ? undefined : stringifyJsonExact(opts.body),
    };
    const priority: Priority = opts.priority ?? 'interactive';
    const startedAt = this.clock.now();
    const order = nextQueueOrder();
    for (let attemptNo = 1; ; attemptNo++) {
      const queuedAt = this.clock.now();
      // Interactive calls wait in the queue at most maxQueueMs; background ones as long as a stall (read
      // for each attempt: the setting may change while a call waits).
      const maxWaitMs = priority === 'background' ? this.stallLimitMs : this.maxQueueMs;
      const waitCauses = emptyWaitCauses();
      const ticket = await bucket.acquire({
        priority,
        signal: opts.signal,
        owner: this,
        order,
        maxWaitMs,
        waitCauses,
        slots: this.fleetSlots(endpoint, opts.signal),
      });
      if (opts.signal?.aborted || this.closed) {
        bucket.release(ticket);
        throw cancelledError(endpoint, this.closed ? 'The client was closed.' : 'The request was cancelled.');
      }
      const closer = new AbortController();
      this.closers.add(closer);
      let outcome: AttemptOutcome;
      try {
        outcome = await attempt(
          this.fetchFn,
          { ...request, timeoutMs: opts.timeoutMs ?? this.attemptTimeoutMs(), signal: opts.signal, closeSignal: closer.signal },
          this.clock,
        );
      } finally {
        this.closers.delete(closer);
      }
      const waitedMs = Math.max(0, ticket.sentAt - queuedAt);
      const start = { vendor: this.vendor, endpoint, tokens: this.tokens, number: attemptNo, priority, requestStartedAt: startedAt, ticket };
      const record = recordAttempt({ ...start, wait: { ms: waitedMs, causes: ownShare(waitCauses, waitedMs) } }, outcome, this.clock.now());
      const next = isAnswered(record) ? this.onAnswer<T>(record, bucket, opts.onSample) : this.onFailure(record as FailedAttempt, bucket, opts.onSample);
      if ('result' in next) return next.result;
      if ('error' in next) throw next.error;
      if (next.sleepMs > 0) await this.sleep(next.sleepMs, endpoint, opts.signal);
    }
  }

  /** The fleet's slot store of this client's scope, looked up for every slot, and this call's cancellable wait for it. */
  private fleetSlots(endpoint: EndpointId, signal: AbortSignal | undefined): FleetSlots | undefined {
    const stores = this.stores;
    if (!stores) return undefined;
    return { store: () => stores.storeFor(this), sleep: (ms) => this.sleep(ms, endpoint, signal), closed: () => this.closed };
  }

  /** The per-attempt timeout now: a function is read each time; a bad value from it falls back to the default. */
  private attemptTimeoutMs(): number {
    return readSetting(this.timeoutMs, DEFAULT_TIMEOUT_MS);
  }

  /** How long background work waits without any success for anyone (read each time, as the timeout). */
  private get stallLimitMs(): number {
    return readSetting(this.stallLimit, DEFAULT_STALL_LIMIT_MS);
  }

  // ---- one answer ----

  private onAnswer<T>(
    attempt: AnsweredAttempt,
    bucket: BudgetBucket,
    own: RequestOptions['onSample'],
  ): { result: ApiResponse<T> } | { error: PartnerError } | { sleepMs: number } {
    const { endpoint, number: attemptNo, requestStartedAt: startedAt } = attempt;
    const { status, rate } = attempt.result;
    const settled = bucket.settle(attempt, (n) => fullJitter(n, this.policy, this.random));
    const sample = this.emit(budgetSample(attempt, this.clock, settled.consumers), own);
    const body = parseBody(attempt.result.text);
    if (status >= 200 && status < 300) {
      if (!body.json) {
        if (status === 204 || (status !== 200 && attempt.result.text.trim() === ''))
          return { result: { status, body: null as T, rateLimit: rate, sample, attempts: attemptNo } };
        return { error: invalidBodyError(attempt) };
      }
      return { result: { status, body: body.value as T, rateLimit: rate, sample, attempts: attemptNo } };
    }
    const { at: now, stalledMs } = settled;
    const retryAfter = attempt.result.retryAfterMs;
    if (status === 429) {
      // The bucket paused already (settle); the request waits in its queue again.
      const refused = statusError(attempt, body);
      if (attempt.priority === 'background') {
        // A 429 is always safe to resend and the budget comes back: wait as long as it moves for anyone.
        return stalledMs < this.stallLimitMs ? { sleepMs: 0 } : { error: stalledError(endpoint, refused, stalledMs) };
      }
      if (mayRetry(attemptNo, startedAt, now, settled.pauseMs, this.policy)) return { sleepMs: 0 };
      return { error: sharedBudgetError(refused, settled.consumers, this.vendor) };
    }
    if (status >= 500) {
      if (!ENDPOINTS[endpoint].safeToResend) return { error: unknownOutcomeAnswerError(attempt, body) };
      const backoff = Math.max(fullJitter(attemptNo - 1, this.policy, this.random), retryAfter ?? 0);
      if (mayRetry(attemptNo, startedAt, now, backoff, this.policy)) return { sleepMs: backoff };
    }
    return { error: statusError(attempt, body) };
  }

  // ---- no answer ----

  private onFailure(attempt: FailedAttempt, bucket: BudgetBucket, own: RequestOptions['onSample']): { error: PartnerError } | { sleepMs: number } {
    const { endpoint, number: attemptNo } = attempt;
    const { failure } = attempt.result;
    const safeToResend = ENDPOINTS[endpoint].safeToResend;
    bucket.settle(attempt);
    this.emit(budgetSample(attempt, this.clock), own);
    if (failure === 'aborted' || failure === 'closed') {
      const why = failure === 'closed' ? 'The client was closed' : 'The request was cancelled';
      if (safeToResend) return { error: cancelledError(endpoint, `${why}.`) };
      return { error: failureError(attempt, `${why} after it was sent`) };
    }
    if (failure === 'refused' || (safeToResend && failure !== 'too-large')) {
      const backoff = fullJitter(attemptNo - 1, this.policy, this.random);
      if (mayRetry(attemptNo, attempt.requestStartedAt, this.clock.now(), backoff, this.policy)) return { sleepMs: backoff };
    }
    return { error: failureError(attempt) };
  }

  // ---- helpers ----

  /** Hands an attempt's sample to every subscriber, then to the request's own listener (`own`). */
  private emit(sample: BudgetSample, own?: (sample: BudgetSample) => void): BudgetSample {
    for (const listener of own ? [...this.listeners, own] : [...this.listeners]) {
      try {
        listener(sample);
      } catch {
        // A subscriber's bug must not break the request that reported it.
      }
    }
    return sample;
  }

  private pickToken(endpoint: EndpointId, named: string | undefined): string {
    if (named !== undefined) {
      if (!this.tokens.includes(named))
        throw badRequest(`${label(endpoint)}: the named token is not one of vendor ${this.vendor}'s tokens. Not sent.`, endpoint);
      return named;
    }
    if (this.tokens.length === 0) {
      throw new PartnerErrorClass({
        code: 'UNAUTHORIZED',
        message: `${label(endpoint)}: vendor ${this.vendor} has no token. Not sent.`,
        endpoint,
        retryable: false,
        hint: 'Add a token to the vendor profile.',
      });
    }
    const token = this.tokens[this.nextToken % this.tokens.length]!;
    this.nextToken = (this.nextToken + 1) % this.tokens.length;
    return token;
  }

  private urlFor(spec: EndpointSpec, query: Record<string, QueryValue> | undefined): string {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) params.append(k, String(v));
    const qs = params.toString();
    return `${this.baseUrl}${spec.path}${qs ? `?${qs}` : ''}`;
  }

  private headersFor(token: string, hasBody: boolean): Record<string, string> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    headers[this.presentation.header] = this.presentation.scheme === null ? token : `${this.presentation.scheme} ${token}`;
    if (hasBody) headers['Content-Type'] = 'application/json';
    return headers;
  }

  /** A cancellable wait on the client's clock (backoff between attempts). */
  private sleep(ms: number, endpoint: EndpointId, signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const entry = {
        timer: null as unknown,
        cancel: () => finish(cancelledError(endpoint, this.closed ? 'The client was closed.' : 'The request was cancelled.')),
      };
      const onAbort = (): void => entry.cancel();
      const finish = (error?: PartnerError): void => {
        if (!this.sleeps.delete(entry)) return;
        this.clock.clearTimeout(entry.timer);
        signal?.removeEventListener('abort', onAbort);
        if (error) reject(error);
        else resolve();
      };
      this.sleeps.add(entry);
      entry.timer = this.clock.setTimeout(() => finish(), ms);
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}

/** A duration given as a number or read from a function each time; a bad or throwing one gives the default. */
function readSetting(setting: number | (() => number), fallback: number): number {
  if (typeof setting === 'number') return setting;
  let value: unknown;
  try {
    value = setting();
  } catch {
    return fallback;
  }
  return validTimeout(value) ? value : fallback;
}
