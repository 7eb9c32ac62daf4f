/** Error codes that cross the bridge as plain data. */
export const ERROR_CODES = [
  'RATE_LIMITED', // the client gave up after 429s (retry budget or time spent)
  'BAD_REQUEST', // 400 from the service, or refused by the client before sending
  'UNAUTHORIZED', // 401: missing or unknown token
  'NOT_FOUND', // 404: unknown purchase, asset or route
  'CONFLICT', // 409: the purchase's state forbids the action
  'SERVER_ERROR', // 5xx that was safe to retry and still failed
  'NETWORK', // connection refused or reset before a request was sent
  'TIMEOUT', // no answer in time on a call that is safe to resend, after retries
  'CANCELLED', // the caller aborted
  'UNKNOWN_OUTCOME', // an unsafe call may or may not have taken effect
  'INVALID_RESPONSE', // a body that is not the JSON we need
  'CONFIRMATION_REQUIRED', // the ledger holds a purchase (or an unresolved registration) of this asset: confirm first
  'LEDGER_UNAVAILABLE', // the purchase ledger cannot be opened: registrations are refused
  'RESPONSE_TOO_LARGE', // the answer went over the response-size cap; never retried
  'PROFILE_NOT_CONNECTED', // the call named a profile (the one the page showed) that is not connected: nothing was sent
  'INTERNAL', // a bug of ours; never a crash
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** An error as plain data: what happened, and whether trying again is safe. */
export interface ErrorData {
  code: ErrorCode;
  message: string;
  /** HTTP status where the service answered. */
  status?: number;
  endpoint?: string;
  /** Is it safe to try the same action again? */
  retryable: boolean;
  /** What the user can do next, in words. */
  hint?: string;
  /** The service's error body, when it sent one. */
  body?: unknown;
}

/** Thrown in the main process; its `data` is what crosses the bridge. */
export class PartnerError extends Error {
  readonly data: ErrorData;
  constructor(data: ErrorData) {
    super(data.message);
    this.name = 'PartnerError';
    this.data = data;
  }
  get code(): ErrorCode {
    return this.data.code;
  }
}

export function isPartnerError(e: unknown): e is PartnerError {
  return e instanceof PartnerError;
}

/** Any thrown value as ErrorData, so that nothing but plain data crosses the bridge. */
export function toErrorData(e: unknown): ErrorData {
  if (isPartnerError(e)) return e.data;
  if (e instanceof Error && e.name === 'AbortError') {
    return { code: 'CANCELLED', message: 'The request was cancelled.', retryable: true };
  }
  const message = e instanceof Error ? e.message : String(e);
  return { code: 'INTERNAL', message: `Unexpected error: ${message}`, retryable: false };
}
