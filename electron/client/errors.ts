/** PartnerError constructors the client shares, and scrubbing tokens out of anything we show. */
import { ENDPOINTS } from '../../shared/endpoints';
import type { EndpointId } from '../../shared/endpoints';
import { PartnerError } from '../../shared/errors';

export function label(endpoint: EndpointId): string {
  return ENDPOINTS[endpoint].label;
}

export function cancelledError(endpoint: EndpointId, why = 'The request was cancelled.'): PartnerError {
  return new PartnerError({ code: 'CANCELLED', message: `${label(endpoint)}: ${why}`, endpoint, retryable: true });
}

/** Replaces every token (and its Bearer form) in a text; tokens never reach messages or logs. */
export function redact(text: string, tokens: readonly string[]): string {
  let out = text;
  for (const token of tokens) {
    if (token.length > 0) out = out.split(token).join('***');
  }
  return out;
}

/** Deep copy of a JSON-ish value with tokens scrubbed from every string. */
export function redactValue(value: unknown, tokens: readonly string[], depth = 0): unknown {
  if (typeof value === 'string') return redact(value, tokens);
  if (depth > 20 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, tokens, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[redact(k, tokens)] = redactValue(v, tokens, depth + 1);
  return out;
}
