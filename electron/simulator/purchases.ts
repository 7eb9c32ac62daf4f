/**
 * Purchases, per vendor (a vendor never sees another's), and their state machine:
 *
 *     register -> registered --validate--> validated
 *                 registered --cancel----> cancelled
 *                 validated  --cancel----> cancelled
 *
 * view-url needs registered or validated; download-url needs validated; info works in every state.
 * Any other action answers 409 with a message naming the purchase's state.
 */
import type { PurchaseState } from '../../shared/catalog';

export interface SimPurchase {
  id: string;
  asset_id: number;
  state: PurchaseState;
  price: number;
  currency: 'USD';
  client_reference?: string;
  created_at: string;
  updated_at: string;
}

export type PurchaseAction = 'validate' | 'cancel' | 'downloadUrl' | 'viewUrl';

/** Which states each action accepts. */
const ALLOWED_FROM: Record<PurchaseAction, readonly PurchaseState[]> = {
  validate: ['registered'],
  cancel: ['registered', 'validated'],
  downloadUrl: ['validated'],
  viewUrl: ['registered', 'validated'],
};

const ACTION_WORDS: Record<PurchaseAction, string> = {
  validate: 'validated',
  cancel: 'cancelled',
  downloadUrl: 'given a download URL',
  viewUrl: 'given a view URL',
};

export type PurchaseOutcome = { ok: true; purchase: SimPurchase } | { ok: false; status: 404 | 409; message: string };

/**
 * Purchases kept per vendor (~480 bytes each: ~10 MiB). Full demo traffic registers ~30 a second, so
 * an app left open all day would otherwise hold millions (200,000 per vendor held ~90 MiB).
 */
export const MAX_PURCHASES_PER_VENDOR = 20_000;

export interface PurchaseBookOptions {
  /** Purchases kept per vendor; default MAX_PURCHASES_PER_VENDOR. */
  maxPerVendor?: number;
}

interface VendorPurchases {
  /** In order of registration. */
  byId: Map<string, SimPurchase>;
  byReference: Map<string, SimPurchase[]>;
  /** Ids of cancelled purchases, in order of cancellation: nothing can happen to them any more, so they go first. */
  cancelled: Set<string>;
}

export class PurchaseBook {
  private vendors = new Map<string, VendorPurchases>();
  private sequence = 0;
  private readonly maxPerVendor: number;

  constructor(options: PurchaseBookOptions = {}) {
    this.maxPerVendor = Math.max(1, options.maxPerVendor ?? MAX_PURCHASES_PER_VENDOR);
  }

  private of(vendor: string): VendorPurchases {
    let v = this.vendors.get(vendor);
    if (!v) {
      v = { byId: new Map(), byReference: new Map(), cancelled: new Set() };
      this.vendors.set(vendor, v);
    }
    return v;
  }

  /** Always creates a new purchase, even with a client_reference seen before (no idempotency). */
  register(vendor: string, asset: { id: number; price: number }, clientReference: string | undefined, nowMs: number): SimPurchase {
    const v = this.of(vendor);
    this.sequence++;
    const at = new Date(nowMs).toISOString();
    const purchase: SimPurchase = {
      id: `p_${this.sequence.toString(36).padStart(6, '0')}`,
      asset_id: asset.id,
      state: 'registered',
      price: asset.price,
      currency: 'USD',
      ...(clientReference !== undefined ? { client_reference: clientReference } : {}),
      created_at: at,
      updated_at: at,
    };
    v.byId.set(purchase.id, purchase);
    if (clientReference !== undefined) {
      const list = v.byReference.get(clientReference) ?? [];
      list.push(purchase);
      v.byReference.set(clientReference, list);
    }
    while (v.byId.size > this.maxPerVendor) this.forgetOne(v);
    return { ...purchase };
  }

  /**
   * Over the bound: the purchase cancelled longest ago, else the oldest registration. A purchase a
   * client may still move (registered, validated) outlives every cancelled one; the newest never goes.
   */
  private forgetOne(v: VendorPurchases): void {
    const cancelledId = v.cancelled.values().next().value;
    const oldest = cancelledId !== undefined ? v.byId.get(cancelledId) : v.byId.values().next().value;
    if (cancelledId !== undefined) v.cancelled.delete(cancelledId);
    if (!oldest) return;
    v.byId.delete(oldest.id);
    if (oldest.client_reference === undefined) return;
    const list = v.byReference.get(oldest.client_reference)?.filter((p) => p.id !== oldest.id) ?? [];
    if (list.length > 0) v.byReference.set(oldest.client_reference, list);
    else v.byReference.delete(oldest.client_reference);
  }

  get(vendor: string, id: string): PurchaseOutcome {
    const p = this.vendors.get(vendor)?.byId.get(id);
    return p ? { ok: true, purchase: { ...p } } : { ok: false, status: 404, message: `Purchase "${id}" not found.` };
  }

  byReference(vendor: string, reference: string): SimPurchase[] {
    return (this.vendors.get(vendor)?.byReference.get(reference) ?? []).map((p) => ({ ...p }));
  }

  /**
   * The purchase that "validate this asset" means (dialects whose validate takes the asset): the
   * vendor's newest registered purchase of it, else its newest purchase (so that validate says 409).
   * A scan, newest kept; validate by asset is rare next to the other operations.
   */
  latestOfAsset(vendor: string, assetId: number): SimPurchase | null {
    let newest: SimPurchase | null = null;
    let newestRegistered: SimPurchase | null = null;
    for (const p of this.vendors.get(vendor)?.byId.values() ?? []) {
      if (p.asset_id !== assetId) continue;
      newest = p;
      if (p.state === 'registered') newestRegistered = p;
    }
    const chosen = newestRegistered ?? newest;
    return chosen ? { ...chosen } : null;
  }

  /** Check (and for validate/cancel, make) a transition. */
  act(vendor: string, id: string, action: PurchaseAction, nowMs: number): PurchaseOutcome {
    const p = this.vendors.get(vendor)?.byId.get(id);
    if (!p) return { ok: false, status: 404, message: `Purchase "${id}" not found.` };
    const allowed = ALLOWED_FROM[action];
    if (!allowed.includes(p.state)) {
      return {
        ok: false,
        status: 409,
        message: `Purchase "${id}" is ${p.state}; only a purchase that is ${allowed.join(' or ')} can be ${ACTION_WORDS[action]}.`,
      };
    }
    if (action === 'validate' || action === 'cancel') {
      p.state = action === 'validate' ? 'validated' : 'cancelled';
      p.updated_at = new Date(nowMs).toISOString();
      if (p.state === 'cancelled') this.vendors.get(vendor)?.cancelled.add(p.id);
    }
    return { ok: true, purchase: { ...p } };
  }

  reset(): void {
    // The sequence goes on, so an id seen before a reset never names a different purchase.
    this.vendors.clear();
  }
}
