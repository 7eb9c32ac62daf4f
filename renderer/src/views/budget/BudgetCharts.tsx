/** Live charts, one panel per endpoint (Grafana-style small multiples), redrawn once per second. */
import { memo } from 'react';
import type { EndpointSpec } from '../../../../shared/endpoints';
import { fmtRate } from '../../lib/format';
import type { BudgetStore } from '../../live/budget-store';
import { chartSeries, ENDPOINT_COLORS } from './budget-model';
import { LiveChart } from './LiveChart';

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

export function BudgetCharts({ store, version, vendor, endpoints, rangeMs, now, focused }: BudgetChartsProps) {
  return (
    <div className="chart-grid">
      {endpoints.map((spec) => (
        <ChartPanel key={spec.id} store={store} vendor={vendor} spec={spec} now={now} rangeMs={rangeMs} focused={focused === spec.id} version={version} />
      ))}
    </div>
  );
}

// Memoised on its inputs: the table ticks more often than the charts and should not redraw them.
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
  const series = chartSeries(store, vendor, spec, now, rangeMs);
  const color = ENDPOINT_COLORS[spec.id];
  const points = series.points;
  const last = points[points.length - 1];
  const from = points[0]?.t ?? now - rangeMs;
  const slot = points.length > 1 ? points[1]!.t - points[0]!.t : 1000;
  const to = (last?.t ?? now) + slot;
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
      <LiveChart series={series} color={color} from={from} to={to} label={`Requests per second and remaining budget of ${spec.label}`} />
    </section>
  );
});
