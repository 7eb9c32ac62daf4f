/**
 * The check both shells run at their trust boundary before a call reaches the services: the name
 * must be a contract call and the request must match its schema. The services validate again
 * (they are also called from tests and CLIs); this gate makes sure a refused payload never gets
 * further than the bridge and that the answer says exactly what was wrong. Pure: no electron import.
 */
import { calls, isCallName } from '../../shared/bridge/contract';
import type { CallName, CallResult } from '../../shared/bridge/contract';
import type { ErrorData } from '../../shared/errors';
import { describeIssues } from '../app/dispatcher';

export type GateResult = { ok: true; name: CallName } | { ok: false; result: CallResult<never> };

export function refusal(error: Omit<ErrorData, 'retryable'> & { retryable?: boolean }): CallResult<never> {
  return { ok: false, error: { retryable: false, ...error } };
}

export function checkCall(name: unknown, request: unknown): GateResult {
  if (!isCallName(name)) {
    const shown = typeof name === 'string' ? JSON.stringify(name.slice(0, 80)) : typeof name;
    return { ok: false, result: refusal({ code: 'BAD_REQUEST', message: `Unknown call ${shown}.` }) };
  }
  const parsed = calls[name].request.safeParse(request ?? {});
  if (parsed.success) return { ok: true, name };
  return {
    ok: false,
    // The dispatcher's wording, so a payload refused here reads the same as one refused there.
    result: refusal({ code: 'BAD_REQUEST', message: `Invalid request for ${name}: ${describeIssues(parsed.error.issues)}.` }),
  };
}
