/** One page of the catalog through the rate-aware client: the download's step and the dashboard's paged table. */
import { foundAlternative } from '../../shared/service-map/field-path';
import { listRequest } from '../../shared/service-map/requests';
import { verifyPage } from '../../shared/service-map/verify';
import { assertPageUsable, endShortOfTotal, parsePage, sameCursor } from './page';
import type { Cursor, ParsedPage } from './page';
import type { BudgetSample } from '../../shared/rate-limit';
import type { CatalogClient } from './client-port';
import { DEFAULT_DOWNLOAD_PAGE_SIZE, pageShape } from './settings';
import type { PageShape } from './settings';
import type { ServiceMap } from '../../shared/service-map/schema';

export interface ReadPageOptions extends Partial<PageShape> {
  /** The cursor from the previous page; null or absent for the first page. */
  lastId?: Cursor | null;
  /** Default 100. */
  pageSize?: number;
  signal?: AbortSignal;
  /** Default 'interactive'; the download reads in the background. */
  priority?: 'interactive' | 'background';
  /** Return what could be read instead of INVALID_RESPONSE when items or the cursor are unreadable (the dashboard). */
  tolerant?: boolean;
  /** Each attempt's sample of this page's request (the download's progress counts its own requests only). */
  onSample?: (sample: BudgetSample) => void;
}

/** Reads one page. Throws PartnerError: the client's errors, BAD_REQUEST for bad settings, INVALID_RESPONSE (unless tolerant). */
export async function readPage(client: CatalogClient, options: ReadPageOptions = {}): Promise<ParsedPage> {
  const { map } = pageShape(options);
  const pageSize = options.pageSize ?? DEFAULT_DOWNLOAD_PAGE_SIZE;
  const lastId = options.lastId ?? null;
  // Refuses a page size out of bounds and an empty cursor (a 400 that would still cost a slot).
  const parts = listRequest(map, pageSize, lastId);
  const response = await client.request('listAssets', {
    query: parts.query ?? {},
    priority: options.priority ?? 'interactive',
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onSample ? { onSample: options.onSample } : {}),
  });
  const parsed = parsePage(response.body, { map });
  if (!options.tolerant) assertPageUsable(parsed, { map });
  const asked = Math.min(pageSize, map.list.pageSizeMax);
  const read = echoRead(parsed, lastId, map);
  // Only a first page is known to hold all items read so far; the download checks every page against what it wrote.
  const page = lastId === null ? endShortOfTotal(read, read.received) : read;
  return { ...page, warnings: [...page.warnings, ...verifyPage({ asked, param: map.list.pageSizeParam, received: page.received, done: page.done })] };
}

/**
 * A cursor field that sends back the last_id it was given (an echo, or a constant) says nothing of the next page:
 * - on a page with items, asking with it again would loop: the next page starts after this page's last item (the
 *   spec's rule); whether this page itself can be trusted depends on where the sent cursor came from (the download knows);
 * - on an empty page it is no next cursor: the catalog ends there, unless has-more says otherwise;
 * - on a first page, a null under the request parameter's own name (`last_id`) is what an echo of the first
 *   request looks like, and what an end looks like: the page after the last item tells them apart, at one request.
 *   A short page does not tell them apart: a service may cap its pages below the size asked.
 */
function echoRead(page: ParsedPage, sent: Cursor | null, map: ServiceMap): ParsedPage {
  const field = map.list.cursor;
  if (field === null) return page;
  const name = foundAlternative(page.raw, field) ?? field;
  if (page.received === 0) return !page.done && page.more !== true && sameCursor(page.cursor, sent) ? { ...page, cursor: null, done: true } : page;
  if (page.lastItemId === null) return page;
  if (!page.done && sameCursor(page.cursor, sent)) {
    const warning = `The cursor field \`${name}\` does not advance: it sent back the last_id it was given (${String(sent)}). Continuing from the last item's id; set list.cursor to none in the service map.`;
    return { ...page, cursor: page.lastItemId, cursorEchoed: true, warnings: [...page.warnings, warning] };
  }
  const firstPageEcho = sent === null && page.done && page.cursor === null && page.more === null && page.total === null;
  if (firstPageEcho && name === map.list.cursorParam) {
    const warning = `The cursor field \`${name}\` is null on the first page, as a field that sends back the request's ${map.list.cursorParam} is: asked for the page after the last item to tell that from the end. If the service pages by the last item's id, set list.cursor to none in the service map.`;
    return { ...page, cursor: page.lastItemId, done: false, warnings: [...page.warnings, warning] };
  }
  return page;
}
