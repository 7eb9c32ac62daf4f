/**
 * PartnerClient: every call to the Partner service goes through here. It validates what would only
 * earn a 400, waits for its bucket's go (budget-bucket.ts: the fleet's slot, then the header model),
 * sends one attempt at a time with a timeout, records it whole (attempt.ts), hands it to the bucket
 * and to every sample listener, and lets next-step.ts decide whether to return, fail or try again.
 */
import { ENDPOINTS, isEndpointId } from '../../shared/endpoints';
import type { EndpointId } from '../../shared/endpoints';
import type { PartnerError } from '../../shared/errors';
import { PartnerError as PartnerErrorClass } from '../../shared/errors';
import type { BudgetSample } from '../../shared/rate-limit';
import type { Clock } from '../../shared/clock';
import { wallTime } from '../../shared/clock';
import { stringifyJsonExact } from '../../shared/json/stringify-exact';
import type { WaitCauses } from '../../shared/wait-causes';
import { emptyWaitCauses, ownShare } from '../../shared/wait-causes';
import type { AnsweredAttempt, FailedAttempt } from './attempt';
import { budgetSample, isAnswered, recordAttempt } from './attempt';
import type { RetryPolicy } from './backoff';
import { fullJitter, retryPolicy } from './backoff';
import type { BudgetBucket, BucketSnapshot } from './budget-bucket';
import { BudgetRegistry, defaultBudgetRegistry } from './budget-registry';
import { badRequest, checkClientOptions, DEFAULT_STALL_LIMIT_MS, DEFAULT_TIMEOUT_MS, readSetting } from './client-options';
import { systemClock } from './clock';
import { cancelledError, label } from './errors';
import { nextQueueOrder } from './header-pacer';
import type { AttemptOutcome, AttemptRequest, FetchFn } from './http';
import { attempt } from './http';
import type { NextStep, RetryRules } from './next-step';
import { afterAnswer, afterFailure } from './next-step';
import type { FleetSlots, PaceRequest } from './pacer';
import type { Priority } from './queue';
import type { ScopeStores } from './scope-stores';
import { createTransport } from './transport';
import { requestHeaders, requestUrl } from './request-parts';
import type { ApiResponse, ClientOptions, RequestOptions, TokenPresentation } from './types';
import { requestProblem } from './validation';

export { DEFAULT_MAX_QUEUE_MS, DEFAULT_STALL_LIMIT_MS, DEFAULT_TIMEOUT_MS } from './client-options';

/** One call being made: what stays the same across its attempts. */
interface Call {
  endpoint: EndpointId;
  opts: RequestOptions;
  bucket: BudgetBucket;
  http: Omit<AttemptRequest, 'timeoutMs' | 'signal' | 'closeSignal'>;
  priority: Priority;
  startedAt: number;
  order: number;
}

/** Why a request that is not safe to resend was not sent while its client drains (its profile reconnects or closes). */
const DRAINING = 'Not sent: its profile is reconnecting or closing. Nothing was sent; try again in a moment.';

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
  /** Closing once what is on the wire is answered: a request that is not safe to resend is no longer sent. */
  private draining = false;

  constructor(options: ClientOptions) {
    const checked = checkClientOptions(options);
    this.baseUrl = checked.baseUrl;
    this.vendor = checked.vendor;
    this.tokens = checked.tokens;
    this.presentation = checked.presentation;
    this.timeoutMs = checked.timeoutMs;
    this.stallLimit = checked.stallLimitMs;
    this.maxQueueMs = checked.maxQueueMs;
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

  /**
   * Before close(): a request not safe to resend (a registration) is refused CANCELLED instead of
   * sent, also one waiting for budget, since close() would abort it on the wire, its outcome unknown.
   */
  drain(): void {
    this.draining = true;
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
    const call = this.prepare(endpoint, options ?? {});
    const { opts, bucket } = call;
    for (let attemptNo = 1; ; attemptNo++) {
      const queuedAt = this.clock.now();
      const waitCauses = emptyWaitCauses();
      const ticket = await bucket.acquire(this.paceRequest(call, waitCauses));
      const refusal = this.refusal(endpoint) ?? (opts.signal?.aborted ? 'The request was cancelled.' : null);
      if (refusal) {
        bucket.release(ticket);
        throw cancelledError(endpoint, refusal);
      }
      const closer = new AbortController();
      this.closers.add(closer);
      let outcome: AttemptOutcome;
      try {
        const timeoutMs = opts.timeoutMs ?? this.attemptTimeoutMs();
        outcome = await attempt(this.fetchFn, { ...call.http, timeoutMs, signal: opts.signal, closeSignal: closer.signal }, this.clock);
      } finally {
        this.closers.delete(closer);
      }
      const waitedMs = Math.max(0, ticket.sentAt - queuedAt);
      const start = {
        vendor: this.vendor,
        endpoint,
        tokens: this.tokens,
        number: attemptNo,
        priority: call.priority,
        requestStartedAt: call.startedAt,
        ticket,
      };
      const wallNow = wallTime(this.clock, this.clock.now());
      const record = recordAttempt({ ...start, wait: { ms: waitedMs, causes: ownShare(waitCauses, waitedMs) } }, outcome, wallNow);
      const next = isAnswered(record) ? this.onAnswer<T>(record, bucket, opts.onSample) : this.onFailure(record, bucket, opts.onSample);
      if ('result' in next) return next.result;
      if ('error' in next) throw next.error;
      if (next.sleepMs > 0) await this.sleep(next.sleepMs, endpoint, opts.signal);
    }
  }

  /** Why a call may not be sent now (the client closed, or draining and the call not safe to resend), or null. */
  private refusal(endpoint: EndpointId): string | null {
    if (this.closed) return 'The client is closed.';
    return this.draining && !ENDPOINTS[endpoint].safeToResend ? DRAINING : null;
  }

  /** Checks a call before anything is sent (no slot used) and builds what its attempts share. */
  private prepare(endpoint: EndpointId, opts: RequestOptions): Call {
    if (!isEndpointId(endpoint)) throw badRequest(`unknown endpoint ${JSON.stringify(String(endpoint).slice(0, 60))}`);
    const refusal = this.refusal(endpoint);
    if (refusal) throw cancelledError(endpoint, refusal);
    const problem = requestProblem(endpoint, opts);
    if (problem) throw badRequest(`${label(endpoint)}: ${problem}. Not sent.`, endpoint);
    const spec = ENDPOINTS[endpoint];
    const token = this.pickToken(endpoint, opts.token);
    const bucket = this.registry.bucket(this.baseUrl, this.vendor, endpoint);
    const http = {
      url: requestUrl(this.baseUrl, spec, opts.query),
      method: spec.method,
      headers: { ...opts.headers, ...requestHeaders(this.presentation, token, opts.body !== undefined) },
      // Ids past 2^53 (NumberText) go out as the number text the service wrote.
      body: opts.body === undefined ? undefined : stringifyJsonExact(opts.body),
    };
    return { endpoint, opts, bucket, http, priority: opts.priority ?? 'interactive', startedAt: this.clock.now(), order: nextQueueOrder() };
  }

  /** One attempt's ask for the bucket's go. */
  private paceRequest(call: Call, waitCauses: WaitCauses): PaceRequest {
    const { priority, order, opts } = call;
    // Interactive calls wait in the queue at most maxQueueMs; background ones as long as a stall (read
    // for each attempt: the setting may change while a call waits).
    const maxWaitMs = priority === 'background' ? this.stallLimitMs : this.maxQueueMs;
    return { priority, signal: opts.signal, owner: this, order, maxWaitMs, waitCauses, slots: this.fleetSlots(call.endpoint, opts.signal) };
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

  /** The rules next-step.ts decides by. */
  private get rules(): RetryRules {
    return { policy: this.policy, random: this.random, stallLimitMs: () => this.stallLimitMs };
  }

  private onAnswer<T>(attempt: AnsweredAttempt, bucket: BudgetBucket, own: RequestOptions['onSample']): NextStep<T> {
    const settled = bucket.settle(attempt, (n) => fullJitter(n, this.policy, this.random));
    const sample = this.emit(budgetSample(attempt, this.clock, settled.consumers), own);
    return afterAnswer<T>(attempt, settled, sample, this.rules);
  }

  private onFailure(attempt: FailedAttempt, bucket: BudgetBucket, own: RequestOptions['onSample']): NextStep<never> {
    bucket.settle(attempt);
    this.emit(budgetSample(attempt, this.clock), own);
    return afterFailure(attempt, this.clock.now(), this.rules);
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
