/** Tally of answered requests by (vendor, endpoint, status, competitor), for tests and the dashboard. */
import type { EndpointId } from '../../shared/endpoints';
import type { Counter } from './types';

export class CounterBook {
  private counts = new Map<string, Counter>();

  add(vendor: string | null, endpoint: EndpointId | null, status: number, competitor = false): void {
    const key = `${vendor ?? ''}\u0000${endpoint ?? ''}\u0000${status}\u0000${competitor ? 1 : 0}`;
    const c = this.counts.get(key);
    if (c) {
      c.count++;
      return;
    }
    this.counts.set(key, { vendor, endpoint, status, count: 1, ...(competitor ? { competitor: true as const } : {}) });
  }

  list(): Counter[] {
    return [...this.counts.values()].map((c) => ({ ...c }));
  }

  reset(): void {
    this.counts.clear();
  }
}
