/** One page of the catalog through the rate-aware client: the download's step and the dashboard's paged table. */
import { foundAlternative } from '../../shared/service-map/field-path';
import { listRequest } from '../../shared/service-map/requests';
import { verifyPage } from '../../shared/service-map/verify';
import { assertPageUsable, parsePage, sameCursor } from './page';
import type { Cursor, ParsedPage } from './page';
import type { BudgetSample } from '../../shared/rate-limit';
import type { CatalogClient } from './client-port';
import { DEFAULT_DOWNLOAD_PAGE_SIZE, pageShape } from './settings';
import type { PageShape } from './settings';

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
  const page = withoutEcho(parsed, lastId, map.list.cursor);
  const asked = Math.min(pageSize, map.list.pageSizeMax);
  return { ...page, warnings: [...page.warnings, ...verifyPage({ asked, param: map.list.pageSizeParam, received: page.received, done: page.done })] };
}

/**
 * A cursor equal to the one sent never advances (a field that echoes the request, or a constant):
 * asking with it again would loop. The next page starts after this page's last item (the spec's
 * rule); whether this page itself can be trusted depends on where the sent cursor came from (the download knows).
 */
function withoutEcho(page: ParsedPage, sent: Cursor | null, field: string | null): ParsedPage {
  if (field === null || page.done || page.items.length === 0 || page.lastItemId === null || !sameCursor(page.cursor, sent)) return page;
  const warning = `The cursor field \`${foundAlternative(page.raw, field) ?? field}\` does not advance: it sent back the last_id it was given (${String(sent)}). Continuing from the last item's id; set list.cursor to none in the service map.`;
  return { ...page, cursor: page.lastItemId, cursorEchoed: true, warnings: [...page.warnings, warning] };
}
