/**
 * The process-wide book of buckets: one per (baseUrl, vendor, endpoint), never per token, so that
 * every PartnerClient of a vendor (several tokens, several windows, a download and a click) shares
 * one budget. The server's clock offset is learnt per baseUrl and shared by its buckets.
 */
import { ENDPOINTS, ENDPOINT_IDS } from '../../shared/endpoints';
import type { EndpointId } from '../../shared/endpoints';
import { PartnerError } from '../../shared/errors';
import type { BucketSnapshot } from './budget-bucket';
import { BudgetBucket } from './budget-bucket';
import type { Clock } from '../../shared/clock';
import { systemClock } from './clock';
import type { BudgetStore } from './budget-store';
import { createBudgetStore } from './budget-store';
import { ServerClock } from './server-clock';

export interface BudgetRegistryOptions {
  /** Clock of every bucket's timers; clients sharing the registry should use the same one. */
  clock?: Clock;
  /** Wait after the server's second surely changed (ms), for latency and clock quirks. Default 20. */
  guardMs?: number;
  /** Where a fleet reserves its slots (budget-store.ts); default none: headers only. */
  store?: BudgetStore | null;
}

/**
 * One spelling per base URL (the only one: profiles and the catalog download use it too): no
 * trailing slash, no query or fragment, lower-case scheme and host, default port dropped.
 * Throws PartnerError BAD_REQUEST for text that is not an http(s) URL.
 */
export function normalizeBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    url = new URL('invalid:');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new PartnerError({ code: 'BAD_REQUEST', message: `The base URL must be an http(s) URL, got ${JSON.stringify(String(baseUrl).slice(0, 100))}.`, retryable: false });
  }
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}`;
}

export class BudgetRegistry {
  readonly clock: Clock;
  private currentStore: BudgetStore | null;
  private storeUrl: string | undefined;
  private readonly guardMs: number | undefined;
  private readonly buckets = new Map<string, BudgetBucket>();
  private readonly serverClocks = new Map<string, ServerClock>();

  constructor(options: BudgetRegistryOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.guardMs = options.guardMs;
    this.currentStore = options.store ?? null;
  }

  /** Where the fleet reserves its slots, or null (headers only). */
  get store(): BudgetStore | null {
    return this.currentStore;
  }

  /**
   * Uses the budget store at `url` (redis://host:port/db), or none when it is undefined or empty;
   * the same URL again changes nothing, another one closes the old store. `log` gets its state lines.
   */
  useStore(url: string | undefined, log?: (line: string) => void): void {
    const next = url?.trim() || undefined;
    if (next === this.storeUrl && (next === undefined) === (this.currentStore === null)) return;
    void this.currentStore?.close();
    this.storeUrl = next;
    this.currentStore = createBudgetStore(next, log);
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
    const key = `${base}\u0000${vendor}\u0000${endpoint}`;
    let b = this.buckets.get(key);
    if (!b) {
      b = new BudgetBucket(base, vendor, endpoint, ENDPOINTS[endpoint].limit, this.clock, this.serverClock(base), this.guardMs);
      this.buckets.set(key, b);
    }
    return b;
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
    void this.currentStore?.close();
    this.currentStore = null;
  }
}

let processRegistry: BudgetRegistry | null = null;

/** The registry shared by every client in this process that is not given one. */
export function defaultBudgetRegistry(): BudgetRegistry {
  processRegistry ??= new BudgetRegistry();
  return processRegistry;
}
