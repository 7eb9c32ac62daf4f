/** react-query hooks for a profile's service map (serviceMapGet; detection and saving are mutations in the panel). */
import { useQuery } from '@tanstack/react-query';
import { useApi } from './context';

export const serviceMapKey = (profileId: string) => ['serviceMap', profileId] as const;

export function useServiceMap(profileId: string) {
  const api = useApi();
  return useQuery({ queryKey: serviceMapKey(profileId), queryFn: () => api.serviceMapGet({ profileId }), staleTime: Infinity });
}
