/**
 * Live charts, one panel per endpoint (Grafana-style small multiples), each redrawn once per second.
 * The panels take turns (staggered across the second) so that no single task redraws all ten.
 * The time axis spans the range, or only the time the app has data for when that is shorter (it fills
 * in as time passes), and says so.
 */
import { memo, useCallback, useEffect, useState } from 'react';
import type { EndpointSpec } from '../../../../shared/endpoints';
import { fmtRate } from '../../lib/format';
import type { BudgetSeconds } from '../../live/budget-seconds';
import type { ChartSeries, FleetCounts } from './budget-model';
import type { FleetUse } from '../../api/fleet-use';
import { chartSeries, ENDPOINT_COLORS } from './budget-model';
import { averageCaption } from './averaging-window';
import { LiveChart } from './LiveChart';
import { AlertMarker } from '../alerts/AlertMarker';
import { heldBackNote } from './wait-causes-words';

const TICK_MS = 1000;
/** A panel's plot height, and an expanded one's. */
const PANEL_HEIGHT = 150;
const EXPANDED_HEIGHT = 380;
/** The axis spans at least this much, however little data there is yet. */
const MIN_SPAN_MS = 60_000;

export interface BudgetChartsProps {
  store: BudgetSeconds;
  vendor: string;
  endpoints: readonly EndpointSpec[];
  rangeMs: number;
  /** When paused: the moment the charts froze at. */
  frozenAt: number | null;
  focused: string | null;
  /** The oldest second the app has data for (any endpoint of the vendor); null: none. */
  dataSince: number | null;
  /** Draw each panel's lowest Remaining on a strip under it. */
  showRemaining: boolean;
  /** The fleet's counts where a Redis store counts it (its other workers are drawn exactly); null: none. */
  fleet?: FleetUse | null;
}

/**
 * Start of the time axis: the range, or the time the app has data for when that is shorter (at least
 * a minute); every panel uses the same one, so that their crosshairs line up.
 */
export function axisFrom(to: number, rangeMs: number, dataSince: number | null): number {
  const rangeFrom = to - rangeMs;
  if (dataSince === null || dataSince <= rangeFrom) return rangeFrom;
  return Math.max(rangeFrom, Math.min(dataSince, to - MIN_SPAN_MS));
}

export function BudgetCharts({ store, vendor, endpoints, rangeMs, frozenAt, focused, dataSince, showRemaining, fleet = null }: BudgetChartsProps) {
  // One panel at a time expands to the grid's width (click its plot or its button, or Enter on the button; Esc closes).
  const [expanded, setExpanded] = useState<string | null>(null);
  const toggle = useCallback((id: string) => {
    setExpanded((cur) => (cur === id ? null : id));
    requestAnimationFrame(() => document.getElementById(`chart-${id}`)?.scrollIntoView({ block: 'nearest' }));
  }, []);
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
          dataSince={dataSince}
          showRemaining={showRemaining}
          fleet={fleetCountsOf(fleet, spec.id)}
          expanded={expanded === spec.id}
          onToggle={toggle}
        />
      ))}
    </div>
  );
}

function fleetCountsOf(fleet: FleetUse | null, endpoint: string): FleetCounts | null {
  const e = fleet?.endpoints.find((x) => x.endpoint === endpoint);
  return fleet && e ? { fromMs: fleet.fromMs, granted: e.granted } : null;
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

/** The panel header's rate caption: the view's one averaging window, as the series carries it. */
export function panelRateCaption(series: Pick<ChartSeries, 'windowS'>): string {
  return `${averageCaption(series.windowS)}:`;
}

const ChartPanel = memo(function ChartPanel({
  store,
  vendor,
  spec,
  rangeMs,
  frozenAt,
  phaseMs,
  focused,
  dataSince,
  showRemaining,
  fleet,
  expanded,
  onToggle,
}: {
  store: BudgetSeconds;
  vendor: string;
  spec: EndpointSpec;
  rangeMs: number;
  frozenAt: number | null;
  phaseMs: number;
  focused: boolean;
  dataSince: number | null;
  showRemaining: boolean;
  fleet: FleetCounts | null;
  expanded: boolean;
  onToggle(id: string): void;
}) {
  const now = usePhasedSecond(phaseMs, frozenAt);
  const series = chartSeries(store, vendor, spec, now, rangeMs, undefined, fleet);
  const color = ENDPOINT_COLORS[spec.id];
  const points = series.points;
  const last = points[points.length - 1];
  const to = series.end;
  const from = axisFrom(to, rangeMs, dataSince);
  const heldNote = heldBackNote(store, vendor, spec.id, to, series.windowS);
  return (
    <section
      className={['panel', 'chart-panel', focused ? 'chart-focused' : '', expanded ? 'chart-expanded' : ''].filter(Boolean).join(' ')}
      id={`chart-${spec.id}`}
      aria-label={`${spec.label} chart`}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && expanded) {
          e.stopPropagation();
          onToggle(spec.id);
        }
      }}
    >
      <header className="chart-head">
        <span className="swatch" style={{ background: color }} aria-hidden="true" />
        <span className="chart-title">
          <span className="method">{spec.method}</span> <span className="mono">{spec.path}</span>
          <AlertMarker endpoint={spec.id} />
        </span>
        <span className="chart-meta" title={`Average of the last ${series.windowS} complete seconds`}>
          <span className="muted">{panelRateCaption(series)}</span> {fmtRate(last?.rps ?? null)} / {series.limit} req/s
          {series.total429 > 0 ? <span className="text-danger strong"> · {series.total429} × 429</span> : null}
          <button
            type="button"
            className="chart-expand"
            aria-expanded={expanded}
            aria-label={expanded ? `Close the large view of ${spec.label}` : `Expand ${spec.label}`}
            title={expanded ? 'Back to the grid (Esc)' : 'Large view (Enter)'}
            onClick={() => onToggle(spec.id)}
          >
            {expanded ? '⤡' : '⤢'}
          </button>
        </span>
        {heldNote ? (
          <span className="chart-held-note" role="status" title={heldNote.full} aria-label={heldNote.full}>
            {heldNote.short}
          </span>
        ) : null}
      </header>
      <LiveChart
        series={series}
        color={color}
        from={from}
        to={to}
        label={`Requests per second of ${spec.label}`}
        showRemaining={showRemaining}
        height={expanded ? EXPANDED_HEIGHT : PANEL_HEIGHT}
        onPlotClick={() => onToggle(spec.id)}
      />
    </section>
  );
});
