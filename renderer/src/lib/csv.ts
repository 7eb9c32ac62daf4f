/** CSV text (shared/csv.ts's RFC 4180 rules) and a Blob download that needs no server. */
import { cellText, csvRow } from '../../../shared/csv';

export function toCsv(header: readonly string[], rows: readonly (readonly unknown[])[]): string {
  return [header, ...rows].map((row) => csvRow(row.map(cellText))).join('');
}

export function downloadText(filename: string, text: string, type = 'text/csv;charset=utf-8'): void {
  downloadBlob(filename, new Blob([text], { type }));
}

/** Any blob (a CSV, a PNG) saved as a file through the browser's download. */
export function downloadBlob(filename: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  // Let the browser start reading the blob before it goes away.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
