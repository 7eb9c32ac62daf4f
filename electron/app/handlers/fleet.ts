/** fleetUse: a connected profile's fleet budget store, its state and the slots it granted per second. */
import type { z } from 'zod';
import type { budgetStoreStateSchema } from '../../../shared/bridge/session-schemas';
import { readFleetUse } from '../../client';
import type { SlotStoreStatus } from '../../client';
import type { AppContext } from './context';
import type { HandlerGroup } from './types';

const DEFAULT_SECONDS = 60;

export type BudgetStoreStateView = z.output<typeof budgetStoreStateSchema>;

/** How a scope's store is doing, in the contract's words and the sentence the views show. */
export function storeStateView(status: SlotStoreStatus | null): BudgetStoreStateView {
  if (!status) return { kind: 'none', url: null, state: 'off', message: null };
  const message =
    status.state === 'connected'
      ? status.kind === 'machine'
        ? 'Every process on this machine that uses this store shares the budget through it.'
        : 'Every worker using this store shares the budget through it.'
      : status.state === 'connecting'
        ? 'Connecting to the store; pacing from the headers until it answers.'
        : `${status.kind === 'machine' ? 'Cannot be used' : 'Unreachable'} (${status.detail ?? 'no answer'}): pacing from the headers alone until it is back.`;
  return { kind: status.kind, url: status.where, state: status.state, message };
}

export function fleetHandlers(ctx: AppContext): HandlerGroup<'fleetUse'> {
  return {
    async fleetUse({ profileId, seconds = DEFAULT_SECONDS }) {
      // The active profile when absent; NOT_FOUND for one that is not connected.
      const { profile } = ctx.sessionFor(profileId);
      const scope = { baseUrl: profile.baseUrl, vendor: profile.vendor };
      // No store: empty counts without any Redis call.
      const use = await readFleetUse(ctx.stores, ctx.budgets, scope, seconds);
      return { profileId: profile.id, vendor: profile.vendor, store: storeStateView(ctx.stores.status(scope)), ...use };
    },
  };
}
