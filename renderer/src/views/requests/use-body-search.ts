/**
 * The Requests view's text search in the bodies: they live in main (the page keeps only the entries),
 * so main searches its bounded log (searchRequestLog) and answers the matching ids. Debounced, and
 * asked again every 2 s while the view follows the live log, so that new entries are found too.
 */
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../api/context';
import { useDebounced } from '../../lib/use-debounced';

const DEBOUNCE_MS = 250;
const FOLLOW_REFRESH_MS = 2000;

/** Ids of the entries whose bodies (or metadata) contain the text; null when there is no text or no answer yet. */
export function useBodySearch(text: string, follow: boolean): ReadonlySet<number> | null {
  const api = useApi();
  const settled = useDebounced(text.trim(), DEBOUNCE_MS);
  const query = useQuery({
    queryKey: ['searchRequestLog', settled] as const,
    queryFn: async () => new Set((await api.searchRequestLog({ text: settled })).ids) as ReadonlySet<number>,
    enabled: settled !== '',
    refetchInterval: follow ? FOLLOW_REFRESH_MS : false,
    staleTime: 0,
  });
  // Another text's answer would keep rows the current text does not match: none until this one's arrives.
  return settled === '' || settled !== text.trim() ? null : (query.data ?? null);
}
