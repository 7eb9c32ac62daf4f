/**
 * Live charts, one panel per endpoint (Grafana-style small multiples): requests per second against
 * the limit and the 80% warning line, the lowest Remaining per slot, and 429s marked on the time
 * axis. Panels share one tooltip position (syncId). Loaded lazily: recharts stays out of the first chunk.
 */
import { memo } from 'react';
import { Area, CartesianGrid, ComposedChart, Line, ReferenceLine, ResponsiveContainer, Scatter, Tooltip, XAxis, YAxis } from 'recharts';
import type { EndpointSpec } from '../../../../shared/endpoints';
import { fmtClock, fmtInt, fmtMs, fmtRate } from '../../lib/format';
import type { BudgetStore } from '../../live/budget-store';
import type { ChartPoint, ChartSeries } from './budget-model';
import { chartSeries, ENDPOINT_COLORS, WARN_SHARE } from './budget-model';

export interface BudgetChartsProps {
  store: BudgetStore;
  /** Changes whenever the buffers did (throttled); panels re-render only then. */
  version: number;
  vendor: string;
  endpoints: readonly EndpointSpec[];
  rangeMs: number;
  now: number;
  focused: string | null;
}

export default function BudgetCharts({ store, version, vendor, endpoints, rangeMs, now, focused }: BudgetChartsProps) {
  return (
    <div className="chart-grid">
      {endpoints.map((spec) => (
        <ChartPanel
          key={spec.id}
          store={store}
          vendor={vendor}
          spec={spec}
          now={now}
          rangeMs={rangeMs}
          focused={focused === spec.id}
          version={version}
        />
      ))}
    </div>
  );
}

function tickTime(ms: number): string {
  return fmtClock(ms);
}

interface TooltipProps {
  active?: boolean;
  payload?: ReadonlyArray<{ payload?: unknown }>;
  label?: string | number;
}

function ChartTooltip({ active, payload, label }: TooltipProps) {
  if (!active || !payload || payload.length === 0) return null;
  const p = payload[0]?.payload as ChartPoint | undefined;
  if (!p) return null;
  return (
    <div className="chart-tooltip">
      <div className="chart-tooltip-time">{fmtClock(Number(label))}</div>
      <div>
        Req/s <strong>{fmtRate(p.rps)}</strong>
      </div>
      <div>
        Remaining (lowest) <strong>{fmtInt(p.remaining)}</strong>
      </div>
      {p.n429 > 0 ? (
        <div className="text-danger">
          429s <strong>{p.n429}</strong>
        </div>
      ) : null}
      {p.waitedMs > 0 ? <div>Waited {fmtMs(p.waitedMs)}</div> : null}
    </div>
  );
}

// Memoised on its inputs: the table ticks more often than the charts, and should not redraw them.
const ChartPanel = memo(function ChartPanel({
  store,
  vendor,
  spec,
  now,
  rangeMs,
  focused,
}: {
  store: BudgetStore;
  vendor: string;
  spec: EndpointSpec;
  now: number;
  rangeMs: number;
  focused: boolean;
  version: number;
}) {
  const series: ChartSeries = chartSeries(store, vendor, spec, now, rangeMs);
  const color = ENDPOINT_COLORS[spec.id];
  const top = Math.ceil(Math.max(series.limit * 1.25, series.maxRps * 1.05, 1));
  const last = series.points[series.points.length - 1];
  const first = series.points[0]?.t ?? 0;
  const end = (last?.t ?? 0) + (rangeMs / Math.max(1, series.points.length));
  return (
    <section className={focused ? 'panel chart-panel chart-focused' : 'panel chart-panel'} id={`chart-${spec.id}`} aria-label={`${spec.label} chart`}>
      <header className="chart-head">
        <span className="swatch" style={{ background: color }} aria-hidden="true" />
        <span className="chart-title">
          <span className="method">{spec.method}</span> <span className="mono">{spec.path}</span>
        </span>
        <span className="chart-meta">
          {fmtRate(last?.rps ?? null)} / {series.limit} req/s
          {series.total429 > 0 ? <span className="text-danger strong"> · {series.total429} × 429</span> : null}
        </span>
      </header>
      <div className="chart-body">
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart data={series.points} syncId="budget" syncMethod="value" margin={{ top: 6, right: 8, bottom: 0, left: -18 }}>
            <CartesianGrid stroke="var(--chart-grid)" vertical={false} />
            <XAxis
              dataKey="t"
              type="number"
              domain={[first, end]}
              scale="time"
              tickFormatter={tickTime}
              tick={{ fontSize: 10, fill: 'var(--text-muted)' }}
              stroke="var(--border)"
              minTickGap={40}
            />
            <YAxis domain={[0, top]} allowDecimals={false} tick={{ fontSize: 10, fill: 'var(--text-muted)' }} stroke="var(--border)" width={44} />
            <Tooltip content={ChartTooltip} isAnimationActive={false} cursor={{ stroke: 'var(--text-muted)', strokeDasharray: '3 3' }} />
            <ReferenceLine y={series.limit} stroke="var(--danger)" strokeWidth={1} ifOverflow="extendDomain" label={{ value: `limit ${series.limit}`, position: 'insideTopRight', fontSize: 10, fill: 'var(--danger)' }} />
            <ReferenceLine y={series.limit * WARN_SHARE} stroke="var(--warn)" strokeDasharray="4 3" label={{ value: '80%', position: 'insideBottomRight', fontSize: 10, fill: 'var(--warn)' }} />
            <Area
              dataKey="rps"
              name="Req/s"
              type="monotone"
              stroke={color}
              fill={color}
              fillOpacity={0.18}
              strokeWidth={1.5}
              isAnimationActive={false}
              connectNulls={false}
              dot={false}
              activeDot={false}
            />
            <Line
              dataKey="remaining"
              name="Remaining"
              type="stepAfter"
              stroke="var(--text-muted)"
              strokeWidth={1}
              strokeDasharray="2 2"
              dot={false}
              activeDot={false}
              isAnimationActive={false}
            />
            <Scatter dataKey="mark429" name="429" fill="var(--danger)" isAnimationActive={false} shape="diamond" />
          </ComposedChart>
        </ResponsiveContainer>
      </div>
    </section>
  );
});
