/**
 * The Budget view's history ranges (lazy: recharts stays out of the first chunk): a summary per
 * endpoint and one recharts panel per endpoint from the stored usage history. Drag across any chart
 * to zoom all of them to that span (a custom range); double-click a chart to go back. Where the data
 * starts well into the range, the axes start with it (read again at the finer points that span gets).
 */
import { useQuery, keepPreviousData } from '@tanstack/react-query';
import type { EndpointId, EndpointSpec } from '../../../../shared/endpoints';
import { ENDPOINTS } from '../../../../shared/endpoints';
import { useApi } from '../../api/context';
import { ErrorCallout, Loading } from '../../components/states';
import { fmtClockMinutes, fmtDateTime, fmtInt, fmtMs, fmtPercent, fmtRate, fmtUseWithOurs } from '../../lib/format';
import { ENDPOINT_COLORS, WARN_SHARE } from './budget-model';
import { bucketLabel, readFitted, summarize } from '../../../../shared/usage-history-model';
import { EndpointPath } from './EndpointPath';
import { HistoryChart, HistoryKey } from './HistoryChart';
import './history.css';

export interface HistoryPanelProps {
  profileId: string | null;
  vendor: string;
  endpoints: readonly EndpointSpec[];
  fromMs: number;
  toMs: number;
  /** A drag chose a span: the view shows it as a custom range. */
  onZoom(range: { fromMs: number; toMs: number }): void;
  /** Double-click: back to the chosen preset. */
  onReset(): void;
}

/** The history changes at most once a minute (the store rolls seconds up each minute). */
const REFRESH_MS = 60_000;

/** "15:37" today, "Nov 26, 2026, 14:00" before. */
function sinceLabel(ms: number): string {
  return new Date(ms).toDateString() === new Date().toDateString() ? fmtClockMinutes(ms) : fmtDateTime(ms);
}

export default function HistoryPanel({ profileId, vendor, endpoints, fromMs, toMs, onZoom, onReset }: HistoryPanelProps) {
  const api = useApi();
  const query = useQuery({
    queryKey: ['usageHistory', profileId, vendor, fromMs, toMs],
    // The fitted span is read again at its own (finer) points: 10 minutes in 6 h would be ten 1-minute points.
    queryFn: () => readFitted((range) => api.usageHistory({ ...(profileId ? { profileId } : {}), vendor, ...range }), { fromMs, toMs }),
    refetchInterval: REFRESH_MS,
    placeholderData: keepPreviousData,
  });
  if (query.isPending) return <Loading label="Reading the usage history…" />;
  if (query.isError) return <ErrorCallout error={query.error} action="Reading the usage history" onRetry={() => void query.refetch()} />;
  const { history, fitted } = query.data;
  if (history.problem) return <div className="state state-empty">{history.problem}</div>;
  const firstPoint = history.points[0]?.startMs ?? history.fromMs;
  const shown = new Set(endpoints.map((e) => e.id));
  const rows = summarize(history).filter((r) => shown.has(r.endpoint as EndpointId));
  const span = `${fmtDateTime(history.fromMs)} – ${fmtDateTime(history.toMs)}`;

  if (rows.length === 0) {
    return (
      <div className="state state-empty" role="status">
        <strong>No usage history for {span}.</strong>
        <div className="muted">The app records usage while it is connected to {vendor}; nothing was recorded for the shown endpoints in this range.</div>
      </div>
    );
  }
  return (
    <>
      <div className="panel table-wrap">
        <table className="table table-compact history-summary" aria-label="Usage per endpoint over the range">
          <thead>
            <tr>
              <th>Endpoint</th>
              <th className="num">Requests</th>
              <th className="num" title="Requests per second over the seconds that had requests (idle time left out, as in Mean use)">
                Mean req/s
              </th>
              <th
                className="num"
                title={`The busiest point's mean rate (${bucketLabel(history.bucketMs)}): a peak inside a long point is averaged out; Peak use keeps it`}
              >
                Peak req/s
              </th>
              <th
                className="num"
                title="Use of the whole budget, as the live table's utilisation: per second with requests, the share of the limit served to this app plus the other consumers' requests, averaged; this app's part beside it (ours); * the older per-answer measure"
              >
                Mean use
              </th>
              <th className="num" title="The highest share of the limit in use that any answer reported (its lowest Remaining), whatever the point length">
                Peak use
              </th>
              <th className="num">429s</th>
              <th className="num" title="Requests of other consumers of the vendor, inferred from Remaining">
                Others'
              </th>
              <th className="num">Lowest Remaining</th>
              <th className="num" title="Mean wait for budget per request over the range">
                Mean wait
              </th>
              <th className="num" title="95% of requests were in points whose mean wait was at most this">
                p95 wait
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.endpoint} data-endpoint={r.endpoint}>
                <th scope="row">
                  <span className="swatch" style={{ background: ENDPOINT_COLORS[r.endpoint as EndpointId] }} aria-hidden="true" />{' '}
                  <EndpointName endpoint={r.endpoint} />
                </th>
                <td className="num">{fmtInt(r.requests)}</td>
                <td className="num">{fmtRate(r.meanRate)}</td>
                <td className="num">{fmtRate(r.peakRate)}</td>
                <td className="num">
                  {fmtUseWithOurs(r.meanUse, r.meanUseOurs)}
                  {r.meanUseOlder ? (
                    <span title="The range holds rows stored before the per-second measure: alone they give the older per-answer mean, beside newer rows they are left out">
                      *
                    </span>
                  ) : null}
                </td>
                <td className={r.peakUse !== null && r.peakUse >= WARN_SHARE ? 'num text-warn strong' : 'num'}>{fmtPercent(r.peakUse)}</td>
                <td className={r.throttled > 0 ? 'num text-danger strong' : 'num'}>{fmtInt(r.throttled)}</td>
                <td className="num">{fmtInt(r.foreignRequests)}</td>
                <td className="num">{fmtInt(r.lowestRemaining)}</td>
                <td className="num">{fmtMs(r.waitMeanMs)}</td>
                <td className="num">{fmtMs(r.waitP95Ms)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted small history-note">
        {fitted ? (
          <>
            <strong>Data since {sinceLabel(firstPoint)} (the charts start there).</strong>{' '}
          </>
        ) : null}
        {span}, {bucketLabel(history.bucketMs)} ({history.level === 'second' ? 'per-second' : history.level === 'minute' ? 'per-minute' : 'per-hour'} records).
        Drag across a chart to zoom in; double-click to go back.
      </p>
      <HistoryKey others={rows.some((r) => r.foreignRequests > 0)} />
      <div className="chart-grid history-grid">
        {endpoints.map((spec) => (
          <HistoryChart key={spec.id} spec={spec} history={history} onZoom={onZoom} onReset={onReset} />
        ))}
      </div>
    </>
  );
}

/** "POST /purchase/validate-purchase-before-payment", wrapping where narrow; an endpoint the app does not know by its id. */
function EndpointName({ endpoint }: { endpoint: string }) {
  const spec = ENDPOINTS[endpoint as EndpointId] as EndpointSpec | undefined;
  if (!spec) return <>{endpoint}</>;
  return (
    <>
      <span className="method">{spec.method}</span> <EndpointPath path={spec.path} />
    </>
  );
}
