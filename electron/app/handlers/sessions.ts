/** Several profiles connected at once (session-pool.ts): the list, connecting in the background, disconnecting. */
import type { AppContext } from './context';
import type { HandlerGroup } from './types';

export function sessionHandlers(ctx: AppContext): HandlerGroup<'connectedProfiles' | 'connectProfile' | 'disconnectProfile'> {
  return {
    connectedProfiles: async () => ({ items: ctx.pool.list() }),
    connectProfile: ({ id }) => ctx.pool.connect(id),
    disconnectProfile: ({ id }) => ctx.pool.disconnect(id).then((items) => ({ items })),
  };
}
