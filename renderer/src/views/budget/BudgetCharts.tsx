/**
 * Live charts, one panel per endpoint (Grafana-style small multiples), each redrawn once per second.
 * The plots take turns (staggered just after a second settles) so that no single task redraws all ten;
 * a panel's header shows the table row's own figures, so the two never disagree.
 * The time axis spans the range, or only the time the app has data for when that is shorter (it fills
 * in as time passes), and says so.
 */
import { memo, useCallback, useMemo, useState } from 'react';
import type { EndpointSpec } from '../../../../shared/endpoints';
import { ENDPOINT_IDS } from '../../../../shared/endpoints';
import { fmtRate } from '../../lib/format';
import type { BudgetSeconds } from '../../live/budget-seconds';
import type { ChartSeries, EndpointRow, FleetCounts } from './budget-model';
import type { FleetUse } from '../../api/fleet-use';
import { chartSeries, completeBefore, ENDPOINT_COLORS, SETTLE_MS } from './budget-model';
import { AVERAGE_WINDOW_S, averageCaption } from './averaging-window';
import { useAlignedNow } from '../../live/settled-clock';
import { LiveChart } from './LiveChart';
import { EndpointPath } from './EndpointPath';
import { AlertMarker } from '../alerts/AlertMarker';
import { heldBackNote } from './wait-causes-words';

const TICK_MS = 1000;
/** The plots redraw one after another this far apart, from the moment a second settles. */
const STAGGER_MS = 40;
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
  /** The table's rows: each panel's header shows its row's figures (one source for both). */
  rows: readonly EndpointRow[];
  /** The moment the rows were read at. */
  rowsAt: number;
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

export function BudgetCharts({
  store,
  vendor,
  endpoints,
  rangeMs,
  frozenAt,
  focused,
  dataSince,
  showRemaining,
  fleet = null,
  rows,
  rowsAt,
}: BudgetChartsProps) {
  // One panel at a time expands to the grid's width (click its plot or its button, or Enter on the button; Esc closes).
  const [expanded, setExpanded] = useState<string | null>(null);
  const toggle = useCallback((id: string) => {
    setExpanded((cur) => (cur === id ? null : id));
    requestAnimationFrame(() => document.getElementById(`chart-${id}`)?.scrollIntoView({ block: 'nearest' }));
  }, []);
  // Kept while the counts are the same object: a new one each render would redraw every plot at every table tick.
  const fleetCounts = useMemo(() => new Map(ENDPOINT_IDS.map((id) => [id, fleetCountsOf(fleet, id)])), [fleet]);
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
          phaseMs={i * STAGGER_MS}
          focused={focused === spec.id}
          dataSince={dataSince}
          showRemaining={showRemaining}
          fleet={fleetCounts.get(spec.id) ?? null}
          expanded={expanded === spec.id}
          onToggle={toggle}
          row={rows.find((r) => r.spec.id === spec.id) ?? null}
          rowsEnd={completeBefore(rowsAt)}
        />
      ))}
    </div>
  );
}

function fleetCountsOf(fleet: FleetUse | null, endpoint: string): FleetCounts | null {
  const e = fleet?.endpoints.find((x) => x.endpoint === endpoint);
  return fleet && e ? { fromMs: fleet.fromMs, granted: e.granted } : null;
}

/** The panel header's rate caption: the view's one averaging window, as the series carries it. */
export function panelRateCaption(series: Pick<ChartSeries, 'windowS'>): string {
  return `${averageCaption(series.windowS)}:`;
}

interface PlotProps {
  store: BudgetSeconds;
  vendor: string;
  spec: EndpointSpec;
  rangeMs: number;
  frozenAt: number | null;
  phaseMs: number;
  dataSince: number | null;
  showRemaining: boolean;
  fleet: FleetCounts | null;
  expanded: boolean;
  onToggle(id: string): void;
}

/** A panel's plot: redrawn once a second, `phaseMs` after the second settles (the table moved to it then). */
const PanelPlot = memo(function PanelPlot({ store, vendor, spec, rangeMs, frozenAt, phaseMs, dataSince, showRemaining, fleet, expanded, onToggle }: PlotProps) {
  const now = useAlignedNow(TICK_MS, SETTLE_MS, { delayMs: phaseMs, frozenAt });
  const series = chartSeries(store, vendor, spec, now, rangeMs, undefined, fleet);
  const to = series.end;
  return (
    <LiveChart
      series={series}
      color={ENDPOINT_COLORS[spec.id]}
      from={axisFrom(to, rangeMs, dataSince)}
      to={to}
      label={`Requests per second of ${spec.label}`}
      showRemaining={showRemaining}
      height={expanded ? EXPANDED_HEIGHT : PANEL_HEIGHT}
      onPlotClick={() => onToggle(spec.id)}
    />
  );
});

const ChartPanel = memo(function ChartPanel({
  focused,
  row,
  rowsEnd,
  ...plot
}: PlotProps & {
  focused: boolean;
  /** The endpoint's table row (null: none yet): the header's figures. */
  row: EndpointRow | null;
  /** End of the last complete second the row was read at. */
  rowsEnd: number;
}) {
  const { store, vendor, spec, expanded, onToggle } = plot;
  const heldNote = heldBackNote(store, vendor, spec.id, rowsEnd, AVERAGE_WINDOW_S);
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
        <span className="swatch" style={{ background: ENDPOINT_COLORS[spec.id] }} aria-hidden="true" />
        <span className="chart-title">
          <span className="method">{spec.method}</span> <EndpointPath path={spec.path} />
          <AlertMarker endpoint={spec.id} />
        </span>
        <span className="chart-meta" title={`Average of the last ${AVERAGE_WINDOW_S} complete seconds, as in the table`}>
          <span className="muted">{panelRateCaption({ windowS: AVERAGE_WINDOW_S })}</span> {fmtRate(row?.rps ?? null)} / {row?.limit ?? spec.limit} req/s
          {row && row.rateLimited > 0 ? <span className="text-danger strong"> · {row.rateLimited} × 429</span> : null}
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
      <PanelPlot {...plot} />
    </section>
  );
});
