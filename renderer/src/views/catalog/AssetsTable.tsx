/**
 * The Assets table on the app's DataTable: sortable (within the rows shown), columns chosen and
 * remembered. Columns are the named fields (id, title, category, price) and the other plain fields
 * the service sends, whatever their names; a search hit whose title lacks the words says where it
 * matched (tags, keywords...).
 */
import { createColumnHelper } from '@tanstack/react-table';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import type { Asset } from '../../../../shared/catalog';
import { DataTable } from '../../components/DataTable';
import { DASH, fmtDate, fmtInt, fmtPrice } from '../../lib/format';
import { timeOfField } from './field-time';
import { matchesShown, whereMatched } from './search-match';

const NAMED = ['id', 'title', 'category', 'price', 'currency'];
/** Other fields become columns when they are plain values; at most this many. */
const MAX_EXTRA_COLUMNS = 5;

function isPlain(v: unknown): v is string | number | boolean {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

/** The other fields that hold plain values in most rows, in the order the service sends them. */
export function extraFields(items: readonly Asset[]): string[] {
  const seen = new Map<string, number>();
  for (const a of items) {
    for (const [k, v] of Object.entries(a)) if (!NAMED.includes(k) && isPlain(v)) seen.set(k, (seen.get(k) ?? 0) + 1);
  }
  return [...seen]
    .filter(([, n]) => n * 2 >= items.length)
    .slice(0, MAX_EXTRA_COLUMNS)
    .map(([k]) => k);
}

function header(field: string): string {
  const words = field
    .replace(/[._-]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Decimals a number column shows (0-2): as many as its values have, so 4.0 lines up with 3.5. */
function decimalsOf(items: readonly Asset[], field: string): number {
  let most = 0;
  for (const a of items) {
    const v = a[field];
    if (typeof v === 'number' && !Number.isInteger(v)) most = Math.max(most, Math.abs(v * 10 - Math.round(v * 10)) < 1e-9 ? 1 : 2);
  }
  return most;
}

function plainText(field: string, v: unknown, decimals: number | null = null): string {
  if (v === undefined || v === null || v === '') return DASH;
  const time = timeOfField(field, v);
  if (time !== null) return fmtDate(time);
  if (typeof v === 'number') {
    return decimals ? v.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals }) : fmtInt(Math.round(v));
  }
  return String(v);
}

const col = createColumnHelper<Asset>();
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- TanStack's column type; cell values differ per column
type AssetColumn = ColumnDef<Asset, any>;

export function AssetsTable({
  stale,
  items,
  categoryNames,
  selectedId,
  onOpen,
  query,
}: {
  stale: boolean;
  items: Asset[];
  categoryNames: Map<string, string>;
  selectedId: string | number | null;
  onOpen: (asset: Asset) => void;
  /** The search words, to say where a hit matched; '' when browsing. */
  query: string;
}) {
  // Extra columns by name and alignment: the key that rebuilds the columns when a page brings other fields.
  const extrasKey = extraFields(items)
    .map((f) => (items.every((a) => a[f] === undefined || (typeof a[f] === 'number' && timeOfField(f, a[f]) === null)) ? `#${decimalsOf(items, f)}:${f}` : f))
    .join('\n');
  // A named field no row has (the map does not fit this service) gives its room to the fields that are there.
  // "Matched in" only when some hit matched outside its title (tags, keywords): else it says nothing new.
  const matchQuery = query !== '' && items.some((a) => matchedText(a, query) !== 'title') ? query : '';
  const emptyKey = ['title', 'category', 'price'].filter((f) => items.length > 0 && items.every((a) => a[f] === undefined || a[f] === null)).join(',');
  const columns = useMemo(() => {
    const named: AssetColumn[] = [
      col.accessor((a) => a.id, { id: 'id', header: 'ID', size: 80, meta: { numeric: true } }),
      col.accessor((a) => a.title ?? '', {
        id: 'title',
        header: 'Title',
        size: 280,
        // A td, not a row header: specs and scripts address the cells by position (td:nth-child).
        cell: (c) => c.getValue() || DASH,
      }),
      col.accessor((a) => (typeof a.category === 'string' ? (categoryNames.get(a.category) ?? a.category) : ''), {
        id: 'category',
        header: 'Category',
        size: 130,
        meta: { dropOrder: 2 },
        cell: (c) => c.getValue() || DASH,
      }),
      col.accessor((a) => a.price, {
        id: 'price',
        header: 'Price',
        size: 110,
        meta: { numeric: true, cellTitle: (a) => fmtPrice(a.price, a.currency) },
        sortUndefined: 'last',
        cell: (c) => fmtPrice(c.row.original.price, c.row.original.currency),
      }),
    ];
    const other = extrasKey === '' ? [] : extrasKey.split('\n');
    const more: AssetColumn[] = other.map((key, i) => {
      const numeric = /^#(\d):(.*)$/.exec(key);
      const field = numeric ? numeric[2]! : key;
      const decimals = numeric ? Number(numeric[1]) : null;
      return col.accessor((a) => (isPlain(a[field]) ? (typeof a[field] === 'boolean' ? String(a[field]) : (a[field] as string | number)) : undefined), {
        id: `field:${field}`,
        header: header(field),
        size: numeric ? 100 : 170,
        sortUndefined: 'last',
        meta: { numeric: numeric !== null, dropOrder: 10 - i, cellTitle: (a) => plainText(field, a[field], decimals) },
        cell: (c) => plainText(field, c.row.original[field], decimals),
      });
    });
    // While searching: where each hit matched, since services search fields the table does not show.
    const matched: AssetColumn[] =
      matchQuery === ''
        ? []
        : [
            col.accessor((a) => matchedText(a, matchQuery), {
              id: 'matched',
              header: 'Matched in',
              size: 180,
              meta: { headerTitle: 'Where the search words were found in each asset', dropOrder: 1 },
            }),
          ];
    const empty = emptyKey.split(',');
    return [...named.slice(0, 2), ...matched, ...named.slice(2), ...more].filter((c) => !empty.includes(c.id ?? ''));
  }, [extrasKey, emptyKey, categoryNames, matchQuery]);

  return (
    <div className={stale ? 'table-stale' : undefined} aria-busy={stale}>
      <DataTable<Asset>
        prefsKey="catalog"
        label="Assets"
        data={items}
        columns={columns}
        getRowId={(a) => String(a.id)}
        onOpen={onOpen}
        selectedId={selectedId === null ? null : String(selectedId)}
      />
    </div>
  );
}

/** "title", or the other fields that hold the words: "tags: castle-keep, castle". */
export function matchedText(asset: Asset, query: string): string {
  if (matchesShown(asset, query, ['title'])) return 'title';
  const matches = whereMatched(asset, query, ['id', 'title']);
  return matches.length === 0 ? 'not shown by the service' : matches.map((m) => `${m.field}: ${m.values.join(', ')}`).join(' · ');
}
