/** The span the Requests view would hold, for views that link into it (Usage's busiest minutes). */
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../api/context';
import { LOG_ENTRIES_KEPT } from '../../live/request-log-store';
import { spanOfBackfill } from './log-span';
import type { LogSpan } from './log-span';

/** The log moves on quickly under traffic: read again now and then while shown. */
const REFRESH_MS = 15_000;

export function useLogSpan(enabled: boolean): LogSpan | null {
  const api = useApi();
  const query = useQuery({
    queryKey: ['requestLogSpan'],
    // The same read as the Requests view's backfill, so a link shown here lands on a minute it holds.
    queryFn: async () => {
      const r = await api.requestLog({ endpoint: null, status: null, limit: LOG_ENTRIES_KEPT });
      return spanOfBackfill(r.entries, r.dropped, LOG_ENTRIES_KEPT);
    },
    enabled,
    refetchInterval: REFRESH_MS,
  });
  return query.data ?? null;
}
