/**
 * The renderer's alerts: the stored list and a profile's rules (react-query), kept fresh by the
 * `alert` event (use-alert-wiring.ts), and what the header and the Budget view read from them.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { AlertRuleInput, AlertView } from '../../../../shared/bridge/alert-schemas';
import { useApi } from '../../api/context';

export const alertKeys = {
  all: ['alerts'] as const,
  list: ['alerts', 'list'] as const,
  rules: (profileId: string | null) => ['alerts', 'rules', profileId] as const,
};

export function useAlerts() {
  const api = useApi();
  return useQuery({ queryKey: alertKeys.list, queryFn: () => api.alertsList({ limit: 500 }), staleTime: 60_000 });
}

/** Alerts firing now (across profiles). */
export function useFiringAlerts(): AlertView[] {
  const list = useAlerts();
  return useMemo(() => (list.data?.items ?? []).filter((a) => a.endedAt === null), [list.data]);
}

/**
 * For the Budget view: the firing alerts of one vendor by endpoint (a marker on its row and chart).
 * An alert "for all endpoints" that names no endpoint (down, download) is not listed here.
 */
export function useEndpointAlerts(vendor: string | null | undefined): ReadonlyMap<string, AlertView[]> {
  const firing = useFiringAlerts();
  return useMemo(() => {
    const by = new Map<string, AlertView[]>();
    for (const a of firing) {
      if (a.endpoint === null || a.vendor !== vendor) continue;
      by.set(a.endpoint, [...(by.get(a.endpoint) ?? []), a]);
    }
    return by;
  }, [firing, vendor]);
}

export function useAlertRules(profileId: string | null) {
  const api = useApi();
  return useQuery({
    queryKey: alertKeys.rules(profileId),
    queryFn: () => api.alertRules(profileId ? { profileId } : {}),
    enabled: profileId !== null,
    staleTime: 60_000,
  });
}

export function useAcknowledge() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.alertAcknowledge({ id }),
    onSettled: () => client.invalidateQueries({ queryKey: alertKeys.list }),
  });
}

export function useSaveRule() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (rule: AlertRuleInput) => api.alertRuleSave(rule),
    onSuccess: (saved) => client.invalidateQueries({ queryKey: alertKeys.rules(saved.profileId) }),
  });
}
