/**
 * The usual names of each field across services, compared after normalisation (any case style:
 * camelCase, snake_case, kebab-case, PascalCase, dotted parents: `price.amount` ~ `priceAmount`).
 * Earlier names are likelier. Used by detection only; the readers follow the map.
 */

/** `totalCount`, `total_count`, `Total-Count`, `total.count` -> `totalcount`. */
export function norm(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

const list = (...names: string[]): readonly string[] => names.map(norm);

export const NAMES = {
  envelope: list('items', 'data', 'results', 'records', 'assets', 'content', 'hits', 'rows', 'entries', 'list', 'elements', 'values', 'nodes', 'products', 'collection', 'objects', 'docs', 'result', 'categories', 'history', 'points', 'prices', 'events', 'series', 'purchases'),
  id: list('id', 'asset_id', 'uuid', '_id', 'asset_uuid', 'asset_key', 'asset_guid', 'item_id', 'product_id', 'key', 'guid', 'uid', 'identifier', 'sku', 'code', 'slug'),
  title: list('title', 'name', 'label', 'display_name', 'headline', 'caption', 'asset_name', 'asset_title'),
  category: list('category', 'category_id', 'category_slug', 'category_key', 'category_code', 'category_name', 'cat', 'category.slug', 'category.id', 'category.key', 'category.code', 'category.name', 'genre', 'section', 'type'),
  price: list('price', 'amount', 'unit_price', 'price_cents', 'price_minor', 'price_amount', 'price_value', 'price.amount', 'price.value', 'amount_cents', 'amount_minor', 'price_in_cents', 'price_in_minor_units', 'cost', 'list_price', 'value'),
  currency: list('currency', 'currency_code', 'price_currency', 'price.currency', 'ccy', 'iso_currency', 'currency.code', 'price.currency.code', 'currency_iso'),
  cursor: list('next_cursor', 'next_last_id', 'next', 'cursor', 'after', 'next_page_token', 'continuation', 'next_token', 'links.next', 'meta.next', 'meta.next_cursor', 'paging.next', 'pagination.next', 'page_info.end_cursor', 'end_cursor', 'last_id', 'last'),
  hasMore: list('has_more', 'has_next', 'more', 'has_next_page', 'meta.has_more', 'next_page_exists', 'page_info.has_next_page', 'pagination.has_more', 'is_last', 'last_page'),
  total: list('total', 'total_count', 'total_items', 'total_results', 'total_elements', 'count', 'meta.total', 'hits.total', 'hits.total.value', 'pagination.total', 'page.total_elements', 'size', 'num_found', 'found'),
  categoryId: list('id', 'slug', 'key', 'code', 'category_id', 'category', 'value', 'name'),
  categoryName: list('name', 'title', 'label', 'display_name', 'description', 'category_name'),
  categoryCount: list('count', 'asset_count', 'assets_count', 'total', 'items', 'size', 'n', 'num_assets', 'number_of_assets', 'item_count', 'assets'),
  time: list('at', 'time', 'timestamp', 'ts', 'date', 'changed_at', 'created_at', 'updated_at', 'recorded_at', 'effective_at', 'when', 't', 'datetime', 'valid_from', 'from', 'day'),
  value: list('price', 'value', 'amount', 'price_cents', 'price_minor', 'price_amount', 'price.amount', 'price.value', 'amount_cents', 'v', 'y', 'close'),
  event: list('event', 'change_type', 'event_type', 'type', 'kind', 'change', 'action', 'reason'),
  purchaseId: list('id', 'purchase_id', 'uuid', '_id', 'order_id', 'key', 'reference_id'),
  purchaseState: list('state', 'status', 'purchase_state', 'purchase_status', 'phase', 'stage'),
  purchaseAsset: list('asset_id', 'asset', 'asset.id', 'item_id', 'product_id', 'assetid', 'sku'),
  /** Related-resource objects that hold a purchase's asset by its id (JSON:API `relationships.asset.data.id`, HAL, GraphQL). */
  purchaseAssetRelation: list('asset', 'item', 'product', 'listing', 'offer'),
  purchaseReference: list('client_reference', 'reference', 'client_ref', 'external_id', 'external_reference', 'idempotency_key', 'ref', 'client_id'),
  url: list('url', 'href', 'link', 'download_url', 'view_url', 'uri', 'location', 'signed_url', 'links.self', 'links.download'),
  expiryTime: list('expires_at', 'expiry', 'expires', 'valid_until', 'expiration', 'expiration_time', 'expire_at', 'expiry_time', 'expires_on', 'until'),
  expirySeconds: list('expires_in', 'ttl', 'expires_after', 'lifetime', 'valid_for', 'expiry_seconds', 'max_age'),
  /** Containers that hold an item's fields (JSON:API, Elasticsearch, GraphQL edges). */
  container: list('attributes', '_source', 'node', 'fields', 'properties', 'data', 'item', 'asset', 'purchase', 'result'),
} as const;

/** Candidate parameter names sent in the one probing list request, each with a distinct value. */
export const PAGE_SIZE_PARAMS: readonly string[] = ['per-page', 'limit', 'per_page', 'pageSize', 'page_size', 'size', 'perPage', 'count', 'page[size]', 'max', 'take', 'top', 'rows', 'maxResults'];
/** Distinct odd page sizes no service picks as its default (so a default page never looks honoured). */
export const PROBE_PAGE_SIZES: readonly number[] = [11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61];

/** Candidate search body fields (dotted: nested objects, as in `{filter: {text}}`), each sent with its own value. */
export const SEARCH_TEXT_FIELDS: readonly string[] = [
  'query', 'q', 'search', 'text', 'term', 'keyword', 'keywords', 'search_text', 'searchText', 'search_term', 'searchTerm',
  'query_string', 'filter.text', 'filter.query', 'filter.q', 'filter.search',
];
export const SEARCH_CATEGORY_FIELDS: readonly string[] = [
  'category', 'category_id', 'categoryId', 'filter.category', 'category_code', 'categoryCode', 'category_slug', 'categorySlug',
  'cat', 'filter.category_id', 'filter.categoryId', 'category_key',
];
export const SEARCH_LIMIT_FIELDS: readonly string[] = [
  'limit', 'per_page', 'perPage', 'size', 'page_size', 'pageSize', 'max_results', 'maxResults', 'max_items', 'maxItems',
  'count', 'top', 'take', 'rows', 'page.size', 'page.limit', 'num',
];
export const PROBE_SEARCH_LIMITS: readonly number[] = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18];

/** Usual purchase state words and their canonical state. */
export const STATE_SYNONYMS: Readonly<Record<'registered' | 'validated' | 'cancelled', readonly string[]>> = {
  registered: ['registered', 'created', 'pending', 'new', 'open', 'reserved', 'initiated', 'submitted', 'awaiting_validation', 'unvalidated'],
  validated: ['validated', 'valid', 'confirmed', 'approved', 'verified', 'paid', 'active', 'completed', 'complete', 'fulfilled'],
  cancelled: ['cancelled', 'canceled', 'voided', 'void', 'revoked', 'aborted', 'refunded', 'rejected'],
};
