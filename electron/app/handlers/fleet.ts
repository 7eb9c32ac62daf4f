/** fleetUse: a connected profile's fleet budget store, its state and the slots it granted per second. */
import type { AppContext } from './context';
import type { HandlerGroup } from './types';

const DEFAULT_SECONDS = 60;

export function fleetHandlers(ctx: AppContext): HandlerGroup<'fleetUse'> {
  return {
    async fleetUse({ profileId, seconds = DEFAULT_SECONDS }) {
      // The active profile when absent; NOT_FOUND for one that is not connected.
      const { profile } = ctx.sessionFor(profileId);
      const scope = { baseUrl: profile.baseUrl, vendor: profile.vendor };
      // No store: the registry answers empty counts without any Redis call.
      const use = await ctx.budgets.fleetUse(scope, seconds);
      return { profileId: profile.id, vendor: profile.vendor, store: ctx.budgets.storeState(scope), ...use };
    },
  };
}
