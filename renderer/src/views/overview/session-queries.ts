/**
 * The connected profiles (several at once; one active): react-query state kept current by the
 * `sessions` event, and the calls that change the set.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { CallResponse } from '../../../../shared/bridge/contract';
import { useApi } from '../../api/context';

export type ConnectedProfile = CallResponse<'connectedProfiles'>['items'][number];

export const sessionKeys = {
  connected: ['sessions'] as const,
};

/** Every connected profile, the active one marked; the event replaces the list whenever it changes. */
export function useConnectedProfiles() {
  const api = useApi();
  const client = useQueryClient();
  useEffect(() => api.onSessions((p) => client.setQueryData(sessionKeys.connected, p)), [api, client]);
  return useQuery({ queryKey: sessionKeys.connected, queryFn: () => api.connectedProfiles({}), staleTime: 30_000 });
}

/** Makes a profile the active one (the detailed views show it); every view's data is then another vendor's. */
export function useSelectProfile() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.selectProfile({ id }),
    // Awaited: whoever navigates next finds the new profile's connection already in the cache.
    onSettled: () => client.invalidateQueries(),
  });
}

export function useConnectProfile() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.connectProfile({ id }),
    onSettled: () => client.invalidateQueries({ queryKey: sessionKeys.connected }),
  });
}

export function useDisconnectProfile() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.disconnectProfile({ id }),
    // Closing the active one makes another active: the `connection` event refreshes the views then.
    onSuccess: (list) => client.setQueryData(sessionKeys.connected, list),
  });
}
