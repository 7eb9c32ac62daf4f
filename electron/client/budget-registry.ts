/**
 * The process-wide book of buckets: one per (baseUrl, vendor, endpoint), never per token, so that
 * every PartnerClient of a vendor (several tokens, several windows, a download and a click) shares
 * one budget. The server's clock offset is learnt per baseUrl and shared by its buckets. Where a
 * fleet reserves its slots is not kept here: scope-stores.ts owns the stores.
 */
import { ENDPOINTS, ENDPOINT_IDS } from '../../shared/endpoints';
import type { EndpointId } from '../../shared/endpoints';
import type { BucketSnapshot } from './budget-bucket';
import { BudgetBucket } from './budget-bucket';
import type { Clock } from '../../shared/clock';
import { systemClock } from './clock';
import { ServerClock } from './server-clock';
import { normalizeBaseUrl } from '../../shared/base-url';

export interface BudgetRegistryOptions {
  /** Clock of every bucket's timers; clients sharing the registry should use the same one. */
  clock?: Clock;
  /** Wait after the server's second surely changed (ms), for latency and clock quirks. Default 20. */
  guardMs?: number;
}

export class BudgetRegistry {
  readonly clock: Clock;
  private readonly guardMs: number | undefined;
  private readonly buckets = new Map<string, BudgetBucket>();
  private readonly serverClocks = new Map<string, ServerClock>();

  constructor(options: BudgetRegistryOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.guardMs = options.guardMs;
  }

  serverClock(baseUrl: string): ServerClock {
    const key = normalizeBaseUrl(baseUrl);
    let c = this.serverClocks.get(key);
    if (!c) {
      c = new ServerClock();
      this.serverClocks.set(key, c);
    }
    return c;
  }

  bucket(baseUrl: string, vendor: string, endpoint: EndpointId): BudgetBucket {
    const base = normalizeBaseUrl(baseUrl);
    const key = bucketKey(base, vendor, endpoint);
    let b = this.buckets.get(key);
    if (!b) {
      b = new BudgetBucket(base, vendor, endpoint, ENDPOINTS[endpoint].limit, this.clock, this.serverClock(base), this.guardMs);
      this.buckets.set(key, b);
    }
    return b;
  }

  /** Our requests in flight to one budget: 0 for one nobody used (asking makes none) or a URL the client cannot use. */
  inFlight(baseUrl: string, vendor: string, endpoint: EndpointId): number {
    let base: string;
    try {
      base = normalizeBaseUrl(baseUrl);
    } catch {
      return 0;
    }
    return this.buckets.get(bucketKey(base, vendor, endpoint))?.inFlight ?? 0;
  }

  /** Every endpoint of a vendor at a base URL (buckets not used yet show their documented limit). */
  snapshot(baseUrl: string, vendor: string): BucketSnapshot[] {
    return ENDPOINT_IDS.map((id) => this.bucket(baseUrl, vendor, id).snapshot());
  }

  /** Buckets created so far. */
  all(): BudgetBucket[] {
    return [...this.buckets.values()];
  }

  /** Whether any bucket still has a timer pending. */
  get hasTimers(): boolean {
    return this.all().some((b) => b.hasTimer);
  }

  /** Rejects every waiting request and clears every timer. */
  dispose(): void {
    for (const b of this.buckets.values()) b.cancelAll('The budget registry was disposed.');
  }
}

let processRegistry: BudgetRegistry | null = null;

/** The registry shared by every client in this process that is not given one. */
export function defaultBudgetRegistry(): BudgetRegistry {
  processRegistry ??= new BudgetRegistry();
  return processRegistry;
}

function bucketKey(base: string, vendor: string, endpoint: EndpointId): string {
  return `${base}\u0000${vendor}\u0000${endpoint}`;
}
