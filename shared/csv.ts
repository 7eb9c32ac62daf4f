/** CSV per RFC 4180: CRLF line ends, fields with a comma, quote, CR or LF quoted, quotes doubled.
 * One set of rules for the catalog export (main) and the dashboard's CSV export (renderer). */
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
