/**
 * Follows the request log while the Requests view is open: a fresh backfill from main's bounded log,
 * then the `requestLog` events. Closed, the page keeps no log of its own: at full demo traffic that
 * is ~300 entries a second that would only feed the garbage collector.
 */
import { useEffect } from 'react';
import { useAppContext, useLink } from '../api/context';
import { LOG_ENTRIES_KEPT } from './request-log-store';

const LOG_BACKFILL = LOG_ENTRIES_KEPT;

export function useRequestLogFeed(): void {
  const { api, log } = useAppContext();
  const link = useLink();
  useEffect(() => {
    if (link.state !== 'open') return;
    let cancelled = false;
    // Events that arrive before the backfill answers are kept; the store ignores repeats by id.
    const pending: Parameters<typeof log.ingest>[] = [];
    let ready = false;
    const off = api.onRequestLog((p) => (ready ? log.ingest(p.entries, p.dropped) : pending.push([p.entries, p.dropped])));
    log.clear();
    api
      .requestLog({ endpoint: null, status: null, limit: LOG_BACKFILL })
      .then((r) => {
        if (!cancelled) log.ingest(r.entries, r.dropped);
      })
      .catch(() => undefined)
      .finally(() => {
        ready = true;
        if (!cancelled) for (const [entries, dropped] of pending) log.ingest(entries, dropped);
      });
    return () => {
      cancelled = true;
      off();
    };
  }, [api, log, link.state]);
}
