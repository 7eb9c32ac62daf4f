/**
 * What the draft map reads from the answers detection sampled: the first asset and category read
 * field by field, beside the sample object itself, so a wrong path shows at once (Grafana Infinity's
 * preview). Kinds detection does not sample (history, purchases, URLs) say so.
 */
import type { Detection } from '../../../../shared/service-map/bridge';
import { readAssetPage, readCategories, readSearch } from '../../../../shared/service-map/read';
import type { ServiceMap } from '../../../../shared/service-map/schema';
import { JsonViewer } from '../../components/JsonViewer';
import { DASH, fmtInt, fmtPrice } from '../../lib/format';

type Samples = Detection['samples'];

function Missing({ names }: { names: string[] }) {
  if (names.length === 0) return <p className="map-ok small">Every field of the map was found.</p>;
  return (
    <p className="text-warn small">
      Not found:{' '}
      {names.map((n) => (
        <code key={n} className="code-chip">
          {n}
        </code>
      ))}
    </p>
  );
}

function Rows({ rows }: { rows: [string, string][] }) {
  return (
    <dl className="kv kv-compact">
      {rows.map(([k, v]) => (
        <div key={k} className="kv-row">
          <dt>{k}</dt>
          <dd className={v === DASH ? 'text-warn' : undefined}>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

const text = (v: unknown) => (v === undefined || v === null || v === '' ? DASH : String(v));

export function MapPreview({ map, samples }: { map: ServiceMap; samples: Samples | null }) {
  if (samples === null) {
    return (
      <aside className="map-preview" aria-label="Preview">
        <h4 className="detail-section">Preview</h4>
        <p className="muted small">Detect reads a page of the list, the categories and one search, and shows here what this map makes of each.</p>
      </aside>
    );
  }
  const list = samples.list === null ? null : readAssetPage(samples.list, map);
  const categories = samples.categories === null ? null : readCategories(samples.categories, map);
  const search = samples.search === null ? null : readSearch(samples.search, map);
  const asset = list?.value.items[0];
  const category = categories?.value[0];
  return (
    <aside className="map-preview" aria-label="Preview">
      <h4 className="detail-section">Preview: an asset</h4>
      {list ? (
        <>
          <Rows
            rows={[
              ['id', text(asset?.id)],
              ['title', text(asset?.title)],
              ['category', text(asset?.category)],
              ['price', asset?.price === undefined ? DASH : fmtPrice(asset.price, asset.currency)],
              [
                'page',
                `${fmtInt(list.value.received)} items${list.value.total !== null ? ` of ${fmtInt(list.value.total)}` : ''}, next cursor ${text(list.value.cursor)}`,
              ],
            ]}
          />
          <Missing names={list.missing} />
          <JsonViewer value={samples.list} label="Sample answer of the asset list" openDepth={1} />
        </>
      ) : (
        <p className="muted small">The list was not sampled.</p>
      )}
      <h4 className="detail-section">Preview: a category</h4>
      {categories ? (
        <>
          <Rows
            rows={[
              ['id', text(category?.id)],
              ['name', text(category?.name)],
              ['count', text(category?.count)],
              ['categories', fmtInt(categories.value.length)],
            ]}
          />
          <Missing names={categories.missing} />
          <JsonViewer value={samples.categories} label="Sample answer of the categories" openDepth={1} />
        </>
      ) : (
        <p className="muted small">The categories were not sampled.</p>
      )}
      <h4 className="detail-section">Preview: search</h4>
      {search ? (
        <>
          <Rows
            rows={[
              [
                'matches read',
                `${fmtInt(search.value.items.length)} of ${fmtInt(search.value.received)} received${search.value.total !== null ? `, total ${fmtInt(search.value.total)}` : ''}`,
              ],
            ]}
          />
          <Missing names={search.missing} />
        </>
      ) : (
        <p className="muted small">Search was not sampled.</p>
      )}
      <h4 className="detail-section">History, purchases, URL answers</h4>
      <p className="muted small">
        Detection spends no budget on them: they are read with the fields on the left when first met, and an answer that does not fit shows its raw JSON and the
        field that was not found where it appears.
      </p>
    </aside>
  );
}
