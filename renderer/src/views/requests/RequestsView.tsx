/** The request log for QA: every request with its budget figures, filterable, with headers and bodies. */
import { memo, useMemo, useState } from 'react';
import type { EndpointId } from '../../../../shared/endpoints';
import { ENDPOINT_LIST, ENDPOINTS, isEndpointId } from '../../../../shared/endpoints';
import { useAppContext } from '../../api/context';
import { Pill, statusTone } from '../../components/Pill';
import { Empty } from '../../components/states';
import { DASH, fmtClock, fmtInt, fmtMs } from '../../lib/format';
import { useThrottledStore } from '../../lib/use-throttled-store';
import type { LogEntry } from '../../live/request-log-store';
import { LOG_ENTRIES_KEPT } from '../../live/request-log-store';
import { useRequestLogFeed } from '../../live/use-request-log-feed';
import { RequestDetail } from './RequestDetail';

/** Rows rendered at most: the newest first; the rest stay in the bounded buffer. */
const MAX_ROWS = 250;

const STATUS_FILTERS = {
  all: { label: 'All statuses', keep: () => true },
  ok: { label: '2xx success', keep: (e: LogEntry) => e.status >= 200 && e.status < 300 },
  '429': { label: '429 rate limited', keep: (e: LogEntry) => e.status === 429 },
  '4xx': { label: '4xx other client errors', keep: (e: LogEntry) => e.status >= 400 && e.status < 500 && e.status !== 429 },
  '5xx': { label: '5xx server errors', keep: (e: LogEntry) => e.status >= 500 },
  none: { label: 'No answer (0)', keep: (e: LogEntry) => e.status === 0 },
} as const;
type StatusFilter = keyof typeof STATUS_FILTERS;

export default function RequestsView() {
  const { log } = useAppContext();
  useRequestLogFeed();
  const [follow, setFollow] = useState(true);
  const [endpoint, setEndpoint] = useState<EndpointId | 'all'>('all');
  const [status, setStatus] = useState<StatusFilter>('all');
  const [selected, setSelected] = useState<number | null>(null);
  const version = useThrottledStore(log, 500, follow);

  const { rows, matching } = useMemo(() => {
    const keepStatus = STATUS_FILTERS[status].keep;
    const keep = (e: LogEntry) => (endpoint === 'all' || e.endpoint === endpoint) && keepStatus(e);
    return { rows: log.newest(MAX_ROWS, keep), matching: log.countMatching(keep) };
  }, [log, version, endpoint, status]); // version: the log changed

  return (
    <div className="view">
      <div className="view-head">
        <div>
          <h1 className="view-title">Requests</h1>
          <p className="view-sub">
            Every request the client sent, newest first. Tokens are masked before anything reaches this page.
          </p>
        </div>
        <div className="toolbar">
          <select className="input" aria-label="Filter by endpoint" value={endpoint} onChange={(e) => setEndpoint(isEndpointId(e.target.value) ? e.target.value : 'all')}>
            <option value="all">All endpoints</option>
            {ENDPOINT_LIST.map((e) => (
              <option key={e.id} value={e.id}>
                {e.label}
              </option>
            ))}
          </select>
          <select className="input" aria-label="Filter by status" value={status} onChange={(e) => setStatus(e.target.value as StatusFilter)}>
            {Object.entries(STATUS_FILTERS).map(([k, f]) => (
              <option key={k} value={k}>
                {f.label}
              </option>
            ))}
          </select>
          <button type="button" className={follow ? 'btn btn-live' : 'btn'} aria-pressed={!follow} onClick={() => setFollow(!follow)}>
            <span className={follow ? 'live-dot' : 'live-dot live-dot-off'} aria-hidden="true" />
            {follow ? 'Live' : 'Paused'}
          </button>
        </div>
      </div>

      <div className="log-meta muted small" role="status">
        {fmtInt(Math.min(rows.length, MAX_ROWS))} shown of {fmtInt(matching)} matching · {fmtInt(log.size)} kept here (at most {fmtInt(LOG_ENTRIES_KEPT)})
        {log.droppedHere > 0 ? ` · ${fmtInt(log.droppedHere)} older entries let go by this page` : ''}
        {log.droppedByMain > 0 ? ` · ${fmtInt(log.droppedByMain)} let go by the service's bounded log` : ''}
      </div>

      <div className={selected !== null ? 'split split-open split-wide' : 'split'}>
        <section className="panel" aria-label="Request log">
          {rows.length === 0 ? (
            <Empty title={log.size === 0 ? 'No requests yet.' : 'No request matches the filters.'}>
              {log.size === 0 ? 'Browse the catalog or start demo traffic in Settings to see requests here.' : null}
            </Empty>
          ) : (
            <div className="table-wrap table-scroll">
              <table className="table table-log" aria-label="Request log">
                <thead>
                  <tr>
                    <th scope="col">Time</th>
                    <th scope="col">Vendor</th>
                    <th scope="col">Endpoint</th>
                    <th scope="col">Status</th>
                    <th scope="col" className="num">
                      Latency
                    </th>
                    <th scope="col" className="num">
                      Waited
                    </th>
                    <th scope="col" className="num">
                      Attempt
                    </th>
                    <th scope="col" className="num" title="X-Rate-Limit-Limit">
                      Limit
                    </th>
                    <th scope="col" className="num" title="X-Rate-Limit-Remaining">
                      Remaining
                    </th>
                    <th scope="col" className="num" title="X-Rate-Limit-Reset">
                      Reset
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((e) => (
                    <LogRow key={e.id} entry={e} selected={selected === e.id} onOpen={setSelected} />
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
        {selected !== null ? <RequestDetail id={selected} onClose={() => setSelected(null)} /> : null}
      </div>
    </div>
  );
}

/** One log line; memoised so that new entries render only themselves. */
const LogRow = memo(function LogRow({ entry: e, selected, onOpen }: { entry: LogEntry; selected: boolean; onOpen: (id: number) => void }) {
  return (
    <tr
      tabIndex={0}
      className="row-clickable"
      aria-selected={selected}
      data-status={e.status}
      onClick={() => onOpen(e.id)}
      onKeyDown={(ev) => {
        if (ev.key === 'Enter' || ev.key === ' ') {
          ev.preventDefault();
          onOpen(e.id);
        }
      }}
    >
      <td className="mono muted">{fmtClock(e.at, true)}</td>
      <td>{e.vendor}</td>
      <td className="mono" title={e.path}>
        {ENDPOINTS[e.endpoint]?.label ?? e.endpoint}
      </td>
      <td>
        <Pill tone={statusTone(e.status)} title={e.errorCode ?? undefined}>
          {e.status === 0 ? 'no answer' : e.status}
        </Pill>
      </td>
      <td className="num">{fmtMs(e.latencyMs)}</td>
      <td className={e.waitedMs > 0 ? 'num' : 'num muted'}>{e.waitedMs > 0 ? fmtMs(e.waitedMs) : '0'}</td>
      <td className={e.attempt > 1 ? 'num text-warn' : 'num'}>{e.attempt}</td>
      <td className="num">{e.limit ?? DASH}</td>
      <td className="num">{e.remaining ?? DASH}</td>
      <td className="num">{e.reset ?? DASH}</td>
    </tr>
  );
});
