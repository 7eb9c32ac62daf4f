/** Purchases touched in this app session, with their last known state (newest first, bounded). */
import type { z } from 'zod';
import type { sessionPurchaseSchema } from '../../shared/bridge/schemas';
import type { Purchase } from '../../shared/catalog';

export type SessionPurchase = z.output<typeof sessionPurchaseSchema>;

const MAX_PURCHASES = 500;

export class SessionPurchases {
  /** Keyed by profile, then purchase id: purchases are per vendor and service. */
  private readonly byProfile = new Map<string, Map<string, SessionPurchase>>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Records the latest known state; a title given once is kept. */
  record(profileId: string, purchase: Purchase, assetTitle?: string | null): void {
    let list = this.byProfile.get(profileId);
    if (!list) {
      list = new Map();
      this.byProfile.set(profileId, list);
    }
    const previous = list.get(purchase.id);
    list.delete(purchase.id);
    list.set(purchase.id, { purchase: { ...purchase }, assetTitle: assetTitle ?? previous?.assetTitle ?? null, updatedAt: this.now() });
    while (list.size > MAX_PURCHASES) {
      const oldest = list.keys().next().value;
      if (oldest === undefined) break;
      list.delete(oldest);
    }
  }

  /** Known state only changes with an answer; a URL answer confirms the purchase exists but not its state. */
  has(profileId: string, purchaseId: string): boolean {
    return this.byProfile.get(profileId)?.has(purchaseId) ?? false;
  }

  list(profileId: string): SessionPurchase[] {
    return [...(this.byProfile.get(profileId)?.values() ?? [])].reverse().map((p) => ({ ...p, purchase: { ...p.purchase } }));
  }

  clear(): void {
    this.byProfile.clear();
  }
}
