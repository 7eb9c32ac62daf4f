/**
 * The endpoint table: the one place that knows the Partner service's 10 operations.
 * The simulator's routes, the client's buckets and the dashboard's charts all read it.
 */
export type HttpMethod = 'GET' | 'POST' | 'DELETE';
export type EndpointGroup = 'catalog' | 'purchase';

export interface EndpointSpec {
  readonly id: EndpointId;
  readonly method: HttpMethod;
  readonly path: string;
  readonly group: EndpointGroup;
  /** Documented limit in requests per second, per vendor. */
  readonly limit: number;
  /**
   * May the request be sent again after an unknown outcome (timeout, dropped connection, 5xx)?
   * Only registration creates something; every other operation reads, or moves a purchase to a
   * state that a second attempt cannot move it past (the second attempt gets 409, nothing doubles).
   */
  readonly safeToResend: boolean;
  /** Short human label for tables and charts. */
  readonly label: string;
}

export const ENDPOINT_IDS = [
  'listAssets',
  'searchAssets',
  'assetHistory',
  'categories',
  'purchaseInfo',
  'registerPurchase',
  'validatePurchase',
  'downloadUrl',
  'viewUrl',
  'cancelPurchase',
] as const;

export type EndpointId = (typeof ENDPOINT_IDS)[number];

export const ENDPOINTS: Readonly<Record<EndpointId, EndpointSpec>> = {
  listAssets: { id: 'listAssets', method: 'GET', path: '/assets/list', group: 'catalog', limit: 20, safeToResend: true, label: 'GET /assets/list' },
  searchAssets: { id: 'searchAssets', method: 'POST', path: '/assets/search', group: 'catalog', limit: 20, safeToResend: true, label: 'POST /assets/search' },
  assetHistory: { id: 'assetHistory', method: 'POST', path: '/assets/history', group: 'catalog', limit: 10, safeToResend: true, label: 'POST /assets/history' },
  categories: { id: 'categories', method: 'GET', path: '/assets/categories', group: 'catalog', limit: 20, safeToResend: true, label: 'GET /assets/categories' },
  purchaseInfo: { id: 'purchaseInfo', method: 'GET', path: '/purchase/info', group: 'purchase', limit: 50, safeToResend: true, label: 'GET /purchase/info' },
  registerPurchase: {
    id: 'registerPurchase',
    method: 'POST',
    path: '/purchase/register',
    group: 'purchase',
    limit: 50,
    safeToResend: false,
    label: 'POST /purchase/register',
  },
  validatePurchase: {
    id: 'validatePurchase',
    method: 'POST',
    path: '/purchase/validate-purchase-before-payment',
    group: 'purchase',
    limit: 50,
    safeToResend: true,
    label: 'POST /purchase/validate…',
  },
  downloadUrl: {
    id: 'downloadUrl',
    method: 'GET',
    path: '/purchase/download-url',
    group: 'purchase',
    limit: 50,
    safeToResend: true,
    label: 'GET /purchase/download-url',
  },
  viewUrl: { id: 'viewUrl', method: 'GET', path: '/purchase/view-url', group: 'purchase', limit: 50, safeToResend: true, label: 'GET /purchase/view-url' },
  cancelPurchase: {
    id: 'cancelPurchase',
    method: 'DELETE',
    path: '/purchase/cancel',
    group: 'purchase',
    limit: 50,
    safeToResend: true,
    label: 'DELETE /purchase/cancel',
  },
};

export const ENDPOINT_LIST: readonly EndpointSpec[] = ENDPOINT_IDS.map((id) => ENDPOINTS[id]);

export function isEndpointId(value: unknown): value is EndpointId {
  return typeof value === 'string' && (ENDPOINT_IDS as readonly string[]).includes(value);
}

/** The endpoint served at a method and path, if any. */
export function findEndpoint(method: string, path: string): EndpointSpec | undefined {
  return ENDPOINT_LIST.find((e) => e.path === path && e.method === method.toUpperCase());
}

/** Sort order of endpoints in every table: ENDPOINT_IDS' order; unknown ids last, by name. */
export function compareEndpoints(a: string, b: string): number {
  const ia = (ENDPOINT_IDS as readonly string[]).indexOf(a);
  const ib = (ENDPOINT_IDS as readonly string[]).indexOf(b);
  return (ia < 0 ? Infinity : ia) - (ib < 0 ? Infinity : ib) || a.localeCompare(b);
}
