/**
 * One endpoint's history chart (recharts) and the key the history charts share. This app's requests/s
 * and other consumers' (stacked areas) read against the limit on the left axis; peak use is a share of
 * the limit on the right axis (100% is the limit line); 429s are marks on the time axis, as on the live
 * charts: counts drawn as bars on the req/s axis read as a rate.
 */
import { useState } from 'react';
import { Area, CartesianGrid, ComposedChart, Line, ReferenceArea, ReferenceLine, ResponsiveContainer, Scatter, Tooltip, XAxis, YAxis } from 'recharts';
import type { UsageHistory } from '../../../../shared/bridge/usage-schemas';
import type { EndpointSpec } from '../../../../shared/endpoints';
import type { ChartPoint } from '../../../../shared/usage-history-model';
import { chartSeries, MIN_ZOOM_MS } from '../../../../shared/usage-history-model';
import { chartMoment, chartTick } from '../../lib/chart-time';
import { fmtInt, fmtMs, fmtRate } from '../../lib/format';
import { ENDPOINT_COLORS } from './budget-model';
import { EndpointPath } from './EndpointPath';

/** What the history charts draw, in words: the same row as the live charts' key. */
export function HistoryKey({ others }: { others: boolean }) {
  return (
    <div className="chart-key history-key muted small" aria-label="Chart key">
      <span className="key key-area" /> this app's requests/s{' '}
      {others ? (
        <>
          <span className="key key-others-flat" /> others (about: estimated from Remaining){' '}
        </>
      ) : null}
      <span className="key key-line" /> peak use, % of the limit (right axis) <span className="key key-limit-dashed" /> limit <span className="key key-429" />{' '}
      429s (hover for the count)
    </div>
  );
}

/** The point a 429 mark sits on: the time axis (rate 0) where the point had 429s, none elsewhere. */
export function withThrottleMarks(points: readonly ChartPoint[]): (ChartPoint & { mark429: number | null })[] {
  return points.map((p) => ({ ...p, mark429: p.throttled > 0 ? 0 : null }));
}

/** A diamond on the time axis, as the live charts mark 429s. */
function ThrottleMark(props: { cx?: number; cy?: number; payload?: ChartPoint }) {
  const { cx, cy, payload } = props;
  if (cx === undefined || cy === undefined || !Number.isFinite(cx) || !Number.isFinite(cy) || !payload || payload.throttled === 0) return <g />;
  return <path className="lc-429" d={`M${cx},${cy - 5}l4,4l-4,4l-4,-4z`} />;
}

export function HistoryChart({
  spec,
  history,
  onZoom,
  onReset,
}: {
  spec: EndpointSpec;
  history: UsageHistory;
  onZoom(range: { fromMs: number; toMs: number }): void;
  onReset(): void;
}) {
  const data = withThrottleMarks(chartSeries(history, spec.id));
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
            {/* Out of the tooltip (it would list the mark's time axis value): the hovered point's line gives the count. */}
            <Scatter yAxisId="rate" dataKey="mark429" name="429s" shape={ThrottleMark} tooltipType="none" isAnimationActive={false} />
            {drag ? (
              <ReferenceArea yAxisId="rate" x1={Math.min(drag.from, drag.to)} x2={Math.max(drag.from, drag.to)} fill="var(--accent)" fillOpacity={0.15} />
            ) : null}
            <Tooltip
              isAnimationActive={false}
              labelFormatter={(t) => chartMoment(Number(t), spanMs)}
              formatter={tooltipValue}
              // Wrapped, not cut at the panel's edge: this app's line carries Remaining, wait and 429s.
              wrapperStyle={{ maxWidth: 230, zIndex: 2 }}
              contentStyle={{ background: 'var(--surface)', border: '1px solid var(--border)', fontSize: 12, whiteSpace: 'normal' }}
            />
          </ComposedChart>
        </ResponsiveContainer>
      </div>
    </section>
  );
}

/** The tooltip's lines: this app's line carries the point's lowest Remaining, mean wait and 429 count. */
export function tooltipValue(value: unknown, name: unknown, item: { payload?: ChartPoint }): [string, string] {
  const label = String(name);
  const p = item.payload;
  if (label === 'others (about), req/s') return [`about ${fmtRate(Number(value))}`, label];
  if (label === 'this app, req/s') {
    const more = [
      ...(p && p.lowestRemaining !== null ? [`lowest Remaining ${fmtInt(p.lowestRemaining)}`, `mean wait ${fmtMs(p.waitMeanMs)}`] : []),
      ...(p && p.throttled > 0 ? [`${fmtInt(p.throttled)} × 429`] : []),
    ];
    return [`${fmtRate(Number(value))}${more.length > 0 ? ` (${more.join(', ')})` : ''}`, label];
  }
  return [value === null || value === undefined ? '—' : `${Math.round(Number(value))}%`, label];
}
