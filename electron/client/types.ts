/** The client's public option and result types. */
import type { RateLimitHeaders, BudgetSample } from '../../shared/rate-limit';
import type { RetryPolicy } from './backoff';
import type { BudgetRegistry } from './budget-registry';
import type { ScopeStores } from './scope-stores';
import type { Clock } from '../../shared/clock';
import type { FetchFn } from './http';
import type { Priority } from './queue';

/** How a token is sent: `${scheme} ${token}` in `header`, or the bare token when scheme is null. */
export interface TokenPresentation {
  header: string;
  scheme: string | null;
}

export const DEFAULT_TOKEN_PRESENTATION: Readonly<TokenPresentation> = Object.freeze({ header: 'Authorization', scheme: 'Bearer' });

export interface ClientOptions {
  baseUrl: string;
  vendor: string;
  /** The vendor's tokens; requests rotate over them unless one is named. */
  tokens: string[];
  /** Injected: Node's fetch here, Electron's net.fetch in the app. Default: global fetch. */
  fetch?: FetchFn | typeof fetch;
  clock?: Clock;
  random?: () => number;
  /**
   * Per attempt, ms. Default 15000. A function is read at the start of each attempt, so a
   * setting changed while connected applies to the next attempt (an invalid value falls back to the default).
   */
  timeoutMs?: number | (() => number);
  retry?: Partial<RetryPolicy>;
  tokenPresentation?: TokenPresentation;
  /** Where the fleet of this client's scope reserves its slots, looked up on each attempt. Default: none (headers only). */
  stores?: ScopeStores;
  /**
   * Buckets shared per process, keyed by (baseUrl, vendor, endpoint). Default: the process-wide
   * registry, or a private one on `clock` when a clock is given (tests).
   */
  budgets?: BudgetRegistry;
  /**
   * Background calls (downloads, background pages, demo traffic) wait through 429s for as long as
   * the budget makes progress for anyone; they give up only when nothing of their endpoint has gone
   * through for anyone for this long (ms). Default 600000 (10 min). A function is read each time (a
   * setting that changes while connected).
   */
  stallLimitMs?: number | (() => number);
  /** Longest time an interactive call waits in its bucket's queue before it fails RATE_LIMITED, nothing sent (ms). Default 60000. */
  maxQueueMs?: number;
}

export type QueryValue = string | number | boolean | undefined;

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  /** JSON. */
  body?: unknown;
  signal?: AbortSignal;
  /** Default 'interactive'. */
  priority?: Priority;
  /** Per attempt, ms (default: the client's). */
  timeoutMs?: number;
  /** A specific token of the vendor (must be one of `tokens`). */
  token?: string;
  /** More headers (e.g. an idempotency key); the client's own (authorization, accept, content type) win. */
  headers?: Record<string, string>;
  /** Each attempt's sample of this request (429s and failures included), beside the client's subscribers. */
  onSample?: (sample: BudgetSample) => void;
}

export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
  rateLimit: RateLimitHeaders;
  sample: BudgetSample;
  attempts: number;
}
