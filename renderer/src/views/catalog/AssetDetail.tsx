/**
 * One asset: the named fields, every other field the service sent (objects in the JSON viewer), its
 * history (a chart where prices are numeric), and the purchase actions for it.
 */
import { lazy, Suspense } from 'react';
import type { Ref } from 'react';
import { useAssetHistory } from '../../api/queries';
import { JsonViewer } from '../../components/JsonViewer';
import { ReadNotice } from '../../components/ReadNotice';
import { Empty, ErrorCallout, Loading } from '../../components/states';
import { DASH, fmtDateTime, fmtInt, fmtPrice } from '../../lib/format';
import { PurchaseActions } from '../purchases/PurchaseActions';
import type { AssetSource, SourcedAsset } from './asset-source';
import { isFromShownProfile } from './asset-source';
import { timeOfField } from './field-time';

const PriceChart = lazy(() => import('./PriceChart'));

const SHOWN_FIRST = ['id', 'title', 'category', 'price', 'currency'];

function isScalarList(v: unknown): v is (string | number | boolean)[] {
  return Array.isArray(v) && v.length <= 30 && v.every((x) => typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean');
}

/** A field's value: text for plain values and short lists, the JSON viewer for anything nested. */
function FieldValue({ name, value }: { name: string; value: unknown }) {
  const time = timeOfField(name, value);
  if (time !== null) return <>{fmtDateTime(time)}</>;
  if (typeof value === 'object' && value !== null && !isScalarList(value)) return <JsonViewer value={value} label={`Field ${name}`} openDepth={0} />;
  return <>{show(value)}</>;
}

function show(v: unknown): string {
  if (v === null || v === undefined || v === '') return DASH;
  if (Array.isArray(v)) return v.map(String).join(', ') || DASH;
  if (typeof v === 'object') return JSON.stringify(v);
  if (typeof v === 'number') return Number.isInteger(v) ? fmtInt(v) : String(v);
  return String(v);
}

export function AssetDetail({
  ref,
  opened,
  shown,
  categoryName,
  onClose,
}: {
  ref?: Ref<HTMLElement>;
  /** The asset with the profile it was read from. */
  opened: SourcedAsset;
  /** The profile the page shows now (another page may have switched it). */
  shown: AssetSource | null;
  categoryName: string | null;
  onClose: () => void;
}) {
  const { asset, source } = opened;
  const current = isFromShownProfile(opened, shown);
  const history = useAssetHistory(asset.id, source.profileId);
  const entries = history.data?.items ?? [];
  const priced = entries.filter((e) => typeof e.price === 'number' && !Number.isNaN(Date.parse(e.at)));
  const rest = Object.entries(asset).filter(([k]) => !SHOWN_FIRST.includes(k));

  return (
    <aside
      ref={ref}
      className="panel detail"
      aria-label={`Asset ${String(asset.id)}`}
      onKeyDown={(e) => {
        if (e.key === 'Escape') onClose();
      }}
    >
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
            <dd>
              <FieldValue name={k} value={v} />
            </dd>
          </div>
        ))}
      </dl>

      <h3 className="detail-section">Purchase</h3>
      {current ? (
        <PurchaseActions assetId={asset.id} assetTitle={asset.title ?? null} source={source} />
      ) : (
        <p className="callout" role="status">
          This asset is from vendor {source.vendor ?? source.profileId}, which this page does not show now: its actions are off. Select that profile again (top
          right) to act on it, or close it.
        </p>
      )}

      <h3 className="detail-section">History</h3>
      <ReadNotice info={history.data} what="the history" />
      {history.isPending ? (
        <Loading label="Loading history…" />
      ) : history.isError ? (
        <ErrorCallout error={history.error} onRetry={() => void history.refetch()} />
      ) : entries.length === 0 ? (
        <Empty title="No history for this asset." />
      ) : (
        <>
          {priced.length >= 1 ? (
            <Suspense fallback={<Loading label="Loading chart…" />}>
              <PriceChart
                points={priced.map((e) => ({ time: Date.parse(e.at), value: e.price as number }))}
                currency={typeof asset.currency === 'string' ? asset.currency : null}
              />
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
