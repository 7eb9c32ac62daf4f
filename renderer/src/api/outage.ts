/**
 * When the service comes back after an outage (the connection leaves "offline" for the same
 * profile), every view that failed meanwhile is fetched again, instead of waiting for "Try again".
 */
import type { QueryClient } from '@tanstack/react-query';
import type { Connection } from './queries';

export function refetchAfterOutage(queryClient: QueryClient, before: Connection | undefined, after: Connection): Promise<void> | null {
  if (before?.state !== 'offline' || after.state === 'offline' || before.profileId !== after.profileId) return null;
  return queryClient.refetchQueries({ type: 'active', predicate: (q) => q.state.status === 'error' });
}
