/** The span the Requests view would hold, for views that link into it (Usage's busiest minutes). */
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../api/context';
import { LOG_ENTRIES_KEPT } from '../../live/request-log-store';
import { spanOfMain } from './log-span';
import type { LogSpan } from './log-span';

/** The log moves on quickly under traffic: read again now and then while shown. */
const REFRESH_MS = 15_000;

export function useLogSpan(enabled: boolean): LogSpan | null {
  const api = useApi();
  const query = useQuery({
    queryKey: ['requestLogSpan'],
    // The span of the Requests view's backfill (same limit), so a link shown here lands on a minute it holds.
    queryFn: async () => spanOfMain(await api.requestLogSpan({ limit: LOG_ENTRIES_KEPT }), LOG_ENTRIES_KEPT),
    enabled,
    refetchInterval: REFRESH_MS,
  });
  return query.data ?? null;
}
