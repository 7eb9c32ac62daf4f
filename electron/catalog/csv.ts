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

/** A field the CSV's header has no column for, and the page (of the whole download) it was first seen on. */
export interface UnlistedField {
  field: string;
  page: number;
}

/** At most this many fields are named: items that each bring their own keys would otherwise name thousands. */
export const MAX_UNLISTED_NAMED = 50;

/** The warning for a field the CSV leaves out. */
export function unlistedWarning({ field, page }: UnlistedField): string {
  return `Field ${JSON.stringify(field)} first seen on page ${page} is not in the CSV, whose columns come from the first page; JSONL keeps every field.`;
}

const MORE_UNLISTED = `More than ${MAX_UNLISTED_NAMED} fields are not in the CSV, whose columns come from the first page; only the first ${MAX_UNLISTED_NAMED} are named. JSONL keeps every field.`;

/** Keys of later pages' items that a header fixed from the first page leaves out: each said once. */
export class UnlistedFields {
  private readonly columns: Set<string>;
  private readonly seen: Set<string>;
  private readonly named: UnlistedField[];
  private overflowed = false;

  constructor(columns: readonly string[], named: readonly UnlistedField[]) {
    this.columns = new Set(columns);
    this.named = named.slice(0, MAX_UNLISTED_NAMED);
    this.seen = new Set(this.named.map((f) => f.field));
  }

  /** The fields named so far: what the checkpoint keeps, so that a resume still says them. */
  get list(): UnlistedField[] {
    return [...this.named];
  }

  /** Warnings for the fields these items are the first to have. */
  note(items: readonly CatalogItem[], page: number): string[] {
    const warnings: string[] = [];
    for (const item of items) {
      for (const field of Object.keys(item)) {
        if (this.columns.has(field) || this.seen.has(field)) continue;
        if (this.named.length < MAX_UNLISTED_NAMED) {
          this.seen.add(field);
          this.named.push({ field, page });
          warnings.push(unlistedWarning({ field, page }));
        } else if (!this.overflowed) {
          this.overflowed = true;
          warnings.push(MORE_UNLISTED);
        }
      }
    }
    return warnings;
  }
}
