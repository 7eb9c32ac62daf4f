/**
 * The purchase ledger as react-query state. The ledger (and the guard against registering twice)
 * lives in main: these hooks only show it, and every purchase action refetches it.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import type { CallRequest, CallResponse } from '../../../../shared/bridge/contract';
import type { LedgerRecord, LedgerState } from '../../../../shared/bridge/ledger-schemas';
import { useApi } from '../../api/context';
import { keys, shownProfile, useProfile } from '../../api/queries';
import type { AssetSource } from '../catalog/asset-source';

export type { LedgerRecord };
export type LedgerList = CallResponse<'ledgerList'>;
export type LedgerFilter = { vendor: string | null; state: LedgerState | 'unresolved' | null; purchaseState?: string | null };

const LEDGER_KEY = keys.ledger;

export function invalidateLedger(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: LEDGER_KEY });
}

/** The ledger of every session, filtered; unresolved records first. */
export function useLedger(filter: LedgerFilter, limit = 500) {
  const api = useApi();
  const request: CallRequest<'ledgerList'> = { vendor: filter.vendor, state: filter.state, purchaseState: filter.purchaseState ?? null, limit };
  return useQuery({ queryKey: [...LEDGER_KEY, 'list', request], queryFn: () => api.ledgerList(request), staleTime: 5_000 });
}

/** One asset's records at the service it was read from (what Register asks about). */
export function useAssetLedger(assetId: string | number, source: AssetSource) {
  const api = useApi();
  const { vendor, baseUrl } = source;
  const request: CallRequest<'ledgerList'> = { vendor, baseUrl, assetId, limit: 100 };
  return useQuery({
    queryKey: [...LEDGER_KEY, 'asset', request],
    queryFn: () => api.ledgerList(request),
    staleTime: 5_000,
    enabled: vendor !== null && baseUrl !== null,
  });
}

/**
 * Looks an unresolved registration up at the service, or marks it checked. The request names the
 * profile shown when it was clicked (main refuses one that is not at the record's service).
 */
export function useResolve(onResolved?: (message: string) => void) {
  const api = useApi();
  const queryClient = useQueryClient();
  const profile = useProfile();
  const resolve = useMutation({
    mutationFn: ({ profileShown, ...request }: Omit<CallRequest<'ledgerResolve'>, 'profileId'> & { profileShown: typeof profile }) =>
      api.ledgerResolve({ ...request, profileId: shownProfile(profileShown) }),
    onSuccess: (answer) => onResolved?.(answer.message),
    onSettled: () => invalidateLedger(queryClient),
  });
  return { ...resolve, mutate: (request: Omit<CallRequest<'ledgerResolve'>, 'profileId'>) => resolve.mutate({ ...request, profileShown: profile }) };
}
