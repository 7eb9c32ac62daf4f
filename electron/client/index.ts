/** The rate-aware Partner API client: what the catalog, purchases, app shell and benchmarks use. */
export { PartnerClient, DEFAULT_TIMEOUT_MS } from './partner-client';
export type { ApiResponse, ClientOptions, PageSizeRule, QueryValue, RequestOptions, TokenPresentation } from './types';
export { DEFAULT_TOKEN_PRESENTATION } from './types';
export type { Clock } from '../../shared/clock';
export { systemClock } from './clock';
export type { RetryPolicy } from './backoff';
export { DEFAULT_RETRY_POLICY, fullJitter, rateLimitFloorMs, retryPolicy } from './backoff';
export { BudgetRegistry, defaultBudgetRegistry, normalizeBaseUrl } from './budget-registry';
export type { BudgetRegistryOptions } from './budget-registry';
export type { BucketSnapshot } from './budget-bucket';
export { BudgetBucket } from './budget-bucket';
export { BucketModel } from './bucket';
export type { AnswerInfo, Ticket } from './bucket';
export { ServerClock } from './server-clock';
export type { Priority } from './queue';
export type { FetchFn, FailureKind } from './http';
export { UNKNOWN_OUTCOME_HINT } from './classify';
