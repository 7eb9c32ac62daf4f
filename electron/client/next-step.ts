/**
 * What the client does after one attempt, decided from the attempt record and what the bucket made of
 * it (`Settled`): return the answer, fail with a PartnerError, or try again after a wait.
 *   429            always safe to resend (nothing happened): the bucket has paused already; within the
 *                  retry budget (background: as long as the budget moves for anyone), then RATE_LIMITED.
 *   refused        nothing reached the server: retried with backoff for any endpoint (NETWORK).
 *   untrusted      the certificate refused, nothing sent: NETWORK at once (each try meets the same certificate).
 *   redirect       a 3xx Electron's fetch rejected: answered, never followed: INVALID_RESPONSE at once, as a 3xx answer.
 *   timeout, reset, 5xx   unknown outcome: retried with backoff only where the endpoint table says
 *                  safeToResend; otherwise UNKNOWN_OUTCOME at once (registration is never resent).
 */
import { ENDPOINTS } from '../../shared/endpoints';
import type { PartnerError } from '../../shared/errors';
import type { BudgetSample } from '../../shared/rate-limit';
import type { AnsweredAttempt, FailedAttempt } from './attempt';
import type { RetryPolicy } from './backoff';
import { fullJitter, mayRetry } from './backoff';
import type { Settled } from './budget-bucket';
import { NEVER_RETRIED } from './http';
import { failureError, invalidBodyError, parseBody, statusError, unknownOutcomeAnswerError } from './classify';
import { cancelledError, sharedBudgetError, stalledError } from './errors';
import type { ApiResponse } from './types';

export type NextStep<T> = { result: ApiResponse<T> } | { error: PartnerError } | { sleepMs: number };

/** The client's rules for trying again. */
export interface RetryRules {
  policy: RetryPolicy;
  random: () => number;
  /** How long background work waits without any success for anyone (read each time: a setting). */
  stallLimitMs(): number;
}

export function afterAnswer<T>(attempt: AnsweredAttempt, settled: Settled, sample: BudgetSample, rules: RetryRules): NextStep<T> {
  const { endpoint, number: attemptNo, requestStartedAt: startedAt } = attempt;
  const { status, rate, text } = attempt.result;
  const body = parseBody(text);
  if (status >= 200 && status < 300) {
    if (body.json) return { result: { status, body: body.value as T, rateLimit: rate, sample, attempts: attemptNo } };
    if (status === 204 || (status !== 200 && text.trim() === '')) return { result: { status, body: null as T, rateLimit: rate, sample, attempts: attemptNo } };
    return { error: invalidBodyError(attempt) };
  }
  const { at: now, stalledMs } = settled;
  if (status === 429) {
    const refused = statusError(attempt, body);
    if (attempt.priority === 'background') {
      // A 429 is always safe to resend and the budget comes back: wait as long as it moves for anyone.
      return stalledMs < rules.stallLimitMs() ? { sleepMs: 0 } : { error: stalledError(endpoint, refused, stalledMs) };
    }
    if (mayRetry(attemptNo, startedAt, now, settled.pauseMs, rules.policy)) return { sleepMs: 0 };
    return { error: sharedBudgetError(refused, settled.consumers, attempt.vendor) };
  }
  if (status >= 500) {
    if (!ENDPOINTS[endpoint].safeToResend) return { error: unknownOutcomeAnswerError(attempt, body) };
    const backoff = Math.max(fullJitter(attemptNo - 1, rules.policy, rules.random), attempt.result.retryAfterMs ?? 0);
    if (mayRetry(attemptNo, startedAt, now, backoff, rules.policy)) return { sleepMs: backoff };
  }
  return { error: statusError(attempt, body) };
}

export function afterFailure(attempt: FailedAttempt, now: number, rules: RetryRules): NextStep<never> {
  const { endpoint, number: attemptNo } = attempt;
  const { failure } = attempt.result;
  const safeToResend = ENDPOINTS[endpoint].safeToResend;
  if (failure === 'aborted' || failure === 'closed') {
    const why = failure === 'closed' ? 'The client was closed' : 'The request was cancelled';
    if (safeToResend) return { error: cancelledError(endpoint, `${why}.`) };
    return { error: failureError(attempt, `${why} after it was sent`) };
  }
  if (failure === 'refused' || (safeToResend && !NEVER_RETRIED.includes(failure))) {
    const backoff = fullJitter(attemptNo - 1, rules.policy, rules.random);
    if (mayRetry(attemptNo, attempt.requestStartedAt, now, backoff, rules.policy)) return { sleepMs: backoff };
  }
  return { error: failureError(attempt) };
}
