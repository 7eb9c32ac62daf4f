/**
 * The process-wide book of buckets: one per (baseUrl, vendor, endpoint), never per token, so that
 * every PartnerClient of a vendor (several tokens, several windows, a download and a click) shares
 * one budget. The server's clock offset is learnt per baseUrl and shared by its buckets.
 */
import type { z } from 'zod';
import { ENDPOINTS, ENDPOINT_IDS } from '../../shared/endpoints';
import type { EndpointId } from '../../shared/endpoints';
import type { BucketSnapshot } from './budget-bucket';
import { BudgetBucket } from './budget-bucket';
import type { Clock } from '../../shared/clock';
import { systemClock } from './clock';
import type { BudgetStore } from './budget-store';
import { budgetStoreProblem, storeKey } from './budget-store';
import { BudgetStorePool } from './budget-store-pool';
import { ServerClock } from './server-clock';
import { normalizeBaseUrl } from '../../shared/base-url';
import type { budgetStoreStateSchema, fleetUseSchema } from '../../shared/bridge/session-schemas';

/** Whose budget: one vendor at one service. Several connected profiles are several scopes. */
export interface BudgetScope {
  baseUrl: string;
  vendor: string;
}

export type BudgetStoreStateView = z.output<typeof budgetStoreStateSchema>;
export type FleetUse = Pick<z.output<typeof fleetUseSchema>, 'fromMs' | 'endpoints'>;

/** A scope's (or the default) store: `url` set when it comes from the pool, null store for headers only. */
interface StoreUse {
  url?: string;
  store: BudgetStore | null;
}

export interface BudgetRegistryOptions {
  /** Clock of every bucket's timers; clients sharing the registry should use the same one. */
  clock?: Clock;
  /** Wait after the server's second surely changed (ms), for latency and clock quirks. Default 20. */
  guardMs?: number;
  /** Where a fleet reserves its slots (budget-store.ts); default none: headers only. */
  store?: BudgetStore | null;
}

export class BudgetRegistry {
  readonly clock: Clock;
  private readonly stores = new BudgetStorePool();
  /** For every scope not given its own (the registry-wide `useStore(url)` form). */
  private defaultUse: StoreUse;
  private readonly scopeUses = new Map<string, StoreUse>();
  private readonly guardMs: number | undefined;
  private readonly buckets = new Map<string, BudgetBucket>();
  private readonly serverClocks = new Map<string, ServerClock>();

  constructor(options: BudgetRegistryOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.guardMs = options.guardMs;
    this.defaultUse = { store: options.store ?? null };
  }

  /** The default store (scopes not given their own), or null (headers only). */
  get store(): BudgetStore | null {
    return this.defaultUse.store;
  }

  /** Where the fleet of this vendor at this base URL reserves its slots, or null (headers only). */
  storeFor(baseUrl: string, vendor: string): BudgetStore | null {
    return (this.scopeUses.get(scopeKey(normalizeBaseUrl(baseUrl), vendor)) ?? this.defaultUse).store;
  }

  /**
   * Uses the budget store at `url` (redis://host:port/db, rediss://) for one scope, or none (headers
   * only) when it is undefined or empty; without a scope, as the default for every scope not given
   * its own. Scopes naming the same URL share one store (one connection); a store no scope uses any
   * more is closed. `log` gets the store's state lines (falls back, is back).
   */
  useStore(url: string | undefined, log?: (line: string) => void): void;
  useStore(scope: BudgetScope, url: string | undefined, log?: (line: string) => void): void;
  useStore(...args: [string | undefined, ((line: string) => void)?] | [BudgetScope, string | undefined, ((line: string) => void)?]): void {
    if (typeof args[0] === 'object') {
      const [scope, url, log] = args as [BudgetScope, string | undefined, ((line: string) => void)?];
      const key = scopeKey(normalizeBaseUrl(scope.baseUrl), scope.vendor);
      this.scopeUses.set(key, this.switchUse(this.scopeUses.get(key), url, log));
    } else {
      const [url, log] = args as [string | undefined, ((line: string) => void)?];
      this.defaultUse = this.switchUse(this.defaultUse, url, log);
    }
  }

  /** How the scope's store is doing, in the contract's words (budgetStoreStateSchema). */
  storeState(scope: BudgetScope): BudgetStoreStateView {
    const store = this.storeFor(scope.baseUrl, scope.vendor);
    if (!store) return { kind: 'none', url: null, state: 'off', message: null };
    const s = store.status();
    const message =
      s.state === 'connected'
        ? 'Every worker using this store shares the budget through it.'
        : s.state === 'connecting'
          ? 'Connecting to the store; pacing from the headers until it answers.'
          : `Unreachable (${s.detail ?? 'no answer'}): pacing from the headers alone until it is back.`;
    return { kind: 'redis', url: s.where, state: s.state, message };
  }

  /**
   * The slots the scope's store granted per endpoint over the last `seconds` complete seconds of
   * its clock, every worker counted (one round trip); empty arrays when there is no store or it is
   * unreachable.
   */
  async fleetUse(scope: BudgetScope, seconds: number): Promise<FleetUse> {
    const base = normalizeBaseUrl(scope.baseUrl);
    const store = this.storeFor(base, scope.vendor);
    const read = store ? await store.granted(ENDPOINT_IDS.map((id) => storeKey(base, scope.vendor, id)), seconds) : null;
    const wallNow = this.clock.wallNow?.() ?? this.clock.now();
    return {
      fromMs: read?.fromMs ?? (Math.floor(wallNow / 1000) - seconds) * 1000,
      endpoints: ENDPOINT_IDS.map((endpoint, i) => ({ endpoint, limit: this.bucket(base, scope.vendor, endpoint).model.limit, granted: read?.counts[i] ?? [] })),
    };
  }

  /** Stores (Redis connections) open now. */
  get openStores(): number {
    return this.stores.size;
  }

  /** `use` switched to the store at `url`: the same URL keeps it, another releases the old one. */
  private switchUse(use: StoreUse | undefined, url: string | undefined, log: ((line: string) => void) | undefined): StoreUse {
    const next = url?.trim() || undefined;
    if (use && use.url === next && (next !== undefined || use.store === null)) return use;
    this.release(use);
    if (next === undefined) return { store: null };
    // Checked on every way in (flags, profile form), but a hand-edited settings file must not stop a session.
    const problem = budgetStoreProblem(next);
    if (problem) {
      (log ?? console.error)(`budget store: the URL ${problem}; pacing from the headers alone`);
      return { store: null };
    }
    return { url: next, store: this.stores.acquire(next, log) };
  }

  private release(use: StoreUse | undefined): void {
    if (use?.url !== undefined) this.stores.release(use.url);
    else void use?.store?.close(); // given in the options: ours to close
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
    this.release(this.defaultUse);
    this.defaultUse = { store: null };
    this.scopeUses.clear();
    this.stores.closeAll();
  }
}

function scopeKey(normalizedBaseUrl: string, vendor: string): string {
  return `${normalizedBaseUrl}\u0000${vendor}`;
}

let processRegistry: BudgetRegistry | null = null;

/** The registry shared by every client in this process that is not given one. */
export function defaultBudgetRegistry(): BudgetRegistry {
  processRegistry ??= new BudgetRegistry();
  return processRegistry;
}
