/** Catalog items as CSV rows; the cell and quoting rules are shared/csv.ts's. */
import type { CatalogItem } from './page';

export { CSV_EOL, cellText, csvRow, quoteCell } from '../../shared/csv';
import { cellText, csvRow } from '../../shared/csv';

/** One item as a row of the fixed columns: keys not in the header are dropped, missing ones empty. */
export function csvItemRow(item: CatalogItem, columns: readonly string[]): string {
  return csvRow(columns.map((c) => cellText(Object.prototype.hasOwnProperty.call(item, c) ? item[c] : undefined)));
}

/** The header: every key of the first page's items, in the order first seen. */
export function columnsFromItems(items: readonly CatalogItem[]): string[] {
  const seen = new Set<string>();
  for (const item of items) for (const key of Object.keys(item)) seen.add(key);
  return [...seen];
}
