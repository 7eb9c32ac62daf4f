/**
 * `camel-minor`: camelCase `{ items, nextCursor, hasMore, totalCount }`, numeric ids (assets,
 * categories, purchases), money in minor units (`priceCents`) with `currencyCode`, epoch-ms dates,
 * states PENDING | APPROVED | CANCELED. Page size `limit`, search `{ q, categoryId, maxResults }`,
 * purchase id `purchaseId` in the query, validate takes the ASSET (`{ assetId }`), lookup `reference`,
 * URL answers with `expiresIn` seconds.
 */
import type { PurchaseState } from '../../../shared/catalog';
import { URL_LIFETIME_MS } from '../actions';
import type { SimAsset } from '../asset-catalog';
import type { SimPurchase } from '../purchases';
import { categoryFromNumber, categoryNumber, epochMs, minorUnits, purchaseFromNumber, purchaseNumber } from './convert';
import type { Dialect, UrlAnswer } from './types';

const STATES: Record<PurchaseState, string> = { registered: 'PENDING', validated: 'APPROVED', cancelled: 'CANCELED' };

function asset(a: SimAsset) {
  return {
    id: a.id,
    name: a.title,
    categoryId: categoryNumber(a.category),
    priceCents: minorUnits(a.price),
    currencyCode: a.currency,
    rating: a.rating,
    downloadCount: a.downloads,
    tags: a.tags,
    createdAt: epochMs(a.created_at),
    updatedAt: epochMs(a.updated_at),
  };
}

function purchase(p: SimPurchase) {
  return {
    id: purchaseNumber(p.id),
    assetId: p.asset_id,
    status: STATES[p.state],
    priceCents: minorUnits(p.price),
    currencyCode: p.currency,
    ...(p.client_reference !== undefined ? { reference: p.client_reference } : {}),
    createdAt: epochMs(p.created_at),
    updatedAt: epochMs(p.updated_at),
  };
}

const link = (u: UrlAnswer) => ({ purchaseId: purchaseNumber(u.purchase_id), url: u.url, expiresIn: URL_LIFETIME_MS / 1000 });

export const camelMinor: Dialect = {
  name: 'camel-minor',
  summary: 'camelCase items/nextCursor/hasMore, numeric ids, priceCents, epoch-ms dates, limit; validate takes the asset',
  names: {
    pageSize: 'limit',
    search: { text: 'q', category: 'categoryId', limit: 'maxResults' },
    historyAsset: 'assetId',
    register: { asset: 'assetId', reference: 'reference' },
    purchaseId: 'purchaseId',
    validate: { in: 'body', name: 'assetId', takes: 'asset' },
    referenceLookup: 'reference',
    categoryIn: categoryFromNumber,
    purchaseIdIn: purchaseFromNumber,
  },
  answers: {
    listAssets: (page) => ({ items: page.items.map(asset), nextCursor: page.has_more ? page.last_id : null, hasMore: page.has_more, totalCount: page.total }),
    categories: (c) => ({
      items: c.items.map((k) => ({ id: categoryNumber(k.id), name: k.name, slug: k.id, assetCount: k.count })),
      totalCount: c.items.length,
    }),
    searchAssets: (s) => ({ items: s.items.map(asset), totalCount: s.total, totalIsLowerBound: s.total_capped }),
    assetHistory: (h) => ({
      assetId: h.asset_id,
      history: h.items.map((e) => ({ timestamp: epochMs(e.at), priceCents: minorUnits(e.price), changeType: e.event.toUpperCase() })),
    }),
    registerPurchase: purchase,
    purchaseInfo: (r) => ('items' in r ? { items: r.items.map(purchase), totalCount: r.items.length } : purchase(r)),
    validatePurchase: purchase,
    downloadUrl: link,
    viewUrl: link,
    cancelPurchase: purchase,
  },
};
