/**
 * Refuses, before sending, what the service would refuse with 400 (which still costs a slot of the
 * budget) or what could not be sent at all. Returns the problem in words, or null.
 */
import { ENDPOINTS } from '../../shared/endpoints';
import type { EndpointId } from '../../shared/endpoints';
import { isPriority } from './queue';
import type { PageSizeRule, RequestOptions } from './types';

export const LAST_ID_PARAM = 'last_id';

export function requestProblem(endpoint: EndpointId, options: RequestOptions, pageSize: PageSizeRule): string | null {
  const spec = ENDPOINTS[endpoint];
  if (options.priority !== undefined && !isPriority(options.priority)) return `priority must be 'interactive' or 'background'`;
  if (options.timeoutMs !== undefined && !(typeof options.timeoutMs === 'number' && Number.isFinite(options.timeoutMs) && options.timeoutMs > 0)) {
    return 'timeoutMs must be a positive number of milliseconds';
  }
  const query = options.query ?? {};
  if (query === null || typeof query !== 'object' || Array.isArray(query)) return 'query must be an object of parameters';
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (typeof value === 'number' && !Number.isFinite(value)) return `query parameter ${name} is not a finite number`;
    if (!['string', 'number', 'boolean'].includes(typeof value)) return `query parameter ${name} must be a string, number or boolean`;
  }
  const lastId = query[LAST_ID_PARAM];
  if (lastId !== undefined && String(lastId).trim() === '') {
    return `${LAST_ID_PARAM} is empty: leave it out to read the first page (the service answers 400 and still spends a slot)`;
  }
  const size = query[pageSize.param];
  if (size !== undefined) {
    const text = String(size).trim();
    const n = Number(text);
    if (!/^\d+$/.test(text) || !Number.isInteger(n) || n < pageSize.min || n > pageSize.max) {
      return `${pageSize.param} must be a whole number from ${pageSize.min} to ${pageSize.max}, got ${JSON.stringify(String(size).slice(0, 40))}`;
    }
  }
  if (options.body !== undefined) {
    if (spec.method === 'GET') return `${spec.label} takes no body`;
    try {
      if (JSON.stringify(options.body) === undefined) return 'body cannot be sent as JSON';
    } catch (e) {
      return `body cannot be sent as JSON: ${e instanceof Error ? e.message : String(e)}`;
    }
  }
  return null;
}
