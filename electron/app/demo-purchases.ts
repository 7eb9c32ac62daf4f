/**
 * The purchases demo traffic registered, in the state its own answers put them in, so that each action goes
 * to a purchase the service allows it on (the demo of a healthy vendor): validate a registered one, a download
 * URL for a validated one, a view URL for either, cancel either. A purchase being validated or cancelled is
 * claimed until the answer, so no other action races it into a conflict; one with a URL asked for is not
 * cancelled until that answer (paced requests wait up to a second, long enough for a cancel to overtake them).
 */
import type { EndpointId } from '../../shared/endpoints';
import type { Id } from '../../shared/service-map/values';

export type DemoPurchaseState = 'registered' | 'validated' | 'cancelled' | 'changing';

export interface DemoPurchase {
  id: string;
  assetId: Id | null;
  state: DemoPurchaseState;
  /** URL requests taken on it and not yet answered: cancel leaves it alone meanwhile. */
  readers: number;
}

export type DemoPurchaseAction = Extract<EndpointId, 'validatePurchase' | 'downloadUrl' | 'viewUrl' | 'cancelPurchase'>;

/** The simulator's state machine (server-behaviour: purchases), as the demo's own answers tell it. */
const ALLOWED: Record<DemoPurchaseAction, readonly DemoPurchaseState[]> = {
  validatePurchase: ['registered'],
  cancelPurchase: ['registered', 'validated'],
  downloadUrl: ['validated'],
  viewUrl: ['registered', 'validated'],
};

/** Validated purchases cancel leaves for download URLs. */
const KEEP_VALIDATED = 3;
const MAX_KEPT = 500;

export class DemoPurchases {
  private readonly list: DemoPurchase[] = [];

  add(id: string, assetId: Id | null): DemoPurchase {
    const purchase: DemoPurchase = { id, assetId, state: 'registered', readers: 0 };
    this.list.push(purchase);
    if (this.list.length > MAX_KEPT) this.list.splice(0, this.list.length - MAX_KEPT);
    return purchase;
  }

  count(state: DemoPurchaseState): number {
    return this.list.reduce((n, p) => n + (p.state === state ? 1 : 0), 0);
  }

  /** Any purchase (info answers in every state). */
  any(random: () => number): DemoPurchase | undefined {
    return pick(this.list, random);
  }

  /**
   * A purchase the action is allowed on, claimed when the action changes its state; cancel takes registered
   * ones first and leaves a few validated for download URLs. undefined: none (the caller registers one).
   */
  take(action: DemoPurchaseAction, random: () => number): DemoPurchase | undefined {
    let candidates = this.list.filter((p) => allowedNow(action, p));
    if (action === 'cancelPurchase') {
      const registered = candidates.filter((p) => p.state === 'registered');
      candidates = registered.length > 0 ? registered : this.count('validated') > KEEP_VALIDATED ? candidates : [];
    }
    const purchase = pick(candidates, random);
    if (purchase) hold(purchase, action);
    return purchase;
  }

  /** Claims this purchase for the action if it is allowed on it now (the one just registered for it). */
  claim(purchase: DemoPurchase, action: DemoPurchaseAction): DemoPurchase | undefined {
    if (!allowedNow(action, purchase)) return undefined;
    hold(purchase, action);
    return purchase;
  }

  /** A purchase the action is NOT allowed on (a cancelled one): the few conflicts of real traffic. */
  conflict(random: () => number): DemoPurchase | undefined {
    return pick(
      this.list.filter((p) => p.state === 'cancelled'),
      random,
    );
  }

  /** The answer to `action` on `purchase`: its new state; a failed change leaves it unknown, so it is forgotten. */
  settle(purchase: DemoPurchase, action: DemoPurchaseAction, ok: boolean): void {
    if (!changesState(action)) {
      purchase.readers = Math.max(0, purchase.readers - 1);
      return;
    }
    if (purchase.state !== 'changing') return;
    if (ok) purchase.state = action === 'validatePurchase' ? 'validated' : 'cancelled';
    else if (this.list.includes(purchase)) this.list.splice(this.list.indexOf(purchase), 1);
  }
}

function allowedNow(action: DemoPurchaseAction, p: DemoPurchase): boolean {
  return ALLOWED[action].includes(p.state) && (action !== 'cancelPurchase' || p.readers === 0);
}

/** Claims the purchase for a state change, or counts one more URL request on it. */
function hold(p: DemoPurchase, action: DemoPurchaseAction): void {
  if (changesState(action)) p.state = 'changing';
  else p.readers += 1;
}

function changesState(action: DemoPurchaseAction): boolean {
  return action === 'validatePurchase' || action === 'cancelPurchase';
}

function pick<T>(list: readonly T[], random: () => number): T | undefined {
  return list.length === 0 ? undefined : list[Math.floor(random() * list.length)];
}
