/** What an answer means: JSON bodies, and the PartnerError for each kind of failure. */
import { ENDPOINTS } from '../../shared/endpoints';
import type { ErrorCode } from '../../shared/errors';
import { PartnerError } from '../../shared/errors';
import { label } from './errors';
import { redactText, redactValue } from './redact';
import { numberTextAsDigits } from '../../shared/json/as-digits';
import { parseJsonExact } from '../../shared/json/parse-exact';
import type { AnsweredAttempt, FailedAttempt } from './attempt';
import type { FailureKind } from './http';

export const EXCERPT_CHARS = 200;

export type ParsedBody = { json: true; value: unknown } | { json: false; text: string };

/** Integers past 2^53 (snowflake ids) are kept exact, as NumberText; any depth of nesting is read. */
export function parseBody(text: string): ParsedBody {
  if (text.trim() === '') return { json: false, text };
  try {
    return { json: true, value: parseJsonExact(text) };
  } catch {
    return { json: false, text };
  }
}

export function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS)}…` : flat;
}

/** A redirect is never followed (the token would go along): the base URL is most often what is wrong. */
const REDIRECT_HINT = 'The service answered with a redirect, which is not followed: check the base URL (http vs https, a trailing path).';

interface StatusMeaning {
  code: ErrorCode;
  retryable: boolean;
  hint?: string;
}

function meaningOf(status: number): StatusMeaning {
  if (status === 400) return { code: 'BAD_REQUEST', retryable: false, hint: 'The service refused a parameter of this request; fix it before trying again.' };
  if (status === 401 || status === 403) return { code: 'UNAUTHORIZED', retryable: false, hint: "Check the vendor's token in its profile." };
  if (status === 404) return { code: 'NOT_FOUND', retryable: false, hint: 'Check the id (a vendor sees only its own purchases).' };
  if (status === 409) return { code: 'CONFLICT', retryable: false, hint: "The purchase's state does not allow this action; refresh it with purchase info." };
  if (status === 429)
    return { code: 'RATE_LIMITED', retryable: true, hint: "The vendor's budget for this endpoint stayed used up; try again in a few seconds." };
  if (status >= 500) return { code: 'SERVER_ERROR', retryable: true, hint: 'The service failed; try again later.' };
  if (status >= 400) return { code: 'BAD_REQUEST', retryable: false };
  if (status >= 300) return { code: 'INVALID_RESPONSE', retryable: false, hint: REDIRECT_HINT };
  return { code: 'INVALID_RESPONSE', retryable: false, hint: 'The service answered with a status this client does not expect.' };
}

/** The error code an HTTP error status means (400 and up). */
export function codeOfStatus(status: number): ErrorCode {
  return meaningOf(status).code;
}

/** The error for a non-2xx answer; the body is kept (JSON, or the text when it is not JSON). */
export function statusError(attempt: AnsweredAttempt, body: ParsedBody): PartnerError {
  const { endpoint, tokens, number: attempts } = attempt;
  const { status, statusText } = attempt.result;
  const m = meaningOf(status);
  // An error body is for showing: ids past 2^53 as their digits.
  const value = body.json ? redactValue(numberTextAsDigits(body.value), tokens) : redactText(body.text, tokens);
  const serverMessage =
    body.json && body.value !== null && typeof body.value === 'object' && typeof (body.value as { message?: unknown }).message === 'string'
      ? (body.value as { message: string }).message
      : body.json
        ? ''
        : body.text;
  const head = `${label(endpoint)} answered ${status}${statusText ? ` ${statusText}` : ''}`;
  const tail = serverMessage ? `: ${excerpt(redactText(serverMessage, tokens))}` : '';
  const tries = attempts > 1 ? ` (after ${attempts} attempts)` : '';
  return new PartnerError({ code: m.code, message: `${head}${tail}${tries}`, status, endpoint, retryable: m.retryable, hint: m.hint, body: value });
}

/** A 2xx whose body is not JSON. */
export function invalidBodyError(attempt: AnsweredAttempt): PartnerError {
  const { endpoint, tokens } = attempt;
  const { status, text } = attempt.result;
  return new PartnerError({
    code: 'INVALID_RESPONSE',
    message: `${label(endpoint)} answered ${status} with a body that is not JSON: ${JSON.stringify(excerpt(redactText(text, tokens)))}`,
    status,
    endpoint,
    retryable: false,
    body: redactText(text, tokens).slice(0, 10_000),
  });
}

export const UNKNOWN_OUTCOME_HINT = 'This request is not safe to send again blindly: check whether it took effect before repeating it.';

/** A 5xx on an endpoint that is not safe to resend: the service may have acted before failing. */
export function unknownOutcomeAnswerError(attempt: AnsweredAttempt, body: ParsedBody): PartnerError {
  const e = statusError(attempt, body);
  return new PartnerError({
    ...e.data,
    code: 'UNKNOWN_OUTCOME',
    retryable: false,
    message: `${e.message}. The service may or may not have acted.`,
    hint: UNKNOWN_OUTCOME_HINT,
  });
}

const TOO_LARGE_UNSAFE_HINT = `${UNKNOWN_OUTCOME_HINT} Raising the response-size cap and sending it again could make it act twice.`;

const CERTIFICATE_HINT =
  "This computer does not trust the certificate the service presented: check the base URL's host name, and whether a proxy or security software in between presents its own certificate. Nothing was sent, so trying again is safe once that is fixed.";

interface FailureMeaning {
  code: ErrorCode;
  retryable: boolean;
  /** After "<endpoint>: <what happened>". */
  tail: string;
  hint: string;
}

/** What a failure means; `tries` is " after N attempts" or empty. */
function failureMeaning(failure: FailureKind, safeToResend: boolean, tries: string): FailureMeaning {
  if (failure === 'too-large') {
    // Answered but not read: an unsafe call may have acted, and a larger cap with a resend could act twice.
    if (!safeToResend)
      return { code: 'UNKNOWN_OUTCOME', retryable: false, tail: '; not read: the service may or may not have acted.', hint: TOO_LARGE_UNSAFE_HINT };
    const hint = 'Raise the response-size cap in Settings if the service really sends answers this large.';
    return { code: 'RESPONSE_TOO_LARGE', retryable: false, tail: '; not retried.', hint };
  }
  if (failure === 'odd-status') {
    // It was answered: resending would spend another slot on the same answer; an unsafe call may have acted.
    const tail = safeToResend ? '; not retried.' : '; not retried: the service may or may not have acted.';
    const hint = safeToResend ? 'The service, or a proxy in front of it, sent a status HTTP does not define.' : UNKNOWN_OUTCOME_HINT;
    return { code: 'INVALID_RESPONSE', retryable: false, tail, hint };
  }
  if (failure === 'redirect') {
    // Answered, as a 3xx read under Node is: not retried; an unsafe call may have acted.
    const tail = safeToResend ? '; not retried.' : '; not retried: the service may or may not have acted.';
    return { code: 'INVALID_RESPONSE', retryable: false, tail, hint: safeToResend ? REDIRECT_HINT : `${REDIRECT_HINT} ${UNKNOWN_OUTCOME_HINT}` };
  }
  if (failure === 'untrusted') {
    // Retrying meets the same certificate: each try would only cost time.
    return { code: 'NETWORK', retryable: true, tail: '. Nothing was sent; not retried.', hint: CERTIFICATE_HINT };
  }
  if (failure === 'refused') {
    return { code: 'NETWORK', retryable: true, tail: `${tries}. Nothing reached the service.`, hint: 'Check the base URL and that the service is running.' };
  }
  if (!safeToResend) return { code: 'UNKNOWN_OUTCOME', retryable: false, tail: '; the service may or may not have acted.', hint: UNKNOWN_OUTCOME_HINT };
  if (failure === 'timeout') return { code: 'TIMEOUT', retryable: true, tail: `${tries}.`, hint: 'The service is slow or unreachable; try again later.' };
  return { code: 'NETWORK', retryable: true, tail: `${tries}.`, hint: 'The connection broke; try again.' };
}

/** No answer (after retries where they were safe); `detail` says what happened, in words. */
export function failureError(attempt: FailedAttempt, detail = attempt.result.detail): PartnerError {
  const { endpoint, tokens, number: attempts } = attempt;
  const tries = attempts > 1 ? ` after ${attempts} attempts` : '';
  const m = failureMeaning(attempt.result.failure, ENDPOINTS[endpoint].safeToResend, tries);
  const message = `${label(endpoint)}: ${redactText(detail, tokens)}${m.tail}`;
  const { status } = attempt.result;
  return new PartnerError({ code: m.code, message, ...(status === undefined ? {} : { status }), endpoint, retryable: m.retryable, hint: m.hint });
}
