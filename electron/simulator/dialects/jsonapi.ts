/**
 * `jsonapi`: JSON:API documents. Resources `{ type, id: "123", attributes, relationships }` under
 * `data`, `meta.total`, `links.next`; camelCase attributes, string ids, ISO dates, money as
 * `{ amount: "12.99", currency: "USD" }`, states pending | confirmed | void. Page size `page[size]`,
 * search `{ filter: { text, category }, page: { size } }`, purchase id in the query as `purchaseId`
 * (validate too), lookup by `filter[clientReference]`.
 */
import type { PurchaseState } from '../../../shared/catalog';
import { PAGE_SIZE_DEFAULT } from '../../../shared/catalog';
import type { SimAsset } from '../asset-catalog';
import type { SimPurchase } from '../purchases';
import { CATEGORIES } from '../words';
import { decimalString } from './convert';
import type { Dialect, UrlAnswer } from './types';

const STATES: Record<PurchaseState, string> = { registered: 'pending', validated: 'confirmed', cancelled: 'void' };
const PAGE_SIZE = 'page[size]';

const money = (major: number, currency: string) => ({ amount: decimalString(major), currency });

function asset(a: SimAsset) {
  const category = CATEGORIES.find((c) => c.id === a.category);
  return {
    type: 'asset',
    id: String(a.id),
    attributes: {
      title: a.title,
      category: { slug: a.category, name: category?.name ?? a.category },
      price: money(a.price, a.currency),
      rating: a.rating,
      downloads: a.downloads,
      tags: a.tags,
      createdAt: a.created_at,
      updatedAt: a.updated_at,
    },
  };
}

function purchase(p: SimPurchase) {
  return {
    type: 'purchase',
    id: p.id,
    attributes: {
      state: STATES[p.state],
      price: money(p.price, p.currency),
      ...(p.client_reference !== undefined ? { clientReference: p.client_reference } : {}),
      createdAt: p.created_at,
      updatedAt: p.updated_at,
    },
    relationships: { asset: { data: { type: 'asset', id: String(p.asset_id) } } },
  };
}

function link(kind: 'download-url' | 'view-url') {
  return (u: UrlAnswer) => ({ data: { type: kind, id: u.purchase_id, attributes: { url: u.url, expiresAt: u.expires_at } } });
}

const one = (p: SimPurchase) => ({ data: purchase(p) });

export const jsonapi: Dialect = {
  name: 'jsonapi',
  summary: 'JSON:API documents (data[].attributes), string ids, decimal-string money, ISO dates, page[size]',
  names: {
    pageSize: PAGE_SIZE,
    search: { text: 'filter.text', category: 'filter.category', limit: 'page.size' },
    historyAsset: 'assetId',
    register: { asset: 'assetId', reference: 'clientReference' },
    purchaseId: 'purchaseId',
    validate: { in: 'query', name: 'purchaseId', takes: 'purchase' },
    referenceLookup: 'filter[clientReference]',
  },
  answers: {
    listAssets: (page, query) => {
      const size = query.get(PAGE_SIZE) ?? String(PAGE_SIZE_DEFAULT);
      return {
        data: page.items.map(asset),
        meta: { total: page.total },
        links: { next: page.has_more && page.last_id !== null ? `/assets/list?last_id=${page.last_id}&${PAGE_SIZE}=${size}` : null },
      };
    },
    categories: (c) => ({
      data: c.items.map((k) => ({ type: 'category', id: k.id, attributes: { name: k.name, assetCount: k.count } })),
      meta: { total: c.items.length },
    }),
    searchAssets: (s) => ({ data: s.items.map(asset), meta: { total: s.total, totalIsLowerBound: s.total_capped } }),
    assetHistory: (h) => ({
      data: h.items.map((e) => ({
        type: 'price-point',
        id: `${h.asset_id}-${e.version}`,
        attributes: { recordedAt: e.at, event: e.event, price: money(e.price, 'USD'), version: e.version },
      })),
      meta: { assetId: String(h.asset_id) },
    }),
    registerPurchase: one,
    purchaseInfo: (r) => ('items' in r ? { data: r.items.map(purchase), meta: { total: r.items.length } } : one(r)),
    validatePurchase: one,
    downloadUrl: link('download-url'),
    viewUrl: link('view-url'),
    cancelPurchase: one,
  },
};
