/**
 * One attempt of a request, recorded whole: which endpoint and vendor, the tokens to scrub, its retry
 * number, when it waited and was sent, and what came back (an answer with the headers read, or a
 * failure). The client builds it once per attempt and hands it on as one object: to the bucket
 * (`BudgetBucket.settle`), to the error builders (classify.ts) and to `budgetSample`, the one place a
 * `BudgetSample` is made.
 */
import type { EndpointId } from '../../shared/endpoints';
import type { Clock } from '../../shared/clock';
import { wallTime } from '../../shared/clock';
import { parseRateLimitHeaders, parseServerDate } from '../../shared/rate-limit';
import type { BudgetSample, RateLimitHeaders } from '../../shared/rate-limit';
import type { WaitCauses } from '../../shared/wait-causes';
import { retryAfterMs } from './backoff';
import type { Ticket } from './header-model';
import type { AttemptOutcome, FailureKind } from './http';
import { NOTHING_SENT } from './http';
import type { Priority } from './queue';
import { redactText } from './redact';

/** An attempt's wait for budget: from the attempt's start until it was sent, and what held it (adding up to it). */
export interface AttemptWait {
  ms: number;
  causes: WaitCauses;
}

/** An answer (any status), with the headers the client reads. */
export interface AttemptAnswer {
  kind: 'answer';
  status: number;
  statusText: string;
  text: string;
  rate: RateLimitHeaders;
  /** The server's Date header in epoch ms, or null. */
  dateMs: number | null;
  /** Retry-After in ms (an HTTP date read against the answer's own Date), or null. */
  retryAfterMs: number | null;
}

/** No answer: what went wrong, in a kind that says whether the request could have reached the server. */
export interface AttemptFailure {
  kind: 'failure';
  failure: FailureKind;
  detail: string;
  /** The answer's status, when one came back unusable (too large): the service answered. */
  status?: number;
}

export interface AttemptOf<R extends AttemptAnswer | AttemptFailure> {
  readonly vendor: string;
  readonly endpoint: EndpointId;
  /** The vendor's tokens: scrubbed from every message and body made from this attempt. */
  readonly tokens: readonly string[];
  /** 1 for the first try of a request. */
  readonly number: number;
  readonly priority: Priority;
  /** When the request's first attempt started: the retry budget runs from there. */
  readonly requestStartedAt: number;
  /** The bucket's go for this attempt (it counts as sent from `ticket.sentAt`). */
  readonly ticket: Ticket;
  /** When the HTTP exchange started and ended (local clock). */
  readonly sentAt: number;
  readonly receivedAt: number;
  readonly wait: AttemptWait;
  readonly result: R;
}

export type AnsweredAttempt = AttemptOf<AttemptAnswer>;
export type FailedAttempt = AttemptOf<AttemptFailure>;
export type Attempt = AnsweredAttempt | FailedAttempt;

/** What the client knows of an attempt before it is sent. */
export type AttemptStart = Omit<Attempt, 'sentAt' | 'receivedAt' | 'result'>;

export function isAnswered(attempt: Attempt): attempt is AnsweredAttempt {
  return attempt.result.kind === 'answer';
}

/**
 * The attempt record of an HTTP outcome, the headers read once. `wallNow` (wall-clock epoch ms, not the
 * monotonic clock, which falls behind it after a sleep) reads a Retry-After date without a Date header.
 */
export function recordAttempt(start: AttemptStart, outcome: AttemptOutcome, wallNow: number): Attempt {
  const { sentAt, receivedAt } = outcome;
  if (outcome.kind === 'failure') {
    const { failure, detail, status } = outcome;
    return { ...start, sentAt, receivedAt, result: { kind: 'failure', failure, detail, ...(status === undefined ? {} : { status }) } };
  }
  const dateMs = parseServerDate(outcome.header('Date'));
  const result: AttemptAnswer = {
    kind: 'answer',
    status: outcome.status,
    statusText: outcome.statusText,
    text: outcome.text,
    rate: parseRateLimitHeaders(outcome.header),
    dateMs,
    retryAfterMs: retryAfterMs(headerText(outcome.header('Retry-After')), dateMs ?? wallNow),
  };
  return { ...start, sentAt, receivedAt, result };
}

/** The attempt's BudgetSample (the only place one is made); `consumers` as the bucket estimated them, when it did. */
export function budgetSample(attempt: Attempt, clock: Clock, consumers?: number): BudgetSample {
  const answer = isAnswered(attempt) ? attempt.result : null;
  const rate = answer?.rate ?? null;
  const dateMs = answer?.dateMs ?? null;
  const sample: BudgetSample = {
    vendor: attempt.vendor,
    endpoint: attempt.endpoint,
    at: wallTime(clock, attempt.receivedAt),
    serverSecond: dateMs === null ? null : Math.floor(dateMs / 1000) * 1000,
    status: answer?.status ?? 0,
    limit: rate?.limit ?? null,
    remaining: rate?.remaining ?? null,
    reset: rate?.reset ?? null,
    latencyMs: Math.max(0, attempt.receivedAt - attempt.sentAt),
    waitedMs: attempt.wait.ms,
    attempt: attempt.number,
    headerProblems: rate ? rate.problems.map((p) => redactText(p, attempt.tokens)) : [],
  };
  if (consumers !== undefined) sample.consumers = Math.max(1, Math.round(consumers));
  if (!isAnswered(attempt) && NOTHING_SENT.includes(attempt.result.failure)) sample.reachedService = false;
  sample.waitCauses = attempt.wait.causes;
  return sample;
}

function headerText(raw: unknown): string | null {
  if (typeof raw === 'string') return raw;
  return Array.isArray(raw) && typeof raw[0] === 'string' ? raw[0] : null;
}
