/**
 * Items a service sends again: the last item of the page before (a cursor read as "from this item on"),
 * or part of a page already written (a page that went back). Ids are unique in a catalog, so an id
 * written before is the same item: it is written once.
 */
import { sameCursor } from './page';
import type { Cursor, ParsedPage } from './page';

/** Pages remembered: a page that goes back further is not caught, and memory stays bounded on any catalog. */
export const RECENT_PAGES = 5;
/** Ids remembered at most, whatever the pages' size. */
export const RECENT_IDS_MAX = 2000;

/** The ids of the last pages written. A page with one id twice says ids are not unique here: nothing is left out then. */
export class RecentIds {
  private readonly pages: string[][] = [];
  private readonly ids = new Set<string>();
  private unique = true;

  get size(): number {
    return this.ids.size;
  }

  /** The items not written within the window, in order. Ids compared as sent on the wire (1 and "1" are one). */
  fresh<T extends { id: Cursor }>(items: readonly T[]): T[] {
    if (!this.unique || hasSharedIds(items)) return [...items];
    return items.filter((item) => !this.ids.has(String(item.id)));
  }

  /** A page just written; the oldest pages leave the window past RECENT_PAGES pages or RECENT_IDS_MAX ids. */
  add(items: readonly { id: Cursor }[]): void {
    if (hasSharedIds(items)) this.unique = false;
    if (!this.unique) return;
    const keys = items.slice(-RECENT_IDS_MAX).map((item) => String(item.id));
    this.pages.push(keys);
    for (const key of keys) this.ids.add(key);
    while (this.pages.length > RECENT_PAGES || this.ids.size > RECENT_IDS_MAX) {
      for (const key of this.pages.shift() ?? []) this.ids.delete(key);
    }
  }
}

function hasSharedIds(items: readonly { id: Cursor }[]): boolean {
  return new Set(items.map((item) => String(item.id))).size < items.length;
}

/** The warning for the items left out as already written. */
export function repeatsWarning(count: number): string {
  const items = count === 1 ? '1 item that was' : `${count} items that were`;
  return `The service sent ${items} already written (a page that went back): they were left out.`;
}

/**
 * A page that starts with the last item written (a service whose last_id is inclusive, `>=`): that item is
 * written once, not once per page. Left with nothing, the page ends the catalog unless it says more follows.
 */
export function withoutRepeat(page: ParsedPage, lastWritten: Cursor | null, sent: Cursor | null): ParsedPage {
  const first = page.items[0];
  if (first === undefined || !sameCursor(first.id, lastWritten)) return page;
  const items = page.items.slice(1);
  const ended = items.length === 0 && page.more !== true && (page.cursor === null || sameCursor(page.cursor, sent) || sameCursor(page.cursor, lastWritten));
  const warning = 'Each page starts with the last item of the page before (the service reads its cursor as "from this item on"): that item was written once.';
  return { ...page, items, done: page.done || ended, warnings: [...page.warnings, warning] };
}
