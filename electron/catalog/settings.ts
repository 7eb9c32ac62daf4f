/**
 * Settings of a catalog download. The specification does not show the page's shape, so every
 * guess about it is a setting with a default (the simulator's vocabulary), never hard-coded.
 */
import { DEFAULT_ID_FIELD, DEFAULT_PAGE_SIZE_PARAM, PAGE_SIZE_MAX, PAGE_SIZE_MIN } from '../../shared/catalog';
import { PartnerError } from '../../shared/errors';

export type ExportFormat = 'jsonl' | 'csv';

/** How a page body is read. */
export interface PageShape {
  /** Field of each item that holds its id; the last item's id is the next cursor. */
  idField: string;
  /** Body fields that name the next cursor, tried in order; null there means "no more pages". */
  cursorFields: readonly string[];
  /** Body fields that say whether more pages follow (false ends the download). */
  moreFields: readonly string[];
  /** Body fields that give the catalog's total size (for the ETA). */
  totalFields: readonly string[];
  /** Body field holding the items; undefined: a top-level array or the body's first array property. */
  itemsField?: string;
}

export const DEFAULT_CURSOR_FIELDS: readonly string[] = ['next_last_id', 'next_cursor', 'last_id', 'cursor'];
export const DEFAULT_MORE_FIELDS: readonly string[] = ['has_more', 'hasMore'];
export const DEFAULT_TOTAL_FIELDS: readonly string[] = ['total', 'total_count', 'count'];
/** Large pages: a request costs one slot whatever its size (spec, "Query parameter"). */
export const DEFAULT_DOWNLOAD_PAGE_SIZE = 100;
export const LAST_ID_PARAM = 'last_id';

export const DEFAULT_PAGE_SHAPE: PageShape = {
  idField: DEFAULT_ID_FIELD,
  cursorFields: DEFAULT_CURSOR_FIELDS,
  moreFields: DEFAULT_MORE_FIELDS,
  totalFields: DEFAULT_TOTAL_FIELDS,
};

/** A full page shape from a partial one. */
export function pageShape(partial: Partial<PageShape> = {}): PageShape {
  const shape: PageShape = {
    idField: partial.idField ?? DEFAULT_PAGE_SHAPE.idField,
    cursorFields: partial.cursorFields ?? DEFAULT_PAGE_SHAPE.cursorFields,
    moreFields: partial.moreFields ?? DEFAULT_PAGE_SHAPE.moreFields,
    totalFields: partial.totalFields ?? DEFAULT_PAGE_SHAPE.totalFields,
  };
  if (partial.itemsField !== undefined) shape.itemsField = partial.itemsField;
  if (shape.idField.trim() === '') throw badSetting('The id field name must not be empty.');
  if (shape.itemsField !== undefined && shape.itemsField.trim() === '') throw badSetting('The items field name must not be empty.');
  return shape;
}

/**
 * Refused before sending: the server would answer 400, and a 400 still costs a slot of the budget.
 * Bounds are the simulator's (1..100); the specification gives 100 as "a large page".
 */
export function validatePageSize(value: unknown): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < PAGE_SIZE_MIN || n > PAGE_SIZE_MAX) {
    const shown = typeof value === 'string' ? JSON.stringify(value) : String(value);
    throw badSetting(`Page size must be a whole number from ${PAGE_SIZE_MIN} to ${PAGE_SIZE_MAX}, got ${shown}.`);
  }
  return n;
}

export function validatePageSizeParam(value: string | undefined): string {
  const name = value ?? DEFAULT_PAGE_SIZE_PARAM;
  if (name.trim() === '' || name === LAST_ID_PARAM) {
    throw badSetting(`The page-size parameter name must be non-empty and not "${LAST_ID_PARAM}", got ${JSON.stringify(name)}.`);
  }
  return name;
}

/** The format from an explicit choice, else from the file's extension. */
export function formatForPath(path: string, explicit?: string): ExportFormat {
  if (explicit !== undefined) {
    const f = explicit.toLowerCase();
    if (f === 'jsonl' || f === 'ndjson') return 'jsonl';
    if (f === 'csv') return 'csv';
    throw badSetting(`Unknown export format ${JSON.stringify(explicit)}: use jsonl or csv.`);
  }
  const lower = path.toLowerCase();
  if (lower.endsWith('.jsonl') || lower.endsWith('.ndjson')) return 'jsonl';
  if (lower.endsWith('.csv')) return 'csv';
  throw badSetting(`Cannot tell the export format from ${JSON.stringify(path)}: use a .jsonl, .ndjson or .csv file name, or name the format.`);
}

/** A base URL is compared and stored in the client's one spelling. */
export { normalizeBaseUrl } from '../client/budget-registry';

export function badSetting(message: string): PartnerError {
  return new PartnerError({ code: 'BAD_REQUEST', message, retryable: false });
}
