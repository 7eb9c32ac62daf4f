/**
 * Settings of a catalog download. The specification does not show the page's shape: how a page is
 * read is the profile's service map (shared/service-map/), whose default is the simulator's dialect.
 */
import { PAGE_SIZE_MAX, PAGE_SIZE_MIN } from '../../shared/catalog';
import { PartnerError } from '../../shared/errors';
import { isPath } from '../../shared/service-map/field-path';
import { DEFAULT_SERVICE_MAP } from '../../shared/service-map/schema';
import type { ServiceMap } from '../../shared/service-map/schema';

export type ExportFormat = 'jsonl' | 'csv';

/**
 * How a page is asked for and read: a service map. The single-field options are overrides of the
 * map (the command line's flags); pageShape() writes them into `map`, the one source of the names.
 */
export interface PageShape {
  map: ServiceMap;
  /** The items' id field, the next cursor where the body names none (map.asset.id). */
  idField?: string;
  /** The page-size query parameter (map.list.pageSizeParam). */
  pageSizeParam?: string;
  /** Body fields that name the next cursor, tried in order (map.list.cursor as `a|b`). */
  cursorFields?: readonly string[];
  /** Body fields that say whether more pages follow (map.list.hasMore). */
  moreFields?: readonly string[];
  /** Body fields that give the catalog's size (map.list.total). */
  totalFields?: readonly string[];
  /** Where the items are (map.list.items). */
  itemsField?: string;
}

/** Large pages: a request costs one slot whatever its size (spec, "Query parameter"). */
export const DEFAULT_DOWNLOAD_PAGE_SIZE = 100;
export const LAST_ID_PARAM = DEFAULT_SERVICE_MAP.list.cursorParam;

function alternatives(names: readonly string[] | undefined, what: string): string | undefined {
  if (names === undefined) return undefined;
  const path = names.map((n) => n.trim()).join('|');
  if (names.length === 0 || names.some((n) => n.trim() === '') || !isPath(path)) throw badSetting(`The ${what} names must be non-empty field paths.`);
  return path;
}

/** The map with the single-field overrides applied. Throws BAD_REQUEST on an empty or malformed name. */
export function pageShape(partial: Partial<PageShape> = {}): PageShape {
  const base = partial.map ?? DEFAULT_SERVICE_MAP;
  const idField = partial.idField ?? base.asset.id;
  if (idField.trim() === '' || !isPath(idField)) throw badSetting('The id field name must not be empty.');
  if (partial.itemsField !== undefined && (partial.itemsField.trim() === '' || !isPath(partial.itemsField)))
    throw badSetting('The items field name must not be empty.');
  const cursor = alternatives(partial.cursorFields, 'cursor field');
  const more = alternatives(partial.moreFields, 'has-more field');
  const total = alternatives(partial.totalFields, 'total field');
  const pageSizeParam = partial.pageSizeParam === undefined ? base.list.pageSizeParam : validatePageSizeParam(partial.pageSizeParam, base.list.cursorParam);
  const map: ServiceMap = {
    ...base,
    list: {
      ...base.list,
      pageSizeParam,
      ...(partial.itemsField !== undefined ? { items: partial.itemsField } : {}),
      ...(cursor !== undefined ? { cursor } : {}),
      ...(more !== undefined ? { hasMore: more } : {}),
      ...(total !== undefined ? { total } : {}),
    },
    asset: { ...base.asset, id: idField },
  };
  return { map };
}

/**
 * Refused before sending: the server would answer 400, and a 400 still costs a slot of the budget.
 * Bounds are the simulator's (1..100); the specification gives 100 as "a large page".
 */
export function validatePageSize(value: unknown): number {
  // A string of decimal digits only: Number() would read '0x10' as 16 and '1e1' as 10.
  const n = typeof value === 'string' ? (/^\s*\d+\s*$/.test(value) ? Number(value) : NaN) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < PAGE_SIZE_MIN || n > PAGE_SIZE_MAX) {
    const shown = typeof value === 'string' ? JSON.stringify(value) : String(value);
    throw badSetting(`Page size must be a whole number from ${PAGE_SIZE_MIN} to ${PAGE_SIZE_MAX}, got ${shown}.`);
  }
  return n;
}

/** A page-size parameter name that is not the cursor's. */
export function validatePageSizeParam(name: string, cursorParam: string = LAST_ID_PARAM): string {
  if (name.trim() === '' || name === cursorParam) {
    throw badSetting(`The page-size parameter name must be non-empty and not "${cursorParam}", got ${JSON.stringify(name)}.`);
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
export { normalizeBaseUrl } from '../../shared/base-url';

export function badSetting(message: string): PartnerError {
  return new PartnerError({ code: 'BAD_REQUEST', message, retryable: false });
}
