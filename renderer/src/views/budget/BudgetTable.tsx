import { useMemo } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import type { EndpointId } from '../../../../shared/endpoints';
import { DataTable } from '../../components/DataTable';
import { DASH, fmtInt, fmtMs, fmtPercent, fmtRate } from '../../lib/format';
import { Pill } from '../../components/Pill';
import type { EndpointRow } from './budget-model';
import { ENDPOINT_COLORS, ERROR_WARN_SHARE, RATE_WINDOW_S, WARN_SHARE, fleetRate } from './budget-model';
import type { FleetUse } from '../../api/fleet-use';
import { useActiveFleetUse } from '../../api/fleet-use';
import { AlertMarker } from '../alerts/AlertMarker';
import { heldBackWords } from './wait-causes-words';
import { bandOfUse, percentLabel, percentOf } from './use-bands';
import { EndpointPath } from './EndpointPath';

/** A row with the fleet's granted/s beside it (null: no counts, the store is unreachable). */
type BudgetRow = EndpointRow & { fleetRps: number | null };

/**
 * The whole budget's use over the rate window: this app's share (solid) and other consumers' (hatched, as
 * on the charts) side by side, coloured by the total's band (the Overview's scale); "94% (ours 6%)".
 */
function UtilisationBar({ row }: { row: EndpointRow }) {
  const band = bandOfUse(row.totalUse, row.recent429);
  const ours = Math.min(1, row.utilisation);
  const others = Math.max(0, row.totalUse - ours);
  const withOthers = percentOf(row.othersUse) >= 1;
  return (
    <div className="util" data-band={band}>
      <div className="util-track" aria-hidden="true">
        <div className={`util-fill util-${band}`} style={{ transform: `scaleX(${ours})` }} />
        {/* Clipped, not scaled: the hatching keeps its spacing (and no re-layout while it moves). */}
        <div className={`util-others util-${band}`} style={{ clipPath: `inset(0 ${(1 - ours - others) * 100}% 0 ${ours * 100}%)` }} />
        <div className="util-warn-mark" style={{ left: `${WARN_SHARE * 100}%` }} />
      </div>
      <span className="util-label">
        {percentLabel(row.totalUse)}
        {withOthers ? <span className="util-own"> (ours {percentLabel(ours)})</span> : null}
      </span>
    </div>
  );
}

/** The utilisation cell's tooltip: the parts of the figure in words. */
function utilisationTitle(r: EndpointRow): string {
  const others = r.othersUse > 0 ? `, other consumers about ${percentLabel(r.othersUse)} (estimated from the answers' headers)` : '';
  const refused = r.recent429 > 0 ? `; ${r.recent429} × 429 in these seconds: at the limit` : '';
  return `${percentLabel(r.totalUse)} of the limit used over the last ${RATE_WINDOW_S} complete seconds: this app ${percentLabel(r.utilisation)}${others}${refused}`;
}

function StateCell({ row }: { row: EndpointRow }) {
  if (row.reach === 'offline')
    return (
      <Pill tone="danger" title="The service does not answer: the figures are the last received">
        Offline
      </Pill>
    );
  if (row.reach === 'no-answer')
    return (
      <Pill tone="neutral" title="The service has not answered yet: no budget to show">
        No answer yet
      </Pill>
    );
  if (row.pausedForMs !== null)
    return (
      <Pill tone="danger" title="The client paused this bucket after a 429">
        Paused {fmtMs(row.pausedForMs)}
      </Pill>
    );
  if (row.queued > 0)
    return (
      <Pill tone="warn" title="Requests waiting for budget">
        Queued {row.queued}
      </Pill>
    );
  if (row.utilisation >= WARN_SHARE) return <Pill tone="warn">Busy</Pill>;
  if (row.rps > 0 || row.inFlight > 0) return <Pill tone="ok">Active</Pill>;
  return <Pill tone="neutral">Idle</Pill>;
}

/** A wait in ms like the rest of its column: "0 ms" for none, "<1 ms" below half a millisecond, "over 30 s" for the open last class. */
function fmtWait(ms: number | null): string {
  if (ms === null) return DASH;
  if (!Number.isFinite(ms)) return 'over 30 s';
  return ms >= 0.5 ? fmtMs(ms) : ms > 0 ? '<1 ms' : '0 ms';
}

/** The wait cell's tooltip: mean and p95, then why the requests were held back, in words. */
export function waitTitle(r: Pick<EndpointRow, 'wait' | 'heldMs' | 'waitCauses'>): string {
  const why = heldBackWords(r.heldMs, r.waitCauses);
  return `mean ${fmtWait(r.wait.meanMs)}, 95% waited at most ${fmtWait(r.wait.p95Ms)}${why ? `; ${why}` : ''}`;
}

/**
 * The columns, each with its figure from budget-model.ts. Ids are the cells' data-col (the e2e specs
 * read them); minimum widths and drop order keep all of them in view at 1024 px.
 */
function budgetColumns(rangeLabel: string, store: FleetUse['store'] | null): ColumnDef<BudgetRow, unknown>[] {
  const columns: ColumnDef<BudgetRow, unknown>[] = [
    {
      id: 'endpoint',
      header: 'Endpoint',
      accessorFn: (r) => r.spec.label,
      size: 360,
      // Room for the method and "/assets/categories"; a longer path (or one beside its alert mark) wraps after a "/" (EndpointPath).
      minSize: 236,
      enableHiding: false,
      meta: { rowHeader: true },
      cell: ({ row: { original: row } }) => (
        <span className="endpoint-cell">
          <span className="swatch" style={{ background: ENDPOINT_COLORS[row.spec.id] }} aria-hidden="true" />
          <span className="method">{row.spec.method}</span>
          <EndpointPath path={row.spec.path} />
          <AlertMarker endpoint={row.spec.id} />
        </span>
      ),
    },
    {
      id: 'limit',
      header: 'Limit',
      accessorFn: (r) => r.limit,
      size: 58,
      minSize: 58,
      meta: { numeric: true, headerTitle: 'X-Rate-Limit-Limit', dropOrder: 1 },
      cell: ({ row }) => fmtInt(row.original.limit),
    },
    {
      id: 'remaining',
      header: 'Remaining',
      accessorFn: (r) => r.remaining,
      size: 98,
      minSize: 98,
      meta: {
        numeric: true,
        cellClass: (r) => (r.remainingEstimated ? 'muted' : undefined),
        cellTitle: (r) => (r.remainingEstimated ? 'No request for a while: the budget has refilled since the last response' : undefined),
      },
      cell: ({ row: { original: r } }) => `${r.remainingEstimated ? '≈ ' : ''}${fmtInt(r.remaining)}`,
    },
    {
      id: 'utilisation',
      header: `Utilisation (${RATE_WINDOW_S}\u00a0s)`,
      accessorFn: (r) => r.totalUse,
      size: 170,
      minSize: 108,
      meta: {
        cellClass: () => 'col-util',
        headerTitle: `Share of the limit used over the last ${RATE_WINDOW_S} complete seconds: this app's (solid) and other consumers' (hatched, estimated from the answers' headers), coloured by the whole as on the Overview`,
        cellTitle: utilisationTitle,
      },
      cell: ({ row }) => <UtilisationBar row={row.original} />,
    },
    {
      id: 'rps',
      header: `Req/s (${RATE_WINDOW_S}\u00a0s)`,
      accessorFn: (r) => r.rps,
      size: 88,
      minSize: 88,
      meta: { numeric: true, headerTitle: `Requests per second, averaged over the last ${RATE_WINDOW_S} complete seconds` },
      cell: ({ row: { original: r } }) => (
        <>
          {fmtRate(r.rps)} <span className="muted">/ {r.limit}</span>
        </>
      ),
    },
    {
      id: '429s',
      header: '429s',
      accessorFn: (r) => r.rateLimited,
      size: 58,
      minSize: 58,
      meta: { numeric: true, headerTitle: `429 answers in the last ${rangeLabel}`, cellClass: (r) => (r.rateLimited > 0 ? 'text-warn strong' : undefined) },
      cell: ({ row }) => fmtInt(row.original.rateLimited),
    },
    {
      id: 'errors',
      header: 'Errors',
      accessorFn: (r) => r.errors,
      size: 64,
      minSize: 64,
      meta: {
        numeric: true,
        // Dropped after Held back and Limit at a narrow width: errors matter more than the limit repeated.
        dropOrder: 0.5,
        headerTitle: `Errors in the last ${rangeLabel}: answered 4xx other than 429, 5xx, and requests with no answer (share on hover)`,
        cellClass: (r) => (r.errorShare > ERROR_WARN_SHARE ? 'text-danger strong' : undefined),
        cellTitle: (r) => (r.errors > 0 ? `${fmtPercent(r.errorShare)} of ${fmtInt(r.requests)} requests failed` : undefined),
      },
      cell: ({ row }) => fmtInt(row.original.errors),
    },
    {
      id: 'waited',
      header: 'Wait',
      accessorFn: (r) => r.wait.meanMs ?? 0,
      size: 84,
      minSize: 78,
      meta: {
        numeric: true,
        headerTitle: `Wait for budget per request in the last ${rangeLabel}: mean (p95 and why on hover)`,
        cellTitle: (r) => (r.wait.meanMs === null ? undefined : waitTitle(r)),
      },
      cell: ({ row: { original: r } }) => fmtWait(r.wait.meanMs),
    },
    {
      id: 'held',
      header: 'Held back',
      accessorFn: (r) => r.wait.heldShare,
      size: 64,
      minSize: 64,
      meta: { numeric: true, dropOrder: 2, headerTitle: `Share of the last ${rangeLabel} in which requests were waiting for budget` },
      cell: ({ row: { original: r } }) => fmtPercent(r.wait.heldShare),
    },
    {
      id: 'refill',
      header: 'Refill in',
      accessorFn: (r) => r.resetInMs ?? -1,
      size: 90,
      minSize: 72,
      // The last to drop, after Errors: only where a Fleet column takes its room at 1024 px.
      meta: { numeric: true, dropOrder: 0.25, headerTitle: "Until the service's budget is full again" },
      cell: ({ row: { original: r } }) => (r.resetInMs !== null ? fmtMs(r.resetInMs) : DASH),
    },
    {
      id: 'state',
      header: 'State',
      accessorFn: (r) => r.queued,
      // The longest pill whole ("No answer yet", "Paused 1.03 s", "Queued 145"), the cell's right padding narrowed for it.
      size: 120,
      minSize: 118,
      enableHiding: false,
      cell: ({ row }) => <StateCell row={row.original} />,
    },
  ];
  // Only where the profile has a budget store: beside this app's own Req/s.
  if (store && store.kind !== 'none') columns.splice(columns.findIndex((c) => c.id === 'rps') + 1, 0, fleetColumn(store));
  return columns;
}

function fleetColumn(store: FleetUse['store']): ColumnDef<BudgetRow, unknown> {
  const down = store.state !== 'connected' ? `No counts: ${store.message ?? 'the store does not answer'}` : undefined;
  return {
    id: 'fleet',
    header: `Fleet/s (${RATE_WINDOW_S}\u00a0s)`,
    accessorFn: (r) => r.fleetRps ?? -1,
    size: 92,
    minSize: 92,
    meta: {
      numeric: true,
      headerTitle: `Slots the ${store.kind === 'machine' ? "machine's" : 'Redis'} budget store (${store.url ?? ''}) granted per second, every worker of the fleet counted (this app too), over the last ${RATE_WINDOW_S} complete seconds of the store's clock. Req/s beside it is this app's own.`,
      cellTitle: () => down,
    },
    cell: ({ row: { original: r } }) =>
      r.fleetRps === null ? (
        DASH
      ) : (
        <>
          {fmtRate(r.fleetRps)} <span className="muted">/ {r.limit}</span>
        </>
      ),
  };
}

export function BudgetTable({
  rows,
  rangeLabel,
  onOpen,
  selected = null,
}: {
  rows: EndpointRow[];
  rangeLabel: string;
  onOpen: (endpoint: EndpointId) => void;
  /** The endpoint a link opened the view at (#/budget/endpoint=<id>): its row is marked. */
  selected?: EndpointId | null;
}) {
  const fleet = useActiveFleetUse().data;
  const store = fleet?.store ?? null;
  // react-query keeps `store` the same object while it is unchanged: the columns are rebuilt only when it changes.
  const columns = useMemo(() => budgetColumns(rangeLabel, store), [rangeLabel, store]);
  const data = useMemo(() => {
    const granted = new Map(fleet?.store.state === 'connected' ? fleet.endpoints.map((e) => [e.endpoint, e.granted]) : []);
    return rows.map((r) => ({ ...r, fleetRps: fleetRate(granted.get(r.spec.id) ?? []) }));
  }, [rows, fleet]);
  return (
    <DataTable
      prefsKey="budget"
      label="Endpoint budgets"
      className="budget-table"
      data={data}
      columns={columns}
      getRowId={(r) => r.spec.id}
      onOpen={(r) => onOpen(r.spec.id)}
      selectedId={selected}
      rowProps={(r) => ({ 'data-endpoint': r.spec.id, 'aria-label': `${r.spec.label}: show chart` })}
    />
  );
}
