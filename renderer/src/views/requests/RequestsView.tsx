/** The request log for QA: every retained request, filterable and searchable, with headers and bodies. */
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { z } from 'zod';
import { ENDPOINT_IDS, ENDPOINT_LIST, ENDPOINTS, isEndpointId } from '../../../../shared/endpoints';
import { useAppContext } from '../../api/context';
import { DataTable } from '../../components/DataTable';
import { Pill, statusTone } from '../../components/Pill';
import { Empty } from '../../components/states';
import { DASH, fmtClock, fmtDateTime, fmtInt, fmtMs } from '../../lib/format';
import { navigate, routeHref, useRoute } from '../../lib/hash-route';
import { useThrottledStore } from '../../lib/use-throttled-store';
import { usePref } from '../../lib/view-prefs';
import type { LogEntry } from '../../live/request-log-store';
import { LOG_ENTRIES_KEPT } from '../../live/request-log-store';
import { followsNewest, toggledFollow } from './live-state';
import { useRequestLogFeed } from '../../live/use-request-log-feed';
import { LOG_BODIES_KEPT, LOG_RANGES_S, logFilter, minuteOf, STATUS_FILTER_IDS, STATUS_FILTERS } from './log-filter';
import type { LogRange, StatusFilterId } from './log-filter';
import { holdsMinute, noMatchDetail, spanOfMain, spanText } from './log-span';
import { RequestDetail } from './RequestDetail';
import { ExportHarButton } from './ExportHarButton';
import { useBodySearch } from './use-body-search';
import type { BodySearch } from './use-body-search';
import './requests.css';

/** One line per entry, so that the virtual list can place rows without measuring them. */
const ROW_HEIGHT = 29;

const columns: ColumnDef<LogEntry, unknown>[] = [
  {
    id: 'time',
    header: 'Time',
    accessorFn: (e) => e.at,
    size: 118,
    minSize: 116,
    cell: ({ row }) => fmtClock(row.original.at, true),
    meta: { cellClass: () => 'mono muted', cellTitle: (e) => new Date(e.at).toISOString() },
  },
  { id: 'vendor', header: 'Vendor', accessorFn: (e) => e.vendor, size: 80, minSize: 60, meta: { dropOrder: 2 } },
  {
    id: 'endpoint',
    header: 'Endpoint',
    accessorFn: (e) => `${e.method} ${e.path}`,
    size: 420,
    minSize: 170,
    enableHiding: false,
    meta: { cellClass: () => 'mono', cellTitle: (e) => `${e.method} ${e.path} (${ENDPOINTS[e.endpoint]?.label ?? e.endpoint})` },
    cell: ({ row: { original: e } }) => {
      const q = e.path.indexOf('?');
      return (
        <>
          <span className="log-method">{e.method}</span> {q < 0 ? e.path : e.path.slice(0, q)}
          {q < 0 ? null : <span className="muted">{e.path.slice(q)}</span>}
        </>
      );
    },
  },
  {
    id: 'status',
    header: 'Status',
    accessorFn: (e) => e.status,
    size: 84,
    minSize: 70,
    enableHiding: false,
    meta: { cellTitle: (e) => e.errorCode ?? String(e.status) },
    cell: ({ row: { original: e } }) => <Pill tone={statusTone(e.status)}>{e.status === 0 ? 'no answer' : e.status}</Pill>,
  },
  {
    id: 'latency',
    header: 'Latency',
    accessorFn: (e) => e.latencyMs,
    size: 60,
    minSize: 64,
    meta: { numeric: true },
    cell: ({ row }) => fmtMs(row.original.latencyMs),
  },
  {
    id: 'waited',
    header: 'Waited',
    accessorFn: (e) => e.waitedMs,
    size: 60,
    minSize: 60,
    meta: { numeric: true, cellClass: (e) => (e.waitedMs > 0 ? undefined : 'muted'), headerTitle: 'Time this request waited for budget before it was sent' },
    cell: ({ row: { original: e } }) => (e.waitedMs > 0 ? fmtMs(e.waitedMs) : '0'),
  },
  {
    id: 'attempt',
    header: 'Attempt',
    accessorFn: (e) => e.attempt,
    size: 56,
    minSize: 56,
    meta: { numeric: true, dropOrder: 3, cellClass: (e) => (e.attempt > 1 ? 'text-warn' : undefined) },
  },
  {
    id: 'limit',
    header: 'Limit',
    accessorFn: (e) => e.limit ?? -1,
    size: 50,
    minSize: 50,
    meta: { numeric: true, dropOrder: 4, headerTitle: 'X-Rate-Limit-Limit' },
    cell: ({ row }) => row.original.limit ?? DASH,
  },
  {
    id: 'remaining',
    header: 'Remaining',
    accessorFn: (e) => e.remaining ?? -1,
    size: 60,
    minSize: 60,
    meta: { numeric: true, dropOrder: 1, headerTitle: 'X-Rate-Limit-Remaining' },
    cell: ({ row }) => row.original.remaining ?? DASH,
  },
  {
    id: 'reset',
    header: 'Reset',
    accessorFn: (e) => e.reset ?? -1,
    size: 50,
    minSize: 50,
    meta: { numeric: true, dropOrder: 5, headerTitle: 'X-Rate-Limit-Reset' },
    cell: ({ row }) => row.original.reset ?? DASH,
  },
];

const rangeLabel = (s: LogRange) => (s === 0 ? 'All kept' : s < 60 ? `${s} s` : `${s / 60} min`);

export default function RequestsView() {
  const { log } = useAppContext();
  useRequestLogFeed();
  const [follow, setFollow] = useState(true);
  const [endpoint, setEndpoint] = usePref('requests', 'endpoint', z.enum([...ENDPOINT_IDS, 'all']), 'all');
  const [status, setStatus] = usePref<StatusFilterId>('requests', 'status', z.enum(STATUS_FILTER_IDS), 'all');
  const [rangeS, setRangeS] = usePref<LogRange>(
    'requests',
    'range',
    z.custom<LogRange>((v) => (LOG_RANGES_S as readonly unknown[]).includes(v)),
    0,
  );
  const [text, setText] = useState('');
  const [selected, setSelected] = useState<number | null>(null);
  const following = followsNewest({ follow, selected });
  const search = useBodySearch(text, following);
  const found = search.found;
  const version = useThrottledStore(log, 500, following);
  const toggleFollow = () => {
    const next = toggledFollow({ follow, selected });
    setFollow(next.follow);
    setSelected(next.selected);
  };
  // A link to a minute (#/requests/at=<ms>, from the Usage report) filters to it while the log still holds it.
  const route = useRoute();
  const linkedMinute = route.view === 'requests' && route.at !== null ? minuteOf(route.at) : null;
  const chooseRange = (s: LogRange) => {
    if (linkedMinute !== null) navigate('requests');
    setRangeS(s);
  };

  // `now`: the moment the table's time range counted back from; the HAR export uses the same (the table may be paused).
  const { rows, matching, minute, now, agedOut, span } = useMemo(() => {
    const span = spanOfMain({ count: log.size, oldestAt: log.oldest?.at ?? null, dropped: log.droppedHere + log.droppedByMain }, LOG_ENTRIES_KEPT);
    // An empty log is still loading: no warning until it has arrived.
    const held = linkedMinute !== null && (log.size === 0 || holdsMinute(span, linkedMinute));
    const minute = held ? linkedMinute : null;
    const now = Date.now();
    const keep = logFilter({ endpoint, status, rangeS, text, found, minute }, now);
    const rows = log.newest(LOG_ENTRIES_KEPT, keep);
    // Hits that left the answer while their entry is still here: their bodies aged out in main.
    const agedOut = search.lost.size === 0 ? 0 : log.countMatching((e) => search.lost.has(e.id));
    return { rows, matching: rows.length, minute, now, agedOut, span };
  }, [log, version, endpoint, status, rangeS, text, found, search.lost, linkedMinute]); // version: the log changed

  return (
    <div className="view">
      <div className="view-head">
        <div>
          <h1 className="view-title">Requests</h1>
          <p className="view-sub">Every request the client sent, newest first. Tokens are masked before anything reaches this page.</p>
        </div>
        <div className="toolbar" role="toolbar" aria-label="Log filters">
          <input
            type="search"
            className="input log-search"
            placeholder="Search path, bodies, id, reference…"
            aria-label="Search requests"
            data-shortcut="search"
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
          <select
            className="input"
            aria-label="Filter by endpoint"
            value={endpoint}
            onChange={(e) => setEndpoint(isEndpointId(e.target.value) ? e.target.value : 'all')}
          >
            <option value="all">All endpoints</option>
            {ENDPOINT_LIST.map((e) => (
              <option key={e.id} value={e.id}>
                {e.label}
              </option>
            ))}
          </select>
          <select
            className="input"
            aria-label="Filter by status"
            value={status}
            onChange={(e) => setStatus(STATUS_FILTERS.find((f) => f.id === e.target.value)?.id ?? 'all')}
          >
            {STATUS_FILTERS.map((f) => (
              <option key={f.id} value={f.id}>
                {f.label}
              </option>
            ))}
          </select>
          <div className="segmented" role="group" aria-label="Time range" data-shortcut="range">
            {LOG_RANGES_S.map((s) => (
              <button key={s} type="button" aria-pressed={minute === null && rangeS === s} onClick={() => chooseRange(s)}>
                {rangeLabel(s)}
              </button>
            ))}
          </div>
          <button
            type="button"
            className={following ? 'btn btn-live' : 'btn'}
            aria-pressed={!following}
            data-shortcut="live"
            title={following ? 'Pause the log' : selected !== null ? 'Follow the newest again (closes the selected request)' : 'Follow the newest again'}
            onClick={toggleFollow}
          >
            <span className={following ? 'live-dot' : 'live-dot live-dot-off'} aria-hidden="true" />
            {following ? 'Live' : 'Paused'}
          </button>
          <ExportHarButton filter={{ endpoint, status, rangeS, text, minute, now }} matching={matching} />
        </div>
      </div>

      {linkedMinute !== null ? (
        minute !== null ? (
          <div className="banner" role="status">
            <strong>Showing the minute of {fmtDateTime(minute)}</strong> (to {fmtClock(minute + 60_000)}). Choose a time range to leave it.
          </div>
        ) : (
          <div className="banner banner-warn" role="status">
            <strong>The request log no longer holds the minute of {fmtDateTime(linkedMinute)}.</strong> It {spanText(span, now)}; the{' '}
            <a href={routeHref('budget', `at=${linkedMinute}`)}>Budget view</a> shows that minute from the stored history.
          </div>
        )
      ) : null}

      <div className="log-meta muted small" role="status">
        {fmtInt(matching)} matching · the log {spanText(span, now)} (it keeps at most {fmtInt(LOG_ENTRIES_KEPT)})
        {log.droppedHere > 0 ? ` · ${fmtInt(log.droppedHere)} older entries let go by this page` : ''}
        {log.droppedByMain > 0 ? ` · ${fmtInt(log.droppedByMain)} let go by the service's bounded log` : ''}
      </div>
      <SearchScope searched={search.searched} agedOut={text.trim() === '' ? 0 : agedOut} />

      <div className={selected !== null ? 'split split-open split-wide' : 'split'}>
        <section className="panel panel-flush" aria-label="Request log">
          {log.size === 0 ? (
            <Empty title="No requests yet.">Browse the catalog or start demo traffic in Settings to see requests here.</Empty>
          ) : (
            <DataTable
              prefsKey="requests"
              label="Request log"
              className="table-log"
              data={rows}
              columns={columns}
              getRowId={(e) => String(e.id)}
              onOpen={(e) => setSelected(e.id)}
              selectedId={selected === null ? null : String(selected)}
              rowProps={(e) => ({ 'data-status': e.status })}
              virtual={{ rowHeight: ROW_HEIGHT }}
              maxHeight="calc(100vh - 190px)"
              empty={<Empty title="No request matches the filters.">{noMatchDetail(span, now)}</Empty>}
            />
          )}
        </section>
        {selected !== null ? <RequestDetail id={selected} onClose={() => setSelected(null)} /> : null}
      </div>
    </div>
  );
}

/**
 * What the search looks in, said plainly: main keeps bodies of its newest requests only (and of small
 * purchase calls for as long as it keeps the entry), so an older catalog page is not found by its body.
 */
function SearchScope({ searched, agedOut }: { searched: BodySearch['searched']; agedOut: number }) {
  return (
    <>
      <p className="log-search-scope muted small">
        Search covers the path, query, status and vendor of every kept request; bodies only of the newest {fmtInt(LOG_BODIES_KEPT)} requests, and of purchase
        calls (register, info, validate, cancel) while they are kept.
        {searched ? ` Bodies searched now: ${fmtInt(searched.withBodies)} of ${fmtInt(searched.scanned)}.` : ''}
      </p>
      {agedOut > 0 ? (
        <p className="log-search-aged small" role="status">
          {fmtInt(agedOut)} earlier {agedOut === 1 ? 'match is' : 'matches are'} no longer listed: {agedOut === 1 ? 'its bodies' : 'their bodies'} aged out of
          the newest {fmtInt(LOG_BODIES_KEPT)} requests, though the {agedOut === 1 ? 'request is' : 'requests are'} still in the log.
        </p>
      ) : null}
    </>
  );
}
