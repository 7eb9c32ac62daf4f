/**
 * Reading one page of GET /assets/list through the service map: the items, the next cursor,
 * whether the catalog ends here, the total where the body gives one. Pure; shared by the download
 * and the dashboard's paged table.
 */
import { PartnerError } from '../../shared/errors';
import { readPath } from '../../shared/service-map/field-path';
import { findItems, Misses, readAssetPage } from '../../shared/service-map/read';
import { asId } from '../../shared/service-map/values';
import type { Id } from '../../shared/service-map/values';
import type { ReadAsset } from '../../shared/catalog';
import type { PageShape } from './settings';

/** As the service wrote it: number text past 2^53 stays NumberText. */
export type Cursor = Id;
export type CatalogItem = Record<string, unknown>;

export interface ParsedPage {
  items: ReadAsset[];
  /** The last_id for the next page; null when there is none. */
  cursor: Cursor | null;
  /** No page follows this one. */
  done: boolean;
  /** The has-more flag as read; null: the answer has none. */
  more: boolean | null;
  /** The catalog's size where the body says it, else null. */
  total: number | null;
  /** Items in the answer, readable or not. */
  received: number;
  /** The id of the page's last item (the spec's next last_id); null when there is none. */
  lastItemId: Cursor | null;
  /** The cursor field sent back the last_id it was sent (it does not advance): `cursor` is the last item's id instead. */
  cursorEchoed?: boolean;
  /** Map fields the answer did not have (e.g. "asset.price"). */
  missing: string[];
  /** Things to fix in the service map (verification), in words. */
  warnings: string[];
  /** The answer itself, for showing what could not be read. */
  raw: unknown;
}

const ENDPOINT_LABEL = 'GET /assets/list';

/** Without these a download cannot go on safely: the next cursor would be a guess. */
const FATAL: Record<string, string> = {
  'list.items': 'has no items array where the service map says (list.items)',
  asset: 'has an item that is not a JSON object',
  'asset.id': 'has an item without a usable id (asset.id: a number or a non-empty string)',
  'list.cursor': 'names a next cursor that is not a number or a non-empty string (list.cursor)',
};

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

/** Reads a page body; never throws (what could not be read is in `missing`). */
export function parsePage(body: unknown, shape: Pick<PageShape, 'map'>): ParsedPage {
  const read = readAssetPage(body, shape.map);
  return { ...read.value, missing: read.missing, warnings: read.warnings, raw: read.raw };
}

/**
 * The download's check: INVALID_RESPONSE (never loops or guesses) when the page's items or its
 * next cursor cannot be read.
 */
export function assertPageUsable(page: ParsedPage, shape: Pick<PageShape, 'map'>): void {
  const fatal = page.missing.find((m) => FATAL[m] !== undefined);
  if (fatal === undefined) return;
  const m = shape.map;
  // Name the first item at fault, so the user can find it in the answer.
  const raw = findItems(page.raw, m.list.items, 'list.items', new Misses());
  const at = raw.findIndex((item) => asId(readPath(item, m.asset.id).value) === null);
  const which = at >= 0 && (fatal === 'asset' || fatal === 'asset.id') ? ` (item ${at + 1}, id field "${m.asset.id}")` : '';
  throw new PartnerError({
    code: 'INVALID_RESPONSE',
    message: `The catalog page ${FATAL[fatal]}${which}.`,
    endpoint: ENDPOINT_LABEL,
    retryable: false,
    hint: `Check the service map against what the service sends (items at ${m.list.items ?? 'the first array'}, id at ${m.asset.id}, cursor ${m.list.cursor ?? "the last item's id"}).`,
    body: preview(page.raw),
  });
}

/** Cursors compared as sent on the wire (1 and "1" are the same last_id). */
export function sameCursor(a: Cursor | null, b: Cursor | null): boolean {
  return a !== null && b !== null && String(a) === String(b);
}

/**
 * A page that ends the catalog with `written` items, short of the total the same answer gives: the signals
 * disagree, so it is not an end; the next page starts after its last item (an empty answer there fails
 * loudly rather than report a short catalog as done).
 */
export function endShortOfTotal(page: ParsedPage, written: number): ParsedPage {
  if (!page.done || page.items.length === 0 || page.total === null || written >= page.total || page.lastItemId === null) return page;
  const warning = `A page ended the catalog at ${written} items while the same answer gives a total of ${page.total}: continuing from the last item's id.`;
  return { ...page, done: false, cursor: page.lastItemId, warnings: [...page.warnings, warning] };
}
