/**
 * The Budget view's history ranges (lazy: recharts stays out of the first chunk): a summary per
 * endpoint and one recharts panel per endpoint from the stored usage history. Drag across any chart
 * to zoom all of them to that span (a custom range); double-click a chart to go back. Where the data
 * starts well into the range, the axes start with it (read again at the finer points that span gets).
 */
import { useQuery, keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { Area, Bar, CartesianGrid, ComposedChart, Line, ReferenceArea, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { UsageHistory } from '../../../../shared/bridge/usage-schemas';
import type { EndpointId, EndpointSpec } from '../../../../shared/endpoints';
import { ENDPOINTS } from '../../../../shared/endpoints';
import { useApi } from '../../api/context';
import { ErrorCallout, Loading } from '../../components/states';
import { fmtClockMinutes, fmtDateTime, fmtInt, fmtMs, fmtPercent, fmtRate, fmtUseWithOurs } from '../../lib/format';
import { chartMoment, chartTick } from '../../lib/chart-time';
import { ENDPOINT_COLORS, WARN_SHARE } from './budget-model';
import type { ChartPoint } from '../../../../shared/usage-history-model';
import { bucketLabel, chartSeries, MIN_ZOOM_MS, readFitted, summarize } from '../../../../shared/usage-history-model';
import { EndpointPath } from './EndpointPath';
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

function HistoryChart({ spec, history, onZoom, onReset }: { spec: EndpointSpec; history: UsageHistory; onZoom: HistoryPanelProps['onZoom']; onReset(): void }) {
  const data = chartSeries(history, spec.id);
  const color = ENDPOINT_COLORS[spec.id];
  const total429 = data.reduce((n, p) => n + p.throttled, 0);
  const peak = data.reduce((m, p) => Math.max(m, p.peakPct ?? 0), 0);
  const othersTotal = data.reduce((n, p) => n + p.othersRate, 0);
  const rateTop = Math.ceil(Math.max(spec.limit, ...data.map((p) => p.rate + p.othersRate)));
  const [drag, setDrag] = useState<{ from: number; to: number } | null>(null);
  const spanMs = history.toMs - history.fromMs;
  const tickLabel = (t: number) => chartTick(t, spanMs);
  const endDrag = () => {
    if (drag) {
      const from = Math.min(drag.from, drag.to);
      const to = Math.max(drag.from, drag.to) + history.bucketMs;
      if (to - from >= MIN_ZOOM_MS && Math.abs(drag.to - drag.from) > 0) onZoom({ fromMs: from, toMs: to });
    }
    setDrag(null);
  };
  return (
    <section className="panel chart-panel" id={`history-${spec.id}`} aria-label={`${spec.label} history`} onDoubleClick={onReset}>
      <header className="chart-head">
        <span className="swatch" style={{ background: color }} aria-hidden="true" />
        <span className="chart-title">
          <span className="method">{spec.method}</span> <EndpointPath path={spec.path} />
        </span>
        <span className="chart-meta">
          peak use {peak > 0 ? `${Math.round(peak)}%` : '—'}
          {total429 > 0 ? <span className="text-danger strong"> · {fmtInt(total429)} × 429</span> : null}
          {othersTotal > 0 ? <span className="history-others"> · others (about)</span> : null}
        </span>
      </header>
      {/* The axis's ends (ms), for the specs that drag across it. */}
      <div className="history-chart" data-testid={`history-chart-${spec.id}`} data-axis-from={history.fromMs} data-axis-to={history.toMs - history.bucketMs}>
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart
            data={data}
            margin={{ top: 6, right: 4, bottom: 0, left: 0 }}
            onMouseDown={(e) => {
              const t = Number(e?.activeLabel);
              if (Number.isFinite(t)) setDrag({ from: t, to: t });
            }}
            onMouseMove={(e) => {
              const t = Number(e?.activeLabel);
              if (drag && Number.isFinite(t)) setDrag({ ...drag, to: t });
            }}
            onMouseUp={endDrag}
            onMouseLeave={() => setDrag(null)}
          >
            <CartesianGrid stroke="var(--chart-grid)" vertical={false} />
            <XAxis
              dataKey="t"
              type="number"
              scale="time"
              domain={[history.fromMs, history.toMs - history.bucketMs]}
              tickFormatter={tickLabel}
              tick={{ fontSize: 10, fill: 'var(--text-muted)' }}
              stroke="var(--border)"
              minTickGap={28}
            />
            {/* The rate axis runs to the limit (or past it, where the estimate says the vendor went over), and its
                right-hand twin reads the same height as a share of it: 100% is the limit line. */}
            <YAxis
              yAxisId="rate"
              domain={[0, rateTop]}
              tick={{ fontSize: 10, fill: 'var(--text-muted)' }}
              stroke="var(--border)"
              width={34}
              allowDecimals={false}
            />
            <YAxis
              yAxisId="pct"
              orientation="right"
              domain={[0, (rateTop / spec.limit) * 100]}
              ticks={[0, 50, 100]}
              tickFormatter={(v: number) => `${v}%`}
              tick={{ fontSize: 10, fill: 'var(--text-muted)' }}
              stroke="var(--border)"
              width={34}
            />
            <ReferenceLine
              yAxisId="rate"
              y={spec.limit}
              stroke="var(--text-muted)"
              strokeDasharray="4 3"
              label={{ value: `limit ${spec.limit}/s`, position: 'insideTopLeft', fontSize: 10, fill: 'var(--text-muted)' }}
            />
            {/* Areas, not a bar per point: hundreds of one-pixel bars read as a barcode. Others' use stacks on ours, so the
                height of the two is the vendor's whole use against the limit. */}
            <Area
              yAxisId="rate"
              stackId="use"
              type="linear"
              dataKey="rate"
              name="this app, req/s"
              stroke={color}
              strokeWidth={1}
              fill={color}
              fillOpacity={0.45}
              isAnimationActive={false}
            />
            <Area
              yAxisId="rate"
              stackId="use"
              type="linear"
              dataKey="othersRate"
              name="others (about), req/s"
              stroke="var(--chart-others)"
              strokeWidth={1}
              strokeDasharray="3 2"
              fill="var(--chart-others)"
              fillOpacity={0.3}
              isAnimationActive={false}
            />
            <Line
              yAxisId="pct"
              dataKey="peakPct"
              name="peak use"
              stroke="var(--text)"
              strokeWidth={1.2}
              dot={false}
              connectNulls={false}
              isAnimationActive={false}
            />
            <Bar yAxisId="rate" dataKey="throttled" name="429s" fill="var(--danger)" isAnimationActive={false} />
            {drag ? (
              <ReferenceArea yAxisId="rate" x1={Math.min(drag.from, drag.to)} x2={Math.max(drag.from, drag.to)} fill="var(--accent)" fillOpacity={0.15} />
            ) : null}
            <Tooltip
              isAnimationActive={false}
              labelFormatter={(t) => chartMoment(Number(t), spanMs)}
              formatter={tooltipValue}
              contentStyle={{ background: 'var(--surface)', border: '1px solid var(--border)', fontSize: 12 }}
            />
          </ComposedChart>
        </ResponsiveContainer>
      </div>
    </section>
  );
}

function tooltipValue(value: unknown, name: unknown, item: { payload?: ChartPoint }): [string, string] {
  const label = String(name);
  const p = item.payload;
  if (label === 'others (about), req/s') return [`about ${fmtRate(Number(value))}`, label];
  if (label === 'this app, req/s')
    return [
      `${fmtRate(Number(value))}${p && p.lowestRemaining !== null ? ` (lowest Remaining ${fmtInt(p.lowestRemaining)}, mean wait ${fmtMs(p.waitMeanMs)})` : ''}`,
      label,
    ];
  if (label === '429s') return [fmtInt(Number(value)), label];
  return [value === null || value === undefined ? '—' : `${Math.round(Number(value))}%`, label];
}
