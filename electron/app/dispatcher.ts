/**
 * The one entry point of both shells: a call name and an untrusted request in, a CallResult out.
 * The request is parsed with the contract's schema (a bad payload is BAD_REQUEST naming the field),
 * the handler runs, its answer is checked against the response schema (a mismatch is our bug:
 * INTERNAL, logged), and anything thrown becomes plain ErrorData. Never throws.
 */
import type { z } from 'zod';
import { calls, isCallName } from '../../shared/bridge/contract';
import type { CallName, CallResult } from '../../shared/bridge/contract';
import { errorDataSchema } from '../../shared/bridge/schemas';
import { toErrorData } from '../../shared/errors';
import type { ErrorData } from '../../shared/errors';
import { redactText, redactValue } from '../client/redact';
import type { AppLog } from './environment';
import type { CallContext, CallHandlers } from './handlers/types';

/** `signal`: the page's cancellation of this call (it reaches the client, so a queued request is never sent). */
export type Dispatch = (name: string, request: unknown, signal?: AbortSignal) => Promise<CallResult<unknown>>;

export interface DispatcherOptions {
  log: AppLog;
  /** Every token to mask in what leaves (error messages, hints, bodies); read on each failure. */
  tokens: () => Iterable<string>;
}

/** "pageSize: Too big: expected number to be <=100; lastId: Invalid input" */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => {
      const where = issue.path.length > 0 ? issue.path.map(String).join('.') : 'the request';
      return `${where}: ${issue.message}`;
    })
    .join('; ');
}

export function badRequestData(message: string): ErrorData {
  return { code: 'BAD_REQUEST', message, retryable: false };
}

/** Error data with every known token masked, checked against the contract's error shape. */
function cleanError(data: ErrorData, tokens: readonly string[]): ErrorData {
  const redact = (text: string): string => redactText(text, tokens);
  // Walks the body itself (no JSON round trip): a token with a quote or backslash is still found.
  const body = data.body === undefined ? undefined : redactValue(data.body, tokens);
  const cleaned: ErrorData = { ...data, message: redact(data.message) };
  if (data.hint !== undefined) cleaned.hint = redact(data.hint);
  if (body === undefined) delete cleaned.body;
  else cleaned.body = body;
  const checked = errorDataSchema.safeParse(cleaned);
  return checked.success ? checked.data : { code: 'INTERNAL', message: redact(String(data.message)), retryable: false };
}

export function createDispatcher(handlers: CallHandlers, options: DispatcherOptions): Dispatch {
  const { log } = options;
  const redact = (text: string): string => redactText(text, options.tokens());
  return async (name, request, signal) => {
    if (!isCallName(name)) {
      return { ok: false, error: badRequestData(`Unknown call ${JSON.stringify(String(name).slice(0, 60))}.`) };
    }
    const contract = calls[name];
    const parsed = contract.request.safeParse(request ?? {});
    if (!parsed.success) {
      return { ok: false, error: badRequestData(`Invalid request for ${name}: ${describeIssues(parsed.error.issues)}.`) };
    }
    if (signal?.aborted) return { ok: false, error: { code: 'CANCELLED', message: `${name} was cancelled before it ran.`, retryable: true } };
    let value: unknown;
    try {
      const handler = handlers[name] as (req: unknown, call: CallContext) => Promise<unknown>;
      value = await handler(parsed.data, signal ? { signal } : {});
    } catch (e) {
      const data = toErrorData(e);
      if (data.code === 'INTERNAL') log('error', `${name} failed: ${redact(data.message)}`, e instanceof Error ? redact(e.stack ?? '') : undefined);
      return { ok: false, error: cleanError(data, [...options.tokens()]) };
    }
    const checked = contract.response.safeParse(value);
    if (!checked.success) {
      log('error', `${name} answered outside the contract: ${redact(describeIssues(checked.error.issues))}`);
      return { ok: false, error: { code: 'INTERNAL', message: `The app produced an invalid answer for ${name}; this is a bug.`, retryable: false } };
    }
    return { ok: true, value: checked.data };
  };
}

export type { CallName };
