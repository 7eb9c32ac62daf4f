/** One page of the catalog through the rate-aware client: the download's step and the dashboard's paged table. */
import { parsePage } from './page';
import type { Cursor, ParsedPage } from './page';
import type { CatalogClient } from './client-port';
import { DEFAULT_DOWNLOAD_PAGE_SIZE, LAST_ID_PARAM, badSetting, pageShape, validatePageSize, validatePageSizeParam } from './settings';
import type { PageShape } from './settings';

export interface ReadPageOptions extends Partial<PageShape> {
  /** The cursor from the previous page; null or absent for the first page. */
  lastId?: Cursor | null;
  /** Default 100. */
  pageSize?: number;
  /** Default 'per-page'. */
  pageSizeParam?: string;
  signal?: AbortSignal;
  /** Default 'interactive'; the download reads in the background. */
  priority?: 'interactive' | 'background';
}

/** Reads one page. Throws PartnerError: the client's errors, BAD_REQUEST for bad settings, INVALID_RESPONSE. */
export async function readPage(client: CatalogClient, options: ReadPageOptions = {}): Promise<ParsedPage> {
  const shape = pageShape(options);
  const pageSize = validatePageSize(options.pageSize ?? DEFAULT_DOWNLOAD_PAGE_SIZE);
  const sizeParam = validatePageSizeParam(options.pageSizeParam);
  const lastId = options.lastId ?? null;
  // An empty last_id is a 400 that still costs a slot: refuse it here.
  if (lastId !== null && String(lastId) === '') throw badSetting('The cursor (last_id) must not be empty.');
  const query: Record<string, string | number | undefined> = { [sizeParam]: pageSize };
  if (lastId !== null) query[LAST_ID_PARAM] = lastId;
  const response = await client.request('listAssets', {
    query,
    priority: options.priority ?? 'interactive',
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return parsePage(response.body, shape);
}
