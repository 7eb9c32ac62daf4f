/** usageHistory: the stored usage of a profile (default: the active one; its vendor: a connected profile's) over a range. */
import { PartnerError } from '../../../shared/errors';
import type { AppContext } from './context';
import type { HandlerGroup } from './types';

export function usageHandlers(ctx: AppContext): HandlerGroup<'usageHistory'> {
  return {
    async usageHistory({ profileId, vendor, endpoints, fromMs, toMs }) {
      const connected = ctx.connection.current();
      const id = profileId ?? connected.profileId;
      const theVendor = vendor ?? ctx.pool.list().find((p) => p.profileId === id)?.vendor ?? null;
      if (!id || !theVendor) {
        throw new PartnerError({ code: 'BAD_REQUEST', message: 'Say which profile and vendor to read: none is connected.', retryable: false });
      }
      return ctx.usage.read({ profileId: id, vendor: theVendor, endpoints, fromMs, toMs });
    },
  };
}
