/**
 * The purchase ledger of every session: unresolved registrations on top (with a lookup and "mark as
 * checked"), Find a purchase, then every record, filtered by vendor and state; the actions of the
 * one selected.
 */
import { createColumnHelper } from '@tanstack/react-table';
import type { ColumnDef } from '@tanstack/react-table';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { UNRESOLVED_STATES } from '../../../../shared/bridge/ledger-schemas';
import { sameVendorService } from '../../../../shared/vendor-key';
import { useApi } from '../../api/context';
import { keys, useConnection } from '../../api/queries';
import { sourceOf } from '../catalog/asset-source';
import { DataTable } from '../../components/DataTable';
import { Pill, purchaseTone } from '../../components/Pill';
import { Empty, ErrorCallout, Loading } from '../../components/states';
import { DASH, fmtDateTime } from '../../lib/format';
import { navigate, routeHref } from '../../lib/hash-route';
import { FindPurchase } from './FindPurchase';
import type { LedgerRecord } from './ledger-queries';
import { useLedger } from './ledger-queries';
import { ledgerFilterOf, STATE_TONES, STATE_WORDS, stateChoices } from './ledger-state-filter';
import type { StateFilter } from './ledger-state-filter';
import { PurchaseActions } from './PurchaseActions';
import { UnresolvedRecord } from './UnresolvedRecord';
import './purchases.css';

/** The route's param: a purchase id, or `#<ledger id>` for a record without one. */
const paramOf = (r: LedgerRecord): string => r.purchaseId ?? `#${r.id}`;

const col = createColumnHelper<LedgerRecord>();
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- TanStack's column type; cell values differ per column
const columns: ColumnDef<LedgerRecord, any>[] = [
  col.accessor((r) => r.purchaseId ?? '', {
    id: 'purchase',
    header: 'Purchase',
    size: 130,
    minSize: 90,
    cell: (c) => <span className="mono">{c.getValue() || DASH}</span>,
    meta: { rowHeader: true },
  }),
  col.accessor((r) => r.assetTitle ?? r.assetId, {
    id: 'asset',
    header: 'Asset',
    size: 260,
    minSize: 140,
    cell: (c) => (
      <>
        {c.row.original.assetTitle ?? DASH} <span className="muted mono small">#{c.row.original.assetId}</span>
      </>
    ),
  }),
  col.accessor('state', {
    header: 'State',
    size: 130,
    minSize: 110,
    cell: (c) => {
      const r = c.row.original;
      return r.state === 'registered' && r.purchaseState ? (
        <Pill tone={purchaseTone(r.purchaseStateKind ?? r.purchaseState)}>{r.purchaseState}</Pill>
      ) : (
        <Pill tone={STATE_TONES[r.state]} title={r.note ?? undefined}>
          {STATE_WORDS[r.state]}
        </Pill>
      );
    },
  }),
  col.accessor('vendor', { header: 'Vendor', size: 110, minSize: 70, meta: { dropOrder: 2, cellTitle: (r) => `${r.vendor} at ${r.baseUrl}` } }),
  col.accessor((r) => r.reference ?? '', {
    id: 'reference',
    header: 'Reference',
    size: 200,
    minSize: 100,
    cell: (c) => <span className="mono small muted">{c.getValue() || DASH}</span>,
    meta: { dropOrder: 1 },
  }),
  col.accessor('updatedAt', { header: 'Updated', size: 170, minSize: 130, cell: (c) => <span className="muted">{fmtDateTime(c.getValue())}</span> }),
];

/**
 * Demo traffic runs on the connected built-in demo: it registers purchases (tens a second) through the
 * client, never through the ledger, so the ledger stays empty beside a busy register endpoint. Asked only
 * while `asking` (the empty ledger shows), sharing the simulator state's cache with Settings.
 */
function useDemoTrafficRunning(asking: boolean): boolean {
  const api = useApi();
  const demo = useConnection().data?.demo === true;
  const sim = useQuery({ queryKey: keys.simState, queryFn: () => api.simState({}), enabled: asking && demo, staleTime: 1_000, refetchInterval: 2_000 });
  const traffic = sim.data?.demoTraffic;
  return demo && traffic !== undefined && traffic.share > 0 && traffic.endpoints.length > 0;
}

export default function PurchasesView({ purchaseParam }: { purchaseParam: string | null }) {
  const [filter, setFilter] = useState<{ vendor: string | null; state: StateFilter }>({ vendor: null, state: null });
  const [resolved, setResolved] = useState<string | null>(null);
  const ledger = useLedger({ vendor: filter.vendor, ...ledgerFilterOf(filter.state) });
  const connection = useConnection();
  const items = ledger.data?.items ?? [];
  const demoTraffic = useDemoTrafficRunning(ledger.isSuccess && items.length === 0);
  const unresolved = items.filter((r) => UNRESOLVED_STATES.includes(r.state));
  const selected = items.find((r) => paramOf(r) === purchaseParam) ?? null;
  const at = connection.data?.vendor != null && connection.data.baseUrl != null ? { vendor: connection.data.vendor, baseUrl: connection.data.baseUrl } : null;
  const elsewhere = selected !== null && (at === null || !sameVendorService(at, selected));
  // The connected profile at the record's service: its actions go there (and close when the connection moves on).
  const source = elsewhere ? null : sourceOf(connection.data);

  return (
    <div className="view">
      <div className="view-head">
        <div>
          <h1 className="view-title">Purchases</h1>
          <p className="view-sub">
            The purchase ledger: every registration made from this app, in every session.
            {ledger.data && ledger.data.unresolved > 0 ? ` ${ledger.data.unresolved} unresolved.` : ''}
          </p>
        </div>
      </div>
      {ledger.data?.problem ? (
        <div className="callout callout-error" role="alert">
          {ledger.data.problem}
        </div>
      ) : null}

      <FindPurchase />
      {resolved ? (
        <p className="callout" role="status">
          {resolved}
        </p>
      ) : null}

      {unresolved.length > 0 ? (
        <section className="unresolved-list" aria-label="Unresolved registrations">
          {unresolved.map((r) => (
            <UnresolvedRecord key={r.id} record={r} showAsset onResolved={setResolved} />
          ))}
        </section>
      ) : null}

      <div className={selected ? 'split split-open' : 'split'}>
        <section className="panel" aria-label="Purchase ledger">
          <div className="toolbar ledger-filters">
            <select
              className="input"
              aria-label="Vendor"
              value={filter.vendor ?? ''}
              onChange={(e) => setFilter({ ...filter, vendor: e.target.value || null })}
            >
              <option value="">All vendors</option>
              {(ledger.data?.vendors ?? []).map((v) => (
                <option key={v} value={v}>
                  {v}
                </option>
              ))}
            </select>
            <select className="input" aria-label="State" value={filter.state ?? ''} onChange={(e) => setFilter({ ...filter, state: e.target.value || null })}>
              <option value="">All states</option>
              <option value="unresolved">Unresolved</option>
              {stateChoices(ledger.data?.states ?? [], filter.state).map((word) => (
                <option key={word} value={word}>
                  {word}
                </option>
              ))}
            </select>
          </div>
          {ledger.isPending ? (
            <Loading label="Loading the purchase ledger…" />
          ) : ledger.isError ? (
            <ErrorCallout error={ledger.error} onRetry={() => void ledger.refetch()} />
          ) : items.length === 0 && !filter.vendor && !filter.state ? (
            <Empty title="No purchases yet.">
              {demoTraffic ? (
                <p className="demo-traffic-note" role="note">
                  Demo traffic&rsquo;s purchases are not recorded here: it registers them as test load, outside the ledger. Purchases you register appear here.
                </p>
              ) : null}
              Open an asset in the <a href={routeHref('catalog')}>Catalog</a> and register a purchase, or find one by its id above.
            </Empty>
          ) : (
            <DataTable
              prefsKey="purchases"
              label="Purchase ledger"
              data={items}
              columns={columns}
              getRowId={paramOf}
              selectedId={purchaseParam}
              onOpen={(r) => navigate('purchases', paramOf(r))}
              rowProps={(r) => ({ 'aria-label': `${r.purchaseId ? `Purchase ${r.purchaseId}` : `Registration ${r.reference ?? r.id}`}: open` })}
              empty="No record matches these filters."
            />
          )}
          {ledger.data?.more ? (
            <p className="muted small" role="note">
              Showing the newest {items.length} matching records (unresolved first); older ones are not listed. Filter by vendor or state to see them.
            </p>
          ) : null}
        </section>
        {selected ? (
          <aside
            className="panel detail"
            aria-label={selected.purchaseId ? `Purchase ${selected.purchaseId}` : `Registration ${selected.reference ?? selected.id}`}
          >
            <header className="detail-head">
              <div>
                <div className="muted small mono">{selected.purchaseId ? `Purchase ${selected.purchaseId}` : `Registration ${selected.reference ?? ''}`}</div>
                <h2 className="detail-title">{selected.assetTitle ?? `Asset ${selected.assetId}`}</h2>
                <div className="muted small">
                  {selected.vendor} at {selected.baseUrl}
                </div>
              </div>
              <button type="button" className="btn btn-ghost" onClick={() => navigate('purchases')} aria-label="Close purchase details">
                ✕
              </button>
            </header>
            {source === null ? (
              <p className="callout">
                This purchase belongs to vendor {selected.vendor} at {selected.baseUrl}. Connect to that profile (Settings) to act on it.
              </p>
            ) : (
              <PurchaseActions assetId={selected.assetId} assetTitle={selected.assetTitle} source={source} purchaseId={selected.purchaseId ?? undefined} />
            )}
            {selected.note ? <p className="muted small">{selected.note}</p> : null}
            <p className="muted small">
              <a href={routeHref('catalog', selected.assetId)}>Open the asset in the Catalog</a>
            </p>
          </aside>
        ) : null}
      </div>
    </div>
  );
}
