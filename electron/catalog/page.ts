/**
 * Reading one page of GET /assets/list: where the items are, what the next cursor is, whether the
 * catalog ends here, and the total where the body gives one. Pure; shared by the download and the
 * dashboard's paged table.
 */
import { PartnerError } from '../../shared/errors';
import type { PageShape } from './settings';

export type Cursor = string | number;
export type CatalogItem = Record<string, unknown>;

export interface ParsedPage {
  items: CatalogItem[];
  /** The last_id for the next page; null when there is none. */
  cursor: Cursor | null;
  /** No page follows this one. */
  done: boolean;
  /** The catalog's size where the body says it, else null. */
  total: number | null;
}

const ENDPOINT_LABEL = 'GET /assets/list';

function invalid(message: string, body?: unknown): PartnerError {
  return new PartnerError({
    code: 'INVALID_RESPONSE',
    message,
    endpoint: ENDPOINT_LABEL,
    retryable: false,
    hint: 'Check the download settings (id field, items field, cursor fields) against what the service sends.',
    ...(body === undefined ? {} : { body: preview(body) }),
  });
}

/** A short, safe excerpt of a body for an error message. */
function preview(body: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(body) ?? String(body);
  } catch {
    text = String(body);
  }
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function findItems(body: unknown, shape: PageShape): unknown[] {
  if (Array.isArray(body)) return body;
  if (!isRecord(body)) throw invalid('The catalog page is neither a JSON array nor a JSON object.', body);
  if (shape.itemsField !== undefined) {
    const named = body[shape.itemsField];
    if (!Array.isArray(named)) throw invalid(`The catalog page has no array field "${shape.itemsField}".`, body);
    return named;
  }
  for (const value of Object.values(body)) if (Array.isArray(value)) return value;
  throw invalid('The catalog page holds no array of items (neither a top-level array nor an array property).', body);
}

/** A usable cursor: a finite number or a non-empty string (an empty last_id is a 400). */
function asCursor(value: unknown): Cursor | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value !== '') return value;
  return undefined;
}

function readTotal(body: Record<string, unknown>, fields: readonly string[]): number | null {
  for (const field of fields) {
    const value = body[field];
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return Math.floor(value);
    if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  }
  return null;
}

/**
 * Reads a page body. Throws INVALID_RESPONSE (never loops or guesses) when an item is not an object
 * with an id, or when the body names a cursor that cannot be sent.
 */
export function parsePage(body: unknown, shape: PageShape): ParsedPage {
  const raw = findItems(body, shape);
  const items: CatalogItem[] = [];
  for (let i = 0; i < raw.length; i++) {
    const item = raw[i];
    if (!isRecord(item)) throw invalid(`Item ${i + 1} of the catalog page is not a JSON object.`, item);
    if (asCursor(item[shape.idField]) === undefined) {
      throw invalid(`Item ${i + 1} of the catalog page has no usable id field "${shape.idField}" (a number or a non-empty string).`, item);
    }
    items.push(item);
  }
  const last = items[items.length - 1];
  let cursor: Cursor | null = last === undefined ? null : (asCursor(last[shape.idField]) ?? null);
  let done = items.length === 0;
  let total: number | null = null;

  if (isRecord(body)) {
    total = readTotal(body, shape.totalFields);
    const namedField = shape.cursorFields.find((f) => Object.prototype.hasOwnProperty.call(body, f));
    if (namedField !== undefined) {
      const value = body[namedField];
      if (value === null || value === undefined || value === false) {
        cursor = null;
        done = true;
      } else {
        const named = asCursor(value);
        if (named === undefined) throw invalid(`The catalog page's cursor "${namedField}" is not a number or a non-empty string.`, body);
        cursor = named;
      }
    }
    const moreField = shape.moreFields.find((f) => Object.prototype.hasOwnProperty.call(body, f));
    if (moreField !== undefined && body[moreField] === false) done = true;
  }
  if (cursor === null) done = true;
  return { items, cursor, done, total };
}

/** Cursors compared as sent on the wire (1 and "1" are the same last_id). */
export function sameCursor(a: Cursor | null, b: Cursor | null): boolean {
  return a !== null && b !== null && String(a) === String(b);
}
