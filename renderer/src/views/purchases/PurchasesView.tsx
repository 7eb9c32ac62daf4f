/** The purchases made in this session, with their states, and the actions for the one selected. */
import { useSessionPurchases } from '../../api/queries';
import { Pill, purchaseTone } from '../../components/Pill';
import { Empty, ErrorCallout, Loading } from '../../components/states';
import { DASH, fmtDateTime, fmtPrice } from '../../lib/format';
import { navigate, routeHref } from '../../lib/hash-route';
import { PurchaseActions } from './PurchaseActions';

export default function PurchasesView({ purchaseParam }: { purchaseParam: string | null }) {
  const purchases = useSessionPurchases();
  const items = [...(purchases.data?.items ?? [])].sort((a, b) => b.updatedAt - a.updatedAt);
  const selected = items.find((p) => p.purchase.id === purchaseParam) ?? null;
  const open = (id: string) => navigate('purchases', id);
  const counts = items.reduce<Record<string, number>>((acc, p) => ((acc[p.purchase.state] = (acc[p.purchase.state] ?? 0) + 1), acc), {});

  return (
    <div className="view">
      <div className="view-head">
        <div>
          <h1 className="view-title">Purchases</h1>
          <p className="view-sub">
            Purchases made in this session.{' '}
            {Object.entries(counts)
              .map(([state, n]) => `${n} ${state}`)
              .join(' · ')}
          </p>
        </div>
      </div>
      <div className={selected ? 'split split-open' : 'split'}>
        <section className="panel" aria-label="Session purchases">
          {purchases.isPending ? (
            <Loading label="Loading purchases…" />
          ) : purchases.isError ? (
            <ErrorCallout error={purchases.error} onRetry={() => void purchases.refetch()} />
          ) : items.length === 0 ? (
            <Empty title="No purchases in this session yet.">
              Open an asset in the <a href={routeHref('catalog')}>Catalog</a> and register a purchase.
            </Empty>
          ) : (
            <div className="table-wrap">
              <table className="table" aria-label="Session purchases">
                <thead>
                  <tr>
                    <th scope="col">Purchase</th>
                    <th scope="col">Asset</th>
                    <th scope="col">State</th>
                    <th scope="col" className="num">
                      Price
                    </th>
                    <th scope="col">Reference</th>
                    <th scope="col">Updated</th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((p) => (
                    <tr
                      key={p.purchase.id}
                      tabIndex={0}
                      className="row-clickable"
                      aria-selected={p.purchase.id === purchaseParam}
                      onClick={() => open(p.purchase.id)}
                      onKeyDown={(e) => {
                        if (e.key === 'Enter' || e.key === ' ') {
                          e.preventDefault();
                          open(p.purchase.id);
                        }
                      }}
                    >
                      <td className="mono">{p.purchase.id}</td>
                      <td>
                        {p.assetTitle ?? DASH} <span className="muted mono small">#{String(p.purchase.asset_id)}</span>
                      </td>
                      <td>
                        <Pill tone={purchaseTone(p.purchase.state)}>{p.purchase.state}</Pill>
                      </td>
                      <td className="num">{fmtPrice(p.purchase.price, p.purchase.currency)}</td>
                      <td className="mono small muted cell-ellipsis" title={p.purchase.client_reference}>
                        {p.purchase.client_reference ?? DASH}
                      </td>
                      <td className="muted">{fmtDateTime(p.updatedAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
        {selected ? (
          <aside className="panel detail" aria-label={`Purchase ${selected.purchase.id}`}>
            <header className="detail-head">
              <div>
                <div className="muted small mono">Purchase {selected.purchase.id}</div>
                <h2 className="detail-title">{selected.assetTitle ?? `Asset ${String(selected.purchase.asset_id)}`}</h2>
              </div>
              <button type="button" className="btn btn-ghost" onClick={() => navigate('purchases')} aria-label="Close purchase details">
                ✕
              </button>
            </header>
            <PurchaseActions assetId={selected.purchase.asset_id} assetTitle={selected.assetTitle} purchaseId={selected.purchase.id} />
            <p className="muted small">
              <a href={routeHref('catalog', selected.purchase.asset_id)}>Open the asset in the Catalog</a>
            </p>
          </aside>
        ) : null}
      </div>
    </div>
  );
}
