import type { Asset } from '../../../../shared/catalog';
import { DASH, fmtDate, fmtInt, fmtPrice } from '../../lib/format';

function text(v: unknown): string {
  return typeof v === 'string' || typeof v === 'number' ? String(v) : DASH;
}

export function AssetsTable({
  stale,
  items,
  categoryNames,
  selectedId,
  onOpen,
}: {
  stale: boolean;
  items: Asset[];
  categoryNames: Map<string, string>;
  selectedId: string | number | null;
  onOpen: (asset: Asset) => void;
}) {
  return (
    <div className="table-wrap">
      <table className={stale ? 'table table-stale' : 'table'} aria-label="Assets" aria-busy={stale}>
        <thead>
          <tr>
            <th scope="col" className="num">
              ID
            </th>
            <th scope="col">Title</th>
            <th scope="col">Category</th>
            <th scope="col" className="num">
              Price
            </th>
            <th scope="col" className="num">
              Rating
            </th>
            <th scope="col" className="num">
              Downloads
            </th>
            <th scope="col">Updated</th>
          </tr>
        </thead>
        <tbody>
          {items.map((a) => (
            <tr
              key={String(a.id)}
              tabIndex={0}
              className="row-clickable"
              aria-selected={selectedId !== null && String(selectedId) === String(a.id)}
              onClick={() => onOpen(a)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' || e.key === ' ') {
                  e.preventDefault();
                  onOpen(a);
                }
              }}
            >
              <td className="num mono">{String(a.id)}</td>
              <td className="cell-title">{a.title ?? DASH}</td>
              <td>{typeof a.category === 'string' ? (categoryNames.get(a.category) ?? a.category) : DASH}</td>
              <td className="num">{fmtPrice(a.price, a.currency)}</td>
              <td className="num">{typeof a.rating === 'number' ? a.rating.toFixed(1) : text(a.rating)}</td>
              <td className="num">{typeof a.downloads === 'number' ? fmtInt(a.downloads) : text(a.downloads)}</td>
              <td className="muted">{fmtDate(typeof a.updated_at === 'string' ? a.updated_at : null)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
