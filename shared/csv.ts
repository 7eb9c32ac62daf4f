/** CSV per RFC 4180: CRLF line ends, fields with a comma, quote, CR or LF quoted, quotes doubled.
 * One set of rules for the catalog export (main) and the dashboard's CSV export (renderer).
 * Formula injection (OWASP): a cell a spreadsheet would run as a formula (one that starts with =, +, -,
 * @, tab or CR) gets a leading single quote and is quoted, so it is shown as text. A plain number
 * such as -12.5 is no formula and stays as it is. */
import { NumberText } from './json/number-text';
import { stringifyJsonExact } from './json/stringify-exact';

export const CSV_EOL = '\r\n';

/** A value as the text of one cell: nested arrays and objects JSON-encoded, null and absent empty. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof NumberText) return value.text;
  try {
    // Nested ids past 2^53 exact too, and any depth.
    return stringifyJsonExact(value) ?? '';
  } catch {
    return String(value);
  }
}

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** The text a spreadsheet shows as is: a would-be formula behind a single quote. */
export function neutralizeFormula(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

export function quoteCell(text: string): string {
  const safe = neutralizeFormula(text);
  return safe !== text || /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvRow(cells: readonly string[]): string {
  return cells.map(quoteCell).join(',') + CSV_EOL;
}
