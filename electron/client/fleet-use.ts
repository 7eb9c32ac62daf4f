/** The fleet's use of a scope's budget as its store counts it, beside each endpoint's limit as this process knows it. */
import type { z } from 'zod';
import { ENDPOINT_IDS } from '../../shared/endpoints';
import { normalizeBaseUrl } from '../../shared/base-url';
import type { fleetUseSchema } from '../../shared/bridge/session-schemas';
import type { BudgetRegistry } from './budget-registry';
import { storeKey } from './fleet-slot-store';
import type { BudgetScope, ScopeStores } from './scope-stores';

export type FleetUse = Pick<z.output<typeof fleetUseSchema>, 'fromMs' | 'endpoints'>;

/**
 * The slots the scope's store granted per endpoint over the last `seconds` complete seconds of its
 * clock, every worker counted (one round trip); empty arrays when there is no store or it is unreachable.
 */
export async function readFleetUse(stores: ScopeStores, budgets: BudgetRegistry, scope: BudgetScope, seconds: number): Promise<FleetUse> {
  const base = normalizeBaseUrl(scope.baseUrl);
  const store = stores.storeFor(scope);
  const read = store
    ? await store.granted(
        ENDPOINT_IDS.map((id) => storeKey(base, scope.vendor, id)),
        seconds,
      )
    : null;
  const wallNow = budgets.clock.wallNow?.() ?? budgets.clock.now();
  return {
    fromMs: read?.fromMs ?? (Math.floor(wallNow / 1000) - seconds) * 1000,
    endpoints: ENDPOINT_IDS.map((endpoint, i) => ({
      endpoint,
      limit: budgets.bucket(base, scope.vendor, endpoint).limit,
      granted: read?.counts[i] ?? [],
    })),
  };
}
