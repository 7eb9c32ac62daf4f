/**
 * Refuses, before sending, what could not be sent at all or what the service would refuse with 400
 * (which still costs a slot of the budget) whatever its payload names. Returns the problem in words,
 * or null. The client names no payload field: what a named parameter may hold (a list page's size
 * and cursor) is checked where the service map names it (shared/service-map/requests.ts).
 */
import { ENDPOINTS } from '../../shared/endpoints';
import type { EndpointId } from '../../shared/endpoints';
import { isPriority } from './queue';
import type { RequestOptions } from './types';

export function requestProblem(endpoint: EndpointId, options: RequestOptions): string | null {
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
