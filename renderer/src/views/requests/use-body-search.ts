/**
 * The Requests view's text search in the bodies: they live in main (the page keeps only the entries),
 * so main searches its bounded log (searchRequestLog) and answers the matching ids. Debounced, and
 * asked again every 2 s while the view follows the live log, so that new entries are found too.
 * Main keeps bodies for its newest requests (and small purchase calls longer): a hit whose bodies aged
 * out drops from the answer, and the view says so (lost).
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo, useRef } from 'react';
import { useApi } from '../../api/context';
import { useDebounced } from '../../lib/use-debounced';

const DEBOUNCE_MS = 250;
const FOLLOW_REFRESH_MS = 2000;
/** Ids remembered per search text, at most: about twice the log (its newest kept). */
const MAX_REMEMBERED = 10_000;

export interface BodySearch {
  /** Ids of the entries whose bodies (or metadata) contain the text; null when there is no text or no answer yet. */
  found: ReadonlySet<number> | null;
  /** Ids main found for this text before and no longer finds: their bodies aged out (an entry's path and bodies never change). */
  lost: ReadonlySet<number>;
  /** Of the entries main looked at, how many still had their bodies; null without an answer. */
  searched: { scanned: number; withBodies: number } | null;
}

const NONE: ReadonlySet<number> = new Set();

/** Every id found for one text so far: what an answer no longer holds is lost. */
export class HitMemory {
  private text = '';
  private seen = new Set<number>();

  /** The ids of earlier answers for `text` that `found` no longer holds. */
  lost(text: string, found: ReadonlySet<number>): ReadonlySet<number> {
    if (text !== this.text) {
      this.text = text;
      this.seen = new Set();
    }
    for (const id of found) this.seen.add(id);
    if (this.seen.size > MAX_REMEMBERED) this.seen = new Set([...this.seen].sort((a, b) => b - a).slice(0, MAX_REMEMBERED));
    const lost = [...this.seen].filter((id) => !found.has(id));
    return lost.length === 0 ? NONE : new Set(lost);
  }
}

export function useBodySearch(text: string, follow: boolean): BodySearch {
  const api = useApi();
  const settled = useDebounced(text.trim(), DEBOUNCE_MS);
  const query = useQuery({
    queryKey: ['searchRequestLog', settled] as const,
    queryFn: async () => {
      const answer = await api.searchRequestLog({ text: settled });
      return { ids: new Set(answer.ids) as ReadonlySet<number>, scanned: answer.scanned, withBodies: answer.withBodies };
    },
    enabled: settled !== '',
    refetchInterval: follow ? FOLLOW_REFRESH_MS : false,
    staleTime: 0,
  });
  const memory = useRef(new HitMemory());
  const answer = query.data;
  const lost = useMemo(() => (answer ? memory.current.lost(settled, answer.ids) : NONE), [answer, settled]);
  // Another text's answer would keep rows the current text does not match: none until this one's arrives.
  if (settled === '' || settled !== text.trim() || !answer) return { found: null, lost: NONE, searched: null };
  return { found: answer.ids, lost, searched: { scanned: answer.scanned, withBodies: answer.withBodies } };
}
