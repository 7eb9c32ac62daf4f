/**
 * Detection from hand-written samples of several services' conventions (not the simulator's
 * dialects): envelopes, case styles, units, cursors; ambiguous and hostile answers.
 */
import { describe, expect, it } from 'vitest';
import { caseStyle, describeBody, detectPurchase, detectServiceMap, detectUrl, pickItems } from '../../shared/service-map/detect';
import { readAssetPage, readPurchase } from '../../shared/service-map/read';
import { DEFAULT_SERVICE_MAP } from '../../shared/service-map/schema';

const field = (p: { fields: { field: string; confidence: number }[] }, name: string) => p.fields.find((f) => f.field === name)?.confidence ?? -1;

describe('detection: convention families', () => {
  it('Django REST style: results + count + next link, snake_case, unit_price as a decimal string, currency object', () => {
    const body = {
      count: 1234,
      next: 'https://api.example.com/assets/list?last_id=17&page_size=3',
      previous: null,
      results: [
        { asset_id: 11, display_name: 'Red Castle', category_code: 'models', unit_price: '19.90', currency: { code: 'EUR', symbol: '€' } },
        { asset_id: 14, display_name: 'Blue Forest', category_code: 'textures', unit_price: '4.00', currency: { code: 'EUR', symbol: '€' } },
        { asset_id: 17, display_name: 'Neon Font', category_code: 'fonts', unit_price: '0.99', currency: { code: 'EUR', symbol: '€' } },
      ],
    };
    const p = detectServiceMap({ list: { body, pageSizes: { 'per-page': 11, limit: 13, page_size: 3 } } });
    expect(p.map.list).toMatchObject({ items: 'results', total: 'count', cursor: 'next', pageSizeParam: 'page_size' });
    expect(p.map.asset).toMatchObject({
      id: 'asset_id',
      title: 'display_name',
      category: 'category_code',
      price: 'unit_price',
      priceUnit: 'major',
      currency: 'currency',
    });
    const page = readAssetPage(body, p.map).value;
    expect(page.items[2]).toMatchObject({ id: 17, title: 'Neon Font', price: 0.99, currency: 'EUR' });
    expect(page.cursor).toBe('17');
    expect(p.map.register.assetIdField).toBe('asset_id');
    expect(p.confidence).toBeGreaterThan(0.8);
  });

  it('HAL: _embedded.assets, PascalCase-free camelCase, priceMinor integers, meta totals, has-more', () => {
    const items = Array.from({ length: 5 }, (_, i) => ({
      assetUuid: `u-${i}`,
      label: `Item ${i}`,
      categoryId: 'audio',
      priceMinor: 1000 + i * 250,
      currencyCode: 'USD',
    }));
    const body = { _embedded: { assets: items }, _links: { self: { href: '/x' } }, page: { totalElements: 40, hasMore: true } };
    const p = detectServiceMap({
      list: { body, pageSizes: { size: 5, limit: 7 } },
      categories: { categories: [{ key: 'audio', label: 'Audio', assetCount: 40 }] },
    });
    expect(p.map.list).toMatchObject({ items: '_embedded.assets', total: 'page.totalElements', hasMore: 'page.hasMore', pageSizeParam: 'size' });
    expect(p.map.asset).toMatchObject({
      id: 'assetUuid',
      title: 'label',
      category: 'categoryId',
      price: 'priceMinor',
      priceUnit: 'minor',
      currency: 'currencyCode',
    });
    expect(p.map.category).toMatchObject({ id: 'key', name: 'label', count: 'assetCount' });
    expect(readAssetPage(body, p.map).value.items[1]!.price).toBe(12.5);
    expect(p.map.register.assetIdField).toBe('assetId'); // the answers' case style
  });

  it('Elasticsearch hits: items under hits.hits, fields under _source, id beside it, total under hits.total.value', () => {
    const body = {
      took: 3,
      hits: {
        total: { value: 99 },
        hits: [
          { _id: 'a1', _source: { title: 'Alpha', price: 2.5, category: 'x' } },
          { _id: 'a2', _source: { title: 'Beta', price: 3.5, category: 'y' } },
        ],
      },
    };
    const p = detectServiceMap({ list: { body } });
    expect(p.map.list.items).toBe('hits.hits');
    expect(p.map.asset).toMatchObject({ id: '_id', title: '_source.title', price: '_source.price' });
    expect(p.map.list.total).toBe('hits.total.value');
  });

  it('a bare top-level array; whole-number prices below 100 stay major; a page-size name honoured by none is a warning', () => {
    const body = [
      { id: 1, name: 'A', price: 5 },
      { id: 2, name: 'B', price: 12 },
      { id: 3, name: 'C', price: 30 },
    ];
    const p = detectServiceMap({ list: { body, pageSizes: { 'per-page': 11, limit: 13 } } });
    expect(p.map.list.items).toBe('');
    expect(p.map.asset.priceUnit).toBe('major');
    expect(p.map.list.pageSizeParam).toBe('per-page'); // kept
    expect(field(p, 'list.pageSizeParam')).toBe(0);
    expect(p.warnings.join(' ')).toContain('The page size is unknown');
  });

  it('the search trick: the names whose values the results show', () => {
    const list = {
      items: [
        { id: 1, title: 'red castle', category: 'models' },
        { id: 2, title: 'blue font', category: 'fonts' },
      ],
      total: 500,
      has_more: true,
    };
    const search = {
      body: {
        items: [
          { id: 5, title: 'blue wave', category: 'fonts' },
          { id: 9, title: 'deep blue', category: 'fonts' },
          { id: 12, title: 'blue sky', category: 'fonts' },
        ],
        total: 40,
      },
      text: { query: 'red', q: 'castle', search_text: 'blue' },
      category: { category: 'models', categoryId: 'fonts' },
      limit: { limit: 2, maxResults: 3, size: 4 },
    };
    const p = detectServiceMap({ list: { body: list }, search });
    expect(p.map.search).toMatchObject({ textField: 'search_text', categoryField: 'categoryId', limitField: 'maxResults', categoryType: 'string' });
    expect(field(p, 'search.limitField')).toBeGreaterThan(0.8);
  });

  it('purchases and links from a first real answer: envelopes, state words, expires_in', () => {
    const purchase = detectPurchase({ data: { orderId: 'o-1', status: 'PENDING', assetId: 7, clientReference: 'pc-1' } }, DEFAULT_SERVICE_MAP);
    expect(purchase.map.purchase).toMatchObject({ at: 'data', id: 'orderId', state: 'status', asset: 'assetId', reference: 'clientReference' });
    expect(purchase.map.states.find((s) => s.word === 'pending')?.state).toBe('registered');
    const url = detectUrl({ href: 'https://cdn.example/x', ttl: 300 }, DEFAULT_SERVICE_MAP);
    expect(url.map.url).toMatchObject({ url: 'href', expiry: 'ttl', expiryKind: 'seconds' });
  });

  it("a purchase's asset held by a related-resource object (JSON:API relationships, an embedded product), bounded", () => {
    const jsonapi = {
      data: { type: 'purchase', id: 'P-1', attributes: { state: 'pending' }, relationships: { asset: { data: { type: 'asset', id: '42' } } } },
    };
    const p = detectPurchase(jsonapi, DEFAULT_SERVICE_MAP);
    expect(p.map.purchase).toMatchObject({ at: 'data', id: 'id', state: 'attributes.state', asset: 'relationships.asset.data.id' });
    expect(readPurchase(jsonapi, p.map).value?.asset_id).toBe('42');
    const embedded = detectPurchase({ orderId: 'o-1', status: 'done', _embedded: { product: { uuid: 'p-9', name: 'x' } } }, DEFAULT_SERVICE_MAP);
    expect(embedded.map.purchase.asset).toBe('_embedded.product.uuid');
    // Too deep to be the purchase's own relation: not taken.
    const deep = detectPurchase({ id: 'P-2', state: 'pending', a: { b: { c: { asset: { id: 5 } } } } }, DEFAULT_SERVICE_MAP);
    expect(deep.map.purchase.asset).toBeNull();
  });

  it('case style from the keys', () => {
    expect(caseStyle({ totalCount: 1, hasMore: true, items: [{ priceCents: 1 }] })).toBe('camel');
    expect(caseStyle({ total_count: 1, has_more: true })).toBe('snake');
    expect(caseStyle({ items: [{ id: 1 }] })).toBeNull();
  });
});

describe('detection: ambiguous and hostile answers', () => {
  it('never picks a cursor that does not follow the last item: an echo of the request (null on page 1), an earlier id, 0', () => {
    const items = Array.from({ length: 10 }, (_, i) => ({ id: i + 1, title: `Asset ${i + 1}` }));
    const pageSizes = { 'per-page': 10, limit: 13 };
    // The probe's page 1 of a service whose `last_id` echoes the request: null, while has_more and the total say more follow.
    const echo = detectServiceMap({ list: { body: { items, last_id: null, has_more: true, total: 50 }, pageSizes } });
    expect(echo.map.list).toMatchObject({ cursor: null, hasMore: 'has_more', total: 'total', pageSizeParam: 'per-page' });
    expect(echo.fields.find((f) => f.field === 'list.cursor')?.evidence).toMatch(/`last_id` = null does not follow the last item/);
    expect(readAssetPage({ items, last_id: null, has_more: true, total: 50 }, echo.map).value).toMatchObject({ cursor: 10, done: false });
    // Only the total says more follow: still an echo.
    expect(detectServiceMap({ list: { body: { items, last_id: null, total: 50 }, pageSizes } }).map.list.cursor).toBeNull();
    // A constant that is an item's id before the last, or 0.
    expect(detectServiceMap({ list: { body: { items, cursor: 1, has_more: true }, pageSizes } }).map.list.cursor).toBeNull();
    expect(detectServiceMap({ list: { body: { items, next_cursor: 0, has_more: true }, pageSizes } }).map.list.cursor).toBeNull();
    // What follows the last item is kept: its id, a next link to it, an opaque token; and null on a last page.
    expect(detectServiceMap({ list: { body: { items, next_last_id: 10, has_more: true }, pageSizes } }).map.list.cursor).toBe('next_last_id');
    expect(detectServiceMap({ list: { body: { items, links: { next: '/assets/list?last_id=10' } }, pageSizes } }).map.list.cursor).toBe('links.next');
    expect(detectServiceMap({ list: { body: { items, next_page_token: 'eyJvIjoxMH0', has_more: true }, pageSizes } }).map.list.cursor).toBe('next_page_token');
    expect(detectServiceMap({ list: { body: { items, next_cursor: null, has_more: false }, pageSizes } }).map.list.cursor).toBe('next_cursor');
  });

  it('two equally good arrays: low confidence and a reason', () => {
    const twin = [
      { id: 1, title: 'a' },
      { id: 2, title: 'b' },
    ];
    const p = detectServiceMap({ list: { body: { items: twin, records: twin.map((x) => ({ ...x })) } } });
    expect(field(p, 'list.items')).toBeLessThan(0.6);
    expect(p.warnings.join(' ')).toMatch(/Two arrays .* look equally like its items/);
  });

  it('HTML, null, a string, a number: confidence 0 and the reason in words, never a throw', () => {
    for (const body of ['<!DOCTYPE html><html><body>Bad gateway</body></html>', null, 'ok', 42]) {
      const p = detectServiceMap({ list: { body }, categories: body });
      expect(p.confidence).toBe(0);
      expect(p.warnings.join(' ')).toContain(describeBody(body));
    }
    expect(describeBody('<html>')).toContain('HTML');
  });

  it('deeply nested and huge answers stay bounded', () => {
    let deep: unknown = { items: [{ id: 1 }] };
    for (let i = 0; i < 5000; i++) deep = { next: deep };
    expect(() => detectServiceMap({ list: { body: deep } })).not.toThrow();
    const huge = { items: Array.from({ length: 200_000 }, (_, i) => ({ id: i, title: `t${i}`, price: i / 10 })) };
    const started = performance.now();
    const p = detectServiceMap({ list: { body: huge } });
    expect(p.map.asset.title).toBe('title');
    expect(performance.now() - started).toBeLessThan(5000); // bounded sample, not a speed target
    expect(pickItems({ a: [1, 2, 3] }, 'list').confidence).toBe(0);
  });
});
