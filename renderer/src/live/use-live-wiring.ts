/**
 * Connects the bridge's events to the renderer's state, once for the whole app: budget samples into
 * their bounded store, download progress and connection changes into react-query's cache. After the
 * link comes back, backfills what was missed and refetches. (The request log is followed only while
 * the Requests view is open: see use-request-log-feed.ts.)
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { refetchAfterOutage } from '../api/outage';
import { keys, sameTarget } from '../api/queries';
import type { Connection } from '../api/queries';
import type { AppContextValue } from '../api/context';
import { useLink } from '../api/context';

const HISTORY_MS = 60 * 60 * 1000;

/** Another profile, or the same one edited to point at another vendor or service: its catalog, purchases and simulator are different. */
export function pointsElsewhere(before: Connection, now: Connection): boolean {
  return !sameTarget(before, now);
}

export function useLiveWiring({ api, budget }: AppContextValue): void {
  const queryClient = useQueryClient();
  const link = useLink();
  const wasOpen = useRef(false);

  useEffect(() => {
    const offs = [
      api.onBudget((p) => budget.ingest(p.aggregates, p.seq)),
      api.onDownloadProgress((p) => {
        if (p.profileId === null) return;
        const key = keys.downloadOf(p.profileId);
        const before = queryClient.getQueryData<typeof p>(key);
        queryClient.setQueryData(key, p);
        // Other profiles' panels say whether another profile is downloading: read again as it starts or stops.
        if (before?.state !== p.state) {
          void queryClient.invalidateQueries({ queryKey: [...keys.download, 'status'], predicate: (q) => q.queryKey[2] !== p.profileId });
        }
      }),
      api.onConnection((c) => {
        const before = queryClient.getQueryData(keys.connection) as typeof c | undefined;
        queryClient.setQueryData(keys.connection, c);
        if (before && pointsElsewhere(before, c)) {
          void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== 'connection' });
        }
        void refetchAfterOutage(queryClient, before, c);
        // A profile without a saved map gets one detected as it connects: its map view follows.
        if (c.profileId !== null && before?.state !== c.state) void queryClient.invalidateQueries({ queryKey: ['serviceMap', c.profileId] });
      }),
    ];
    return () => offs.forEach((off) => off());
  }, [api, budget, queryClient]);

  useEffect(() => {
    if (link.state !== 'open') return;
    const reconnected = wasOpen.current;
    wasOpen.current = true;
    let cancelled = false;
    budget.beginBackfill();
    const since = budget.latest > 0 ? budget.latest : Date.now() - HISTORY_MS;
    api
      .budgetHistory({ sinceMs: since })
      .then((h) => !cancelled && budget.endBackfill({ ...h, sinceMs: since }))
      .catch(() => budget.endBackfill(null));
    if (reconnected) void queryClient.invalidateQueries();
    return () => {
      cancelled = true;
      budget.endBackfill(null);
    };
  }, [link.state, api, budget, queryClient]);
}
