/**
 * Joins a BudgetSample (what the client reports) to the RecordedExchange that produced it (what
 * the recording fetch saw). Both come from the same attempt, the exchange first: it is recorded
 * when the response headers arrive, the sample once the client has handled the response. Answers
 * can overtake each other, so among the waiting exchanges of the same endpoint the best match wins:
 * same status and same Remaining header, then the oldest with the same status. No match: no detail
 * (better none than another request's).
 */
import { ENDPOINT_LIST } from '../../shared/endpoints';
import type { EndpointId } from '../../shared/endpoints';
import { RATE_LIMIT_HEADERS } from '../../shared/rate-limit';
import type { BudgetSample } from '../../shared/rate-limit';
import type { RecordedExchange } from './exchange';

/** Exchanges nobody claimed go after this many per endpoint, or after this long. */
const MAX_WAITING = 200;
const MAX_WAIT_MS = 60_000;

/** The endpoint an exchange was for: method and path (the path may sit under the base URL's own path). */
export function endpointOfExchange(method: string, url: string): EndpointId | null {
  let path: string;
  try {
    path = new URL(url).pathname.replace(/\/+$/, '');
  } catch {
    return null;
  }
  const upper = method.toUpperCase();
  const spec = ENDPOINT_LIST.find((e) => e.method === upper && path.endsWith(e.path));
  return spec ? spec.id : null;
}

export class ExchangeMatcher {
  private readonly waiting = new Map<EndpointId, RecordedExchange[]>();

  add(exchange: RecordedExchange): void {
    const endpoint = endpointOfExchange(exchange.method, exchange.url);
    if (!endpoint) return;
    let list = this.waiting.get(endpoint);
    if (!list) {
      list = [];
      this.waiting.set(endpoint, list);
    }
    list.push(exchange);
    const stale = list.findIndex((e) => e.endedAt >= exchange.endedAt - MAX_WAIT_MS);
    if (stale > 0) list.splice(0, stale);
    if (list.length > MAX_WAITING) list.splice(0, list.length - MAX_WAITING);
  }

  take(sample: BudgetSample): RecordedExchange | null {
    const list = this.waiting.get(sample.endpoint);
    if (!list || list.length === 0) return null;
    const remaining = sample.remaining === null ? null : String(sample.remaining);
    const remainingHeader = RATE_LIMIT_HEADERS.remaining.toLowerCase();
    let index = list.findIndex((e) => e.status === sample.status && (remaining === null || e.responseHeaders[remainingHeader]?.trim() === remaining));
    if (index < 0) index = list.findIndex((e) => e.status === sample.status);
    if (index < 0) return null;
    const [exchange] = list.splice(index, 1);
    return exchange ?? null;
  }

  clear(): void {
    this.waiting.clear();
  }
}
