/**
 * The active profile's fleet budget store (issue 10 §2) for the header badge and the Budget table:
 * the same query (key, call and polling) as the Overview's useFleetUse, so one poll serves all
 * three, but idle until a profile is connected.
 */
import { useQuery } from '@tanstack/react-query';
import type { CallResponse } from '../../../shared/bridge/contract';
import { useApi } from './context';
import { useConnection } from './queries';
import { sessionKeys } from '../views/overview/session-queries';

export type FleetUse = CallResponse<'fleetUse'>;

/** Seconds asked (the Overview's minute); the Budget table averages the last few of them. */
const FLEET_SECONDS = 60;

export function useActiveFleetUse() {
  const api = useApi();
  const profileId = useConnection().data?.profileId ?? null;
  return useQuery({
    queryKey: sessionKeys.fleet(profileId ?? ''),
    queryFn: () => api.fleetUse({ profileId: profileId!, seconds: FLEET_SECONDS }),
    enabled: profileId !== null,
    // Every 2 s while a store counts; seldom while none is set (main answers 'none' without Redis).
    refetchInterval: (q) => (q.state.data?.store.kind === 'redis' ? 2_000 : 30_000),
  });
}
