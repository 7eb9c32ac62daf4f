/**
 * Live charts, one panel per endpoint (Grafana-style small multiples), each redrawn once per second.
 * The panels take turns (staggered across the second) so that no single task redraws all ten.
 */
import { memo, useEffect, useState } from 'react';
import type { EndpointSpec } from '../../../../shared/endpoints';
import { fmtRate } from '../../lib/format';
import type { BudgetStore } from '../../live/budget-store';
import { chartSeries, ENDPOINT_COLORS } from './budget-model';
import { LiveChart } from './LiveChart';

const TICK_MS = 1000;

export interface BudgetChartsProps {
  store: BudgetStore;
  vendor: string;
  endpoints: readonly EndpointSpec[];
  rangeMs: number;
  /** When paused: the moment the charts froze at. */
  frozenAt: number | null;
  focused: string | null;
}

export function BudgetCharts({ store, vendor, endpoints, rangeMs, frozenAt, focused }: BudgetChartsProps) {
  return (
    <div className="chart-grid">
      {endpoints.map((spec, i) => (
        <ChartPanel
          key={spec.id}
          store={store}
          vendor={vendor}
          spec={spec}
          rangeMs={rangeMs}
          frozenAt={frozenAt}
          phaseMs={Math.floor((i * TICK_MS) / Math.max(1, endpoints.length))}
          focused={focused === spec.id}
        />
      ))}
    </div>
  );
}

/** The current whole second, refreshed every second at `phaseMs` into it; frozen when `frozenAt` is set. */
function usePhasedSecond(phaseMs: number, frozenAt: number | null): number {
  const [now, setNow] = useState(() => Math.floor(Date.now() / TICK_MS) * TICK_MS);
  useEffect(() => {
    if (frozenAt !== null) return;
    let timer: ReturnType<typeof setTimeout>;
    const schedule = () => {
      const t = Date.now();
      const next = Math.floor(t / TICK_MS) * TICK_MS + TICK_MS + phaseMs;
      timer = setTimeout(() => {
        setNow(Math.floor(Date.now() / TICK_MS) * TICK_MS);
        schedule();
      }, next - t);
    };
    setNow(Math.floor(Date.now() / TICK_MS) * TICK_MS);
    schedule();
    return () => clearTimeout(timer);
  }, [phaseMs, frozenAt]);
  return frozenAt ?? now;
}

const ChartPanel = memo(function ChartPanel({
  store,
  vendor,
  spec,
  rangeMs,
  frozenAt,
  phaseMs,
  focused,
}: {
  store: BudgetStore;
  vendor: string;
  spec: EndpointSpec;
  rangeMs: number;
  frozenAt: number | null;
  phaseMs: number;
  focused: boolean;
}) {
  const now = usePhasedSecond(phaseMs, frozenAt);
  const series = chartSeries(store, vendor, spec, now, rangeMs);
  const color = ENDPOINT_COLORS[spec.id];
  const points = series.points;
  const last = points[points.length - 1];
  const from = points[0]?.t ?? now - rangeMs;
  const slot = points.length > 1 ? points[1]!.t - points[0]!.t : TICK_MS;
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
