/** One asset: its fields, its history (a chart where prices are numeric), and the purchase actions for it. */
import { lazy, Suspense } from 'react';
import type { Asset } from '../../../../shared/catalog';
import { useAssetHistory } from '../../api/queries';
import { Empty, ErrorCallout, Loading } from '../../components/states';
import { DASH, fmtDateTime, fmtInt, fmtPrice } from '../../lib/format';
import { PurchaseActions } from '../purchases/PurchaseActions';

const PriceChart = lazy(() => import('./PriceChart'));

const SHOWN_FIRST = ['id', 'title', 'category', 'price', 'currency'];

function show(v: unknown): string {
  if (v === null || v === undefined || v === '') return DASH;
  if (Array.isArray(v)) return v.map(String).join(', ') || DASH;
  if (typeof v === 'object') return JSON.stringify(v);
  if (typeof v === 'number') return Number.isInteger(v) ? fmtInt(v) : String(v);
  return String(v);
}

export function AssetDetail({ asset, categoryName, onClose }: { asset: Asset; categoryName: string | null; onClose: () => void }) {
  const history = useAssetHistory(asset.id);
  const entries = history.data?.items ?? [];
  const priced = entries.filter((e) => typeof e.price === 'number' && !Number.isNaN(Date.parse(e.at)));
  const rest = Object.entries(asset).filter(([k]) => !SHOWN_FIRST.includes(k));

  return (
    <aside className="panel detail" aria-label={`Asset ${String(asset.id)}`}>
      <header className="detail-head">
        <div>
          <div className="muted small mono">Asset {String(asset.id)}</div>
          <h2 className="detail-title">{asset.title ?? `Asset ${String(asset.id)}`}</h2>
        </div>
        <button type="button" className="btn btn-ghost" onClick={onClose} aria-label="Close asset details">
          ✕
        </button>
      </header>

      <dl className="kv">
        <div className="kv-row">
          <dt>Category</dt>
          <dd>{categoryName ?? DASH}</dd>
        </div>
        <div className="kv-row">
          <dt>Price</dt>
          <dd>{fmtPrice(asset.price, asset.currency)}</dd>
        </div>
        {rest.map(([k, v]) => (
          <div key={k} className="kv-row">
            <dt>{k.replace(/_/g, ' ')}</dt>
            <dd>{k.endsWith('_at') && typeof v === 'string' ? fmtDateTime(v) : show(v)}</dd>
          </div>
        ))}
      </dl>

      <h3 className="detail-section">Purchase</h3>
      <PurchaseActions assetId={asset.id} assetTitle={asset.title ?? null} />

      <h3 className="detail-section">History</h3>
      {history.isPending ? (
        <Loading label="Loading history…" />
      ) : history.isError ? (
        <ErrorCallout error={history.error} onRetry={() => void history.refetch()} />
      ) : entries.length === 0 ? (
        <Empty title="No history for this asset." />
      ) : (
        <>
          {priced.length >= 2 ? (
            <Suspense fallback={<Loading label="Loading chart…" />}>
              <PriceChart entries={priced} currency={typeof asset.currency === 'string' ? asset.currency : null} />
            </Suspense>
          ) : null}
          <table className="table table-compact" aria-label="Asset history">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Event</th>
                <th scope="col" className="num">
                  Price
                </th>
                <th scope="col" className="num">
                  Version
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e, i) => (
                <tr key={i}>
                  <td className="muted">{fmtDateTime(e.at)}</td>
                  <td>{e.event}</td>
                  <td className="num">{fmtPrice(e.price, asset.currency)}</td>
                  <td className="num">{show(e.version)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </aside>
  );
}
