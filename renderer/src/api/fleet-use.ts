/**
 * The fleet's use of a profile's budget as its Redis store counts it (issue 10 §2): one query per
 * profile, shared by the Overview's cards, the header badge and the Budget table (one poll serves
 * all). A local call: polling spends no budget.
 */
import { useQuery } from '@tanstack/react-query';
import type { CallResponse } from '../../../shared/bridge/contract';
import { useApi } from './context';
import { useConnection } from './queries';

export type FleetUse = CallResponse<'fleetUse'>;

export const fleetUseKey = (profileId: string) => ['fleetUse', profileId] as const;

/** Seconds asked (the Overview's minute); the Budget table averages the last few of them. */
const FLEET_SECONDS = 60;
const FLEET_POLL_MS = 2_000;
const NO_STORE_POLL_MS = 30_000;

/** A profile's fleet use; idle while `profileId` is null (nothing connected yet). */
export function useFleetUse(profileId: string | null) {
  const api = useApi();
  return useQuery({
    queryKey: fleetUseKey(profileId ?? ''),
    queryFn: () => api.fleetUse({ profileId: profileId!, seconds: FLEET_SECONDS }),
    enabled: profileId !== null,
    // Often while a store counts; seldom while none is set (one may be configured meanwhile).
    refetchInterval: (q) => (q.state.data && q.state.data.store.kind !== 'none' ? FLEET_POLL_MS : NO_STORE_POLL_MS),
  });
}

/** The active profile's fleet use (header badge, Budget table). */
export function useActiveFleetUse() {
  return useFleetUse(useConnection().data?.profileId ?? null);
}
