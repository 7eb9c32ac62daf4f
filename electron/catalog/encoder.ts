/** Items as the bytes of the export: one JSON object per line, or one CSV row per item under a fixed header. */
import { stringifyJsonExact } from '../../shared/json/stringify-exact';
import { columnsFromItems, csvItemRow, csvRow } from './csv';
import type { CatalogItem } from './page';
import type { ExportFormat } from './settings';

export interface RecordEncoder {
  /** CSV columns once fixed; null for JSON Lines or before the first page. */
  readonly columns: string[] | null;
  /** Text to write before the first page's items (the CSV header), fixing the columns; '' when nothing. */
  begin(firstPage: readonly CatalogItem[]): string;
  encode(item: CatalogItem): string;
}

export function createEncoder(format: ExportFormat, columns: readonly string[] | null, headerWritten: boolean): RecordEncoder {
  return format === 'csv' ? new CsvEncoder(columns, headerWritten) : new JsonLinesEncoder();
}

class JsonLinesEncoder implements RecordEncoder {
  readonly columns = null;
  begin(): string {
    return '';
  }
  encode(item: CatalogItem): string {
    // Ids past 2^53 as the number text the service wrote; any depth (JSON.stringify overflows near 6,000 levels).
    return `${stringifyJsonExact(item) ?? 'null'}\n`;
  }
}

class CsvEncoder implements RecordEncoder {
  private fixed: string[] | null;
  constructor(
    columns: readonly string[] | null,
    private headerWritten: boolean,
  ) {
    this.fixed = columns ? [...columns] : null;
  }
  get columns(): string[] | null {
    return this.headerWritten ? this.fixed : null;
  }
  begin(firstPage: readonly CatalogItem[]): string {
    if (this.headerWritten) return '';
    const columns = this.fixed ?? columnsFromItems(firstPage);
    // An empty first page without configured columns has no header to give yet.
    if (columns.length === 0) return '';
    this.fixed = columns;
    this.headerWritten = true;
    return csvRow(columns);
  }
  encode(item: CatalogItem): string {
    return this.fixed ? csvItemRow(item, this.fixed) : '';
  }
}
