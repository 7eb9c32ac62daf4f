/**
 * The one owner of the fleet slot stores of a process, per scope (base URL + vendor): a session takes
 * its scope's store when it opens (a lease) and releases it in its close(); nothing else opens or
 * closes a store. Scopes naming the same URL share one store, so one Redis connection however many
 * profiles are connected; it is closed with its last lease. While a scope has several leases (two
 * connected profiles of one vendor at one service), the latest taken that holds a store is the scope's
 * store: a profile without one connected beside it does not take the fleet's traffic off the store
 * the other still holds; released, the one before it is again.
 */
import { budgetStoreProblem, isMachineStore, MACHINE_STORE } from '../../shared/budget-store-url';
import { normalizeBaseUrl } from '../../shared/base-url';
import type { FleetSlotStore, SlotStoreStatus } from './fleet-slot-store';
import { machineStoreFile, MachineSlotStore } from './machine-slot-store';
import { RedisSlotStore } from './redis-slot-store';

/** Whose budget: one vendor at one service. Several connected profiles are several scopes. */
export interface BudgetScope {
  baseUrl: string;
  vendor: string;
}

/** A scope's store as one holder took it; `store` null: headers only. */
export interface StoreLease {
  readonly store: FleetSlotStore | null;
  /** Gives the store back (the last lease of its URL closes it). A second call does nothing. */
  release(): void;
}

interface Held {
  readonly scope: string;
  readonly url: string | undefined;
  readonly store: FleetSlotStore | null;
}

export class ScopeStores {
  private readonly byUrl = new Map<string, { store: FleetSlotStore; users: number }>();
  /** Per scope, its leases in the order taken: the last that holds a store is the scope's store. */
  private readonly byScope = new Map<string, Held[]>();

  /**
   * The store at `url` (redis://host:port/db, rediss://, or `machine`) for `scope`, or none (headers only) when it is
   * undefined or empty. `log` gets the store's state lines (falls back, is back) and why a URL is refused.
   */
  take(scope: BudgetScope, url: string | undefined, log?: (line: string) => void): StoreLease {
    const held: Held = { scope: scopeKey(scope), ...this.open(url?.trim() || undefined, log) };
    const leases = this.byScope.get(held.scope) ?? [];
    leases.push(held);
    this.byScope.set(held.scope, leases);
    let released = false;
    return {
      store: held.store,
      release: () => {
        if (released) return;
        released = true;
        this.release(held);
      },
    };
  }

  /** Where the fleet of this scope reserves its slots now, or null (headers only). */
  storeFor(scope: BudgetScope): FleetSlotStore | null {
    const leases = this.byScope.get(scopeKey(scope)) ?? [];
    for (let i = leases.length - 1; i >= 0; i--) if (leases[i]!.store) return leases[i]!.store;
    return null;
  }

  /** How the scope's store is doing, or null without one. */
  status(scope: BudgetScope): SlotStoreStatus | null {
    return this.storeFor(scope)?.status() ?? null;
  }

  /** Stores (Redis connections) open now. */
  get openCount(): number {
    return this.byUrl.size;
  }

  /** Closes every store (the process is shutting down); leases released later change nothing. */
  closeAll(): void {
    for (const { store } of this.byUrl.values()) void store.close();
    this.byUrl.clear();
    this.byScope.clear();
  }

  private open(url: string | undefined, log: ((line: string) => void) | undefined): Pick<Held, 'url' | 'store'> {
    if (url === undefined) return { url, store: null };
    // Checked on every way in (flags, profile form), but a hand-edited settings file must not stop a session.
    const problem = budgetStoreProblem(url);
    if (problem) {
      (log ?? console.error)(`budget store: the URL ${problem}; pacing from the headers alone`);
      return { url: undefined, store: null };
    }
    if (isMachineStore(url)) url = MACHINE_STORE;
    let entry = this.byUrl.get(url);
    if (!entry) {
      const store = url === MACHINE_STORE ? new MachineSlotStore(machineStoreFile(), log) : new RedisSlotStore(url, log);
      entry = { store, users: 0 };
      this.byUrl.set(url, entry);
    }
    entry.users += 1;
    return { url, store: entry.store };
  }

  private release(held: Held): void {
    const leases = this.byScope.get(held.scope);
    const at = leases?.indexOf(held) ?? -1;
    if (at < 0) return; // closeAll() came first
    leases!.splice(at, 1);
    if (leases!.length === 0) this.byScope.delete(held.scope);
    if (held.url === undefined) return;
    const entry = this.byUrl.get(held.url);
    if (!entry || --entry.users > 0) return;
    this.byUrl.delete(held.url);
    void entry.store.close();
  }
}

function scopeKey(scope: BudgetScope): string {
  return `${normalizeBaseUrl(scope.baseUrl)}\u0000${scope.vendor}`;
}
