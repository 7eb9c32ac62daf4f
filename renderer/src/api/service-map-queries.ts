/** react-query hooks for a profile's service map (serviceMapGet; detection and saving are mutations in the panel, and Detect again in place). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from './context';

export const serviceMapKey = (profileId: string) => ['serviceMap', profileId] as const;

export function useServiceMap(profileId: string) {
  const api = useApi();
  // Read again whenever shown: a session puts what it learned (names, detected layouts) into a map not yet reviewed.
  return useQuery({ queryKey: serviceMapKey(profileId), queryFn: () => api.serviceMapGet({ profileId }), staleTime: Infinity, refetchOnMount: 'always' });
}

/** Below this, detection found no better map than the one in use: nothing is saved (the app's first contact uses the same bar). */
const DETECT_AGAIN_MIN_CONFIDENCE = 0.5;

/**
 * Detect again, where answers stopped fitting: probes the profile's service (<= 3 requests) and, when
 * the proposal is sure enough, saves it as detected, not yet reviewed; every answer is then read again.
 */
export function useDetectAgain() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (profileId: string) => {
      const found = await api.serviceMapDetect({ profileId });
      if (found.confidence < DETECT_AGAIN_MIN_CONFIDENCE) return { saved: false as const, confidence: found.confidence };
      const view = await api.serviceMapSave({ profileId, map: found.map, detected: true });
      queryClient.setQueryData(serviceMapKey(profileId), view);
      return { saved: true as const, confidence: found.confidence };
    },
    onSuccess: (result) => {
      // Every answer of this profile was read with the old map.
      if (result.saved) void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== 'serviceMap' });
    },
  });
}
