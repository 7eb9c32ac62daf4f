/**
 * Budget stores by URL, shared: every scope (base URL + vendor) that names the same Redis uses one
 * store, so one ioredis connection, however many profiles are connected; it is closed with its last user.
 */
import type { BudgetStore } from './budget-store';
import { createBudgetStore } from './budget-store';

export class BudgetStorePool {
  private readonly byUrl = new Map<string, { store: BudgetStore; users: number }>();

  /** The store at `url` (created on first use; `log` gets its state lines), counted as one more user. */
  acquire(url: string, log?: (line: string) => void): BudgetStore {
    let entry = this.byUrl.get(url);
    if (!entry) {
      entry = { store: createBudgetStore(url, log)!, users: 0 };
      this.byUrl.set(url, entry);
    }
    entry.users += 1;
    return entry.store;
  }

  /** One user fewer of the store at `url`; the last one closes it. */
  release(url: string): void {
    const entry = this.byUrl.get(url);
    if (!entry) return;
    entry.users -= 1;
    if (entry.users > 0) return;
    this.byUrl.delete(url);
    void entry.store.close();
  }

  /** Stores (connections) open now. */
  get size(): number {
    return this.byUrl.size;
  }

  closeAll(): void {
    for (const { store } of this.byUrl.values()) void store.close();
    this.byUrl.clear();
  }
}
