/**
 * Errors in words a person understands: what happened, and whether trying again is safe. Built from
 * the ErrorData that crosses the bridge (code, message, hint, retryable).
 */
import { isPartnerError, toErrorData } from '../../../shared/errors';
import type { ErrorData } from '../../../shared/errors';

export interface ErrorText {
  title: string;
  detail: string;
  /** Whether the same action may be repeated, in words; null when not applicable. */
  retry: string | null;
  retryable: boolean;
  code: string;
  hint: string | null;
}

export function errorData(e: unknown): ErrorData {
  if (isPartnerError(e)) return e.data;
  if (isErrorData(e)) return e;
  return toErrorData(e);
}

/** A short action label ("registration") lets the words fit the action. */
export function describeError(e: unknown, action = 'request'): ErrorText {
  const data = errorData(e);
  const hint = data.hint ?? null;
  const base = { retryable: data.retryable, code: data.code, hint };
  switch (data.code) {
    case 'RATE_LIMITED':
      return {
        ...base,
        title: 'The service is busy',
        detail: "The service kept answering 'too many requests'; nothing was created or changed.",
        retry: 'Safe to try again in a moment.',
      };
    case 'UNKNOWN_OUTCOME': {
      const ref = referenceOf(data);
      return {
        ...base,
        title: `We could not tell whether the ${action} went through`,
        detail: `The request was sent, but no answer that says what happened came back (the connection failed, or the answer could not be read), so it may or may not have taken effect.`,
        retry: `Do not ${action === 'registration' ? 'register' : 'repeat it'} again: check with Purchase info${ref ? ` (reference ${ref})` : ''} first.`,
        retryable: false,
      };
    }
    case 'CONFLICT':
      // Refused by the app itself (a registration still being sent, a download already running): no purchase state involved.
      if (data.status === undefined && data.body === undefined) return { ...base, title: 'Not possible right now', detail: data.message, retry: null };
      return {
        ...base,
        title: "The purchase's state does not allow this",
        detail: serviceMessage(data, 'The service refused the action for the purchase as it is now.'),
        retry: 'Refresh it with Purchase info to see its current state.',
      };
    case 'NOT_FOUND':
      return { ...base, title: 'Not found', detail: serviceMessage(data, 'The service does not know this item.'), retry: null };
    case 'UNAUTHORIZED':
      return {
        ...base,
        title: 'The service did not accept the token',
        detail: 'The vendor token is missing, unknown or revoked.',
        retry: 'Check the profile in Settings, then try again.',
      };
    case 'BAD_REQUEST':
      return {
        ...base,
        title: 'The request was refused as invalid',
        detail: serviceMessage(data, data.message),
        retry: 'Change the input before trying again.',
      };
    case 'SERVER_ERROR':
      return {
        ...base,
        title: 'The service failed',
        detail: serviceMessage(data, 'The service answered with a server error, also after retries.'),
        retry: data.retryable ? 'Safe to try again later.' : null,
      };
    case 'TIMEOUT':
      return { ...base, title: 'No answer in time', detail: data.message, retry: data.retryable ? 'Safe to try again.' : 'Check before trying again.' };
    case 'NETWORK':
      return {
        ...base,
        title: 'Connection problem',
        detail: data.message,
        // A dropped call that may have taken effect arrives as UNKNOWN_OUTCOME, not here.
        retry: data.retryable ? 'Safe to try again once connected.' : 'Check before trying again.',
      };
    case 'CANCELLED':
      return { ...base, title: 'Cancelled', detail: data.message, retry: null };
    case 'INVALID_RESPONSE':
      return { ...base, title: 'The answer could not be read', detail: data.message, retry: data.retryable ? 'Safe to try again.' : null };
    case 'CONFIRMATION_REQUIRED':
      return {
        ...base,
        title: 'This asset may already be purchased',
        detail: data.message,
        retry: 'Look at the purchases named, then confirm only if you mean to buy it again.',
      };
    case 'LEDGER_UNAVAILABLE':
      return {
        ...base,
        title: 'Registering is off: the purchase ledger cannot be opened',
        detail: data.message,
        retry: 'Nothing was sent. Fix the data folder (see the message), then restart the app.',
      };
    case 'PROFILE_NOT_CONNECTED':
      return {
        ...base,
        title: 'That profile is not connected',
        detail: data.message,
        retry: 'Nothing was sent. Connect the profile (or go back to it), then try again.',
      };
    case 'RESPONSE_TOO_LARGE':
      return {
        ...base,
        title: 'The answer was too large',
        detail: data.message,
        retry: 'Not retried. Raise the limit (maxResponseMiB in the settings file, --max-response-mib for the CLI) only if you trust this service.',
      };
    default:
      return { ...base, title: 'Something went wrong', detail: data.message, retry: data.retryable ? 'Safe to try again.' : null };
  }
}

function serviceMessage(data: ErrorData, fallback: string): string {
  const body = data.body as { message?: unknown } | undefined;
  const said = body && typeof body.message === 'string' ? body.message : null;
  return said ? `${fallback.replace(/\.$/, '')}: “${said}”` : data.message || fallback;
}

/** The client reference of a registration, when main put it in the error's body (null otherwise, e.g. a dropped browser link). */
export function referenceOf(data: ErrorData): string | null {
  const body = data.body as { client_reference?: unknown } | null | undefined;
  const reference = typeof body === 'object' && body !== null ? body.client_reference : undefined;
  return typeof reference === 'string' && reference !== '' ? reference : null;
}

function isErrorData(e: unknown): e is ErrorData {
  return (
    typeof e === 'object' && e !== null && !(e instanceof Error) && typeof (e as ErrorData).code === 'string' && typeof (e as ErrorData).message === 'string'
  );
}
