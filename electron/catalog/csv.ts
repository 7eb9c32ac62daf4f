/** CSV per RFC 4180: CRLF line ends, fields with a comma, quote, CR or LF quoted, quotes doubled. */
import type { CatalogItem } from './page';

export const CSV_EOL = '\r\n';

/** A value as the text of one cell: nested arrays and objects JSON-encoded, null and absent empty. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}

export function quoteCell(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(cells: readonly string[]): string {
  return cells.map(quoteCell).join(',') + CSV_EOL;
}

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
