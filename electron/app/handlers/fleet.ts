/** fleetUse: a connected profile's fleet budget store, its state and the slots it granted per second. */
import { PartnerError } from '../../../shared/errors';
import type { AppContext } from './context';
import type { ActiveSession } from '../session';
import type { HandlerGroup } from './types';

const DEFAULT_SECONDS = 60;

/** The profile's session: `sessionFor` once the context has it (several connected), else the active one. */
function sessionOf(ctx: AppContext & { sessionFor?: (profileId?: string) => ActiveSession }, profileId: string | undefined): ActiveSession {
  if (ctx.sessionFor) return ctx.sessionFor(profileId);
  const active = ctx.session();
  if (profileId !== undefined && profileId !== active.profile.id) {
    throw new PartnerError({ code: 'NOT_FOUND', message: `The profile "${profileId}" is not connected.`, retryable: false });
  }
  return active;
}

export function fleetHandlers(ctx: AppContext): HandlerGroup<'fleetUse'> {
  return {
    async fleetUse({ profileId, seconds = DEFAULT_SECONDS }) {
      const { profile } = sessionOf(ctx, profileId);
      const scope = { baseUrl: profile.baseUrl, vendor: profile.vendor };
      // No store: the registry answers empty counts without any Redis call.
      const use = await ctx.budgets.fleetUse(scope, seconds);
      return { profileId: profile.id, vendor: profile.vendor, store: ctx.budgets.storeState(scope), ...use };
    },
  };
}
