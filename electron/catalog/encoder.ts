/** Items as the bytes of the export: one JSON object per line, or one CSV row per item under a fixed header. */
import { stringifyJsonExact } from '../../shared/json/stringify-exact';
import { UnlistedFields, columnsFromItems, csvItemRow, csvRow } from './csv';
import type { UnlistedField } from './csv';
import type { CatalogItem } from './page';
import type { ExportFormat } from './settings';

export interface RecordEncoder {
  /** CSV columns once fixed; null for JSON Lines or before the first page. */
  readonly columns: string[] | null;
  /** Fields a header taken from the first page leaves out, named so far; null when none are watched (JSON Lines, chosen columns). */
  readonly unlisted: UnlistedField[] | null;
  /** Text to write before the first page's items (the CSV header), fixing the columns; '' when nothing. */
  begin(firstPage: readonly CatalogItem[]): string;
  /** Warnings for the fields of this page (after begin) that the export leaves out, each said once. */
  note(items: readonly CatalogItem[], page: number): string[];
  encode(item: CatalogItem): string;
}

/** `unlisted`: the fields already named when the header is the first page's (watched); null when not. */
export function createEncoder(
  format: ExportFormat,
  columns: readonly string[] | null,
  headerWritten: boolean,
  unlisted: UnlistedField[] | null = null,
): RecordEncoder {
  return format === 'csv' ? new CsvEncoder(columns, headerWritten, unlisted) : new JsonLinesEncoder();
}

class JsonLinesEncoder implements RecordEncoder {
  readonly columns = null;
  readonly unlisted = null;
  begin(): string {
    return '';
  }
  note(): string[] {
    return [];
  }
  encode(item: CatalogItem): string {
    // Ids past 2^53 as the number text the service wrote; any depth (JSON.stringify overflows near 6,000 levels).
    return `${stringifyJsonExact(item) ?? 'null'}\n`;
  }
}

class CsvEncoder implements RecordEncoder {
  private fixed: string[] | null;
  private watch: UnlistedFields | null = null;
  constructor(
    columns: readonly string[] | null,
    private headerWritten: boolean,
    private readonly named: UnlistedField[] | null,
  ) {
    this.fixed = columns ? [...columns] : null;
    if (headerWritten) this.watchFrom();
  }
  get columns(): string[] | null {
    return this.headerWritten ? this.fixed : null;
  }
  get unlisted(): UnlistedField[] | null {
    return this.watch?.list ?? this.named;
  }
  begin(firstPage: readonly CatalogItem[]): string {
    if (this.headerWritten) return '';
    const columns = this.fixed ?? columnsFromItems(firstPage);
    // An empty first page without configured columns has no header to give yet.
    if (columns.length === 0) return '';
    this.fixed = columns;
    this.headerWritten = true;
    this.watchFrom();
    return csvRow(columns);
  }
  note(items: readonly CatalogItem[], page: number): string[] {
    return this.watch?.note(items, page) ?? [];
  }
  encode(item: CatalogItem): string {
    return this.fixed ? csvItemRow(item, this.fixed) : '';
  }
  private watchFrom(): void {
    if (this.named !== null && this.fixed !== null) this.watch = new UnlistedFields(this.fixed, this.named);
  }
}
