/**
 * `snake-envelope`: every answer wrapped as `{ status: "ok", result: ... }`, snake_case, numeric
 * asset ids under `asset_id`, money as `unit_price` (major units) and `currency`, epoch-second
 * dates, states new | approved | cancelled. Lists `result.records` with `result.paging`
 * `{ total, next_last_id }`; page size `page_size`; search `{ search_text, category_code, max_items }`;
 * history `result.points[{ ts, amount }]`; purchase id `purchase_id` (query, and validate's body).
 */
import type { PurchaseState } from '../../../shared/catalog';
import type { SimAsset } from '../asset-catalog';
import type { SimPurchase } from '../purchases';
import { epochS } from './convert';
import type { Dialect, UrlAnswer } from './types';

const STATES: Record<PurchaseState, string> = { registered: 'new', validated: 'approved', cancelled: 'cancelled' };

const ok = (result: unknown) => ({ status: 'ok', result });

function asset(a: SimAsset) {
  return {
    asset_id: a.id,
    display_name: a.title,
    category_code: a.category,
    unit_price: a.price,
    currency: a.currency,
    rating: a.rating,
    download_count: a.downloads,
    tags: a.tags,
    created_at: epochS(a.created_at),
    updated_at: epochS(a.updated_at),
  };
}

function purchase(p: SimPurchase) {
  return {
    purchase_id: p.id,
    asset_id: p.asset_id,
    state: STATES[p.state],
    unit_price: p.price,
    currency: p.currency,
    ...(p.client_reference !== undefined ? { client_reference: p.client_reference } : {}),
    created_at: epochS(p.created_at),
    updated_at: epochS(p.updated_at),
  };
}

const one = (p: SimPurchase) => ok({ purchase: purchase(p) });
const link = (u: UrlAnswer) => ok({ purchase_id: u.purchase_id, url: u.url, expires_at: epochS(u.expires_at) });

export const snakeEnvelope: Dialect = {
  name: 'snake-envelope',
  summary: 'snake_case in { status, result } envelopes, records/paging, unit_price, epoch-second dates, page_size',
  names: {
    pageSize: 'page_size',
    search: { text: 'search_text', category: 'category_code', limit: 'max_items' },
    historyAsset: 'asset_id',
    register: { asset: 'asset_id', reference: 'client_reference' },
    purchaseId: 'purchase_id',
    validate: { in: 'body', name: 'purchase_id', takes: 'purchase' },
    referenceLookup: 'client_reference',
  },
  answers: {
    listAssets: (page) => ok({ records: page.items.map(asset), paging: { total: page.total, next_last_id: page.has_more ? page.last_id : null } }),
    categories: (c) => ok({ records: c.items.map((k) => ({ code: k.id, title: k.name, asset_count: k.count })) }),
    searchAssets: (s) => ok({ records: s.items.map(asset), paging: { total: s.total, total_capped: s.total_capped } }),
    assetHistory: (h) => ok({ asset_id: h.asset_id, points: h.items.map((e) => ({ ts: epochS(e.at), amount: e.price, event: e.event })) }),
    registerPurchase: one,
    purchaseInfo: (r) => ('items' in r ? ok({ records: r.items.map(purchase) }) : one(r)),
    validatePurchase: one,
    downloadUrl: link,
    viewUrl: link,
    cancelPurchase: one,
  },
};
