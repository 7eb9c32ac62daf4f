/**
 * A payload dialect: the same service (catalog, purchases, limiter) with another face. A dialect is
 * a table of names for requests (read into the canonical request) and one function per endpoint
 * for answers (the canonical 200 answer written in the dialect's JSON). Errors keep one shape.
 */
import type { EndpointId } from '../../../shared/endpoints';
import type { SimDialect } from '../../../shared/sim-dialects';
import type { CatalogPage, CategoryCount, SearchResult, SimHistoryEntry } from '../asset-catalog';
import type { SimPurchase } from '../purchases';

export interface UrlAnswer {
  purchase_id: string;
  url: string;
  expires_at: string;
}

/** The canonical (default dialect's) 200 answer of each endpoint. */
export interface CanonicalAnswers {
  listAssets: CatalogPage;
  categories: { items: CategoryCount[] };
  searchAssets: SearchResult;
  assetHistory: { asset_id: number; items: SimHistoryEntry[] };
  registerPurchase: SimPurchase;
  /** By purchase id: the purchase; by client reference: a list. */
  purchaseInfo: SimPurchase | { items: SimPurchase[] };
  validatePurchase: SimPurchase;
  downloadUrl: UrlAnswer;
  viewUrl: UrlAnswer;
  cancelPurchase: SimPurchase;
}

/** One function per endpoint; `query` is the request's own (dialect) query, for links. */
export type AnswerTable = { [E in EndpointId]: (body: CanonicalAnswers[E], query: URLSearchParams) => unknown };

/**
 * The dialect's request names. Body names may be dotted (`filter.text` is `{ filter: { text } }`).
 * Only these names are read: anything else a client sends is ignored, as a real service would.
 */
export interface RequestNames {
  /** Query parameter of the list's page size. */
  pageSize: string;
  search: { text: string; category: string; limit: string };
  /** Body field of the history's asset id. */
  historyAsset: string;
  register: { asset: string; reference: string };
  /** Query parameter of the purchase id for info, download-url, view-url and cancel. */
  purchaseId: string;
  /** Where validate's argument goes, and whether it is the purchase's id or the asset's. */
  validate: { in: 'query' | 'body'; name: string; takes: 'purchase' | 'asset' };
  /** Query parameter of purchase info's lookup by client reference. */
  referenceLookup: string;
  /** The dialect's category id as the canonical one (identity when absent). */
  categoryIn?: (value: unknown) => unknown;
  /** The dialect's purchase id as the canonical one (identity when absent). */
  purchaseIdIn?: (value: string) => string;
}

export interface Dialect {
  readonly name: SimDialect;
  /** One line for banners and the panel. */
  readonly summary: string;
  /** null for `default`: the canonical shapes themselves, no translation at all. */
  readonly names: RequestNames | null;
  readonly answers: AnswerTable | null;
}
