/** Verification warnings (a setting the service ignores) and learning validate's shape from a 400. */
import { describe, expect, it } from 'vitest';
import { validateFrom400 } from '../../shared/service-map/learn';
import { verifyPage, verifySearch } from '../../shared/service-map/verify';
import { DEFAULT_SERVICE_MAP } from '../../shared/service-map/schema';

describe('verification', () => {
  it('a page larger than asked, or smaller while more follow, names the page-size parameter', () => {
    expect(verifyPage({ asked: 10, param: 'per-page', received: 20, done: false })[0]).toContain('The page-size parameter `per-page` seems ignored');
    expect(verifyPage({ asked: 10, param: 'limit', received: 20, done: true })).toHaveLength(1);
    expect(verifyPage({ asked: 50, param: 'limit', received: 20, done: false })[0]).toContain('list.pageSizeParam');
    // The last page is smaller, and that is fine; so is an exact page.
    expect(verifyPage({ asked: 50, param: 'limit', received: 20, done: true })).toEqual([]);
    expect(verifyPage({ asked: 50, param: 'limit', received: 50, done: false })).toEqual([]);
    expect(verifyPage({ asked: 50, param: null, received: 20, done: false })).toEqual([]);
  });

  it('a filtered search with items outside the category names the category field; too many results name the limit field', () => {
    const items = [
      { id: 1, category: 'audio' },
      { id: 2, category: 'fonts' },
    ];
    expect(verifySearch({ category: 'audio', field: 'category', limit: 5, limitField: 'limit', items })[0]).toContain(
      'The category filter `category` seems ignored: 1 of 2',
    );
    expect(verifySearch({ category: 'AUDIO', field: 'category', limit: 5, limitField: 'limit', items: items.slice(0, 1) })).toEqual([]);
    expect(verifySearch({ category: 'audio', field: null, limit: 5, limitField: null, items: [] })[0]).toContain('search.categoryField');
    expect(verifySearch({ category: null, field: 'category', limit: 1, limitField: 'limit', items })[0]).toContain('The search limit `limit` seems ignored');
  });
});

describe('validateFrom400', () => {
  const v = DEFAULT_SERVICE_MAP.validate;
  it('learns that validate takes the asset, or the same name in the query, from the service words', () => {
    expect(validateFrom400('Missing required field: assetId', v)).toEqual({ in: 'body', name: 'assetId', takes: 'asset' });
    expect(validateFrom400('Parameter "purchase_id" is required.', { ...v, in: 'body' })).toEqual({ ...v, in: 'query' });
    expect(validateFrom400('Invalid request body: purchaseId: expected string', v)).toEqual({ ...v, name: 'purchaseId' });
  });
  it('names nothing new: null (the 400 stands)', () => {
    expect(validateFrom400('Request body is not valid JSON.', v)).toBeNull();
    expect(validateFrom400('Missing required field: assetId', { ...v, takes: 'asset', name: 'assetId' })).toBeNull();
  });
});
