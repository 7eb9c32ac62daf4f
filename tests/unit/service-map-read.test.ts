/** Readers: what they read, what they name as missing, and that they never throw. */
import { describe, expect, it } from 'vitest';
import { readAssetPage, readCategories, readHistory, readPurchase, readSearch, readUrl } from '../../shared/service-map/read';
import { keepDetectedLayouts, readHistoryOrDetect, readPurchaseOrDetect, readUrlOrDetect } from '../../shared/service-map/fallback';
import { DEFAULT_SERVICE_MAP } from '../../shared/service-map/schema';
import type { ServiceMap } from '../../shared/service-map/schema';

const D = DEFAULT_SERVICE_MAP;
const map = (patch: (m: ServiceMap) => ServiceMap): ServiceMap => patch(structuredClone(D));

describe('readAssetPage', () => {
  it("says so when items of a page share an id (the id field is not the assets' id), and only then", () => {
    const byPrice = map((x) => ({ ...x, asset: { ...x.asset, id: 'price' } }));
    const body = {
      items: [
        { id: 7, title: 'Castle', price: 15 },
        { id: 15, title: 'Dragon', price: 15 },
        { id: 16, title: 'Elf', price: 3 },
      ],
    };
    expect(readAssetPage(body, byPrice).warnings).toEqual([
      expect.stringMatching(/^1 item\(s\) of this page share an id .*asset\.id = `price`/),
      // The service's own id is not lost: kept under `source`, and said so.
      expect.stringMatching(/field `id` is kept as sent under `source.id`/),
    ]);
    expect(readAssetPage(body, D).warnings).toEqual([]);
  });

  it('reads the simulator page: items, cursor, has-more, total, other fields beside the named ones', () => {
    const r = readAssetPage(
      { items: [{ id: 1, title: 'A', category: 'audio', price: 12.5, currency: 'USD', rating: 4 }], last_id: 1, has_more: true, total: 9 },
      D,
    );
    expect(r.value).toEqual({
      items: [{ id: 1, title: 'A', category: 'audio', price: 12.5, currency: 'USD', rating: 4 }],
      cursor: 1,
      done: false,
      more: true,
      total: 9,
      received: 1,
      lastItemId: 1,
    });
    expect(r.missing).toEqual([]);
  });

  it('JSON:API: nested fields, decimal strings exact, a next link as the cursor, the other attributes flattened', () => {
    const m = map((x) => ({
      ...x,
      list: { ...x.list, items: 'data', cursor: 'links.next', hasMore: null, total: 'meta.total' },
      asset: {
        ...x.asset,
        id: 'id',
        title: 'attributes.title',
        category: 'attributes.category.slug',
        price: 'attributes.price.amount',
        currency: 'attributes.price.currency',
      },
    }));
    const body = {
      data: [{ type: 'asset', id: '1001', attributes: { title: 'T', category: { slug: 'audio' }, price: { amount: '0.10', currency: 'EUR' }, rating: 3 } }],
      meta: { total: 50 },
      links: { next: '/assets/list?last_id=1001&page[size]=1' },
    };
    const r = readAssetPage(body, m);
    expect(r.value.items[0]).toEqual({ id: '1001', title: 'T', category: 'audio', price: 0.1, currency: 'EUR', type: 'asset', 'attributes.rating': 3 });
    expect(r.value.cursor).toBe('1001');
    expect(r.value.total).toBe(50);
    expect(readAssetPage({ ...body, links: { next: null } }, m).value.done).toBe(true);
    // An empty page with a next link and no total says more follows: not the end of the catalog.
    expect(readAssetPage({ data: [], meta: {}, links: { next: '/assets/list?last_id=1001' } }, m).value).toMatchObject({ done: false, total: null });
    expect(readAssetPage({ data: [], meta: {}, links: { next: null } }, m).value.done).toBe(true);
  });

  it('an empty page that says more follows is not done, whatever the dialect says it with; one that says nothing is', () => {
    const camel = map((x) => ({ ...x, list: { ...x.list, cursor: 'nextCursor', hasMore: 'hasMore', total: 'totalCount' } }));
    expect(readAssetPage({ items: [], nextCursor: null, hasMore: true }, camel).value.done).toBe(false);
    expect(readAssetPage({ items: [], nextCursor: 1040, hasMore: true }, camel).value).toMatchObject({ done: false, cursor: 1040 });
    expect(readAssetPage({ items: [], nextCursor: null, hasMore: false }, camel).value.done).toBe(true);
    expect(readAssetPage({ items: [], has_more: true, last_id: null }, D).value.done).toBe(false);
    expect(readAssetPage({ items: [] }, D).value.done).toBe(true);
  });

  it("a null cursor beside has-more true on a non-empty page is not an end: the last item's id, and a warning", () => {
    // A service whose `last_id` echoes the request (null on page 1): the default map reads that field.
    const r = readAssetPage({ items: [{ id: 1 }, { id: 7 }], last_id: null, has_more: true, total: 50 }, D);
    expect(r.value).toMatchObject({ done: false, cursor: 7, lastItemId: 7 });
    expect(r.warnings.join()).toMatch(/`last_id` is null while `has_more` says more follow: continuing from the last item's id/);
    // The signals agree: an end, with no warning.
    expect(readAssetPage({ items: [{ id: 1 }], last_id: null, has_more: false }, D)).toMatchObject({ value: { done: true, cursor: null }, warnings: [] });
    expect(readAssetPage({ items: [{ id: 1 }], last_id: null }, D).value.done).toBe(true);
  });

  it('minor units: divided by the currency digits (cents, yen, dinar); currency objects read', () => {
    const m = map((x) => ({ ...x, asset: { ...x.asset, price: 'priceCents', priceUnit: 'minor', currency: 'currency' } }));
    const items = [
      { id: 1, priceCents: 1299, currency: 'USD' },
      { id: 2, priceCents: '1299', currency: { code: 'JPY' } },
      { id: 3, priceCents: 1299, currency: 'KWD' },
    ];
    expect(readAssetPage(items, m).value.items.map((a) => [a.price, a.currency])).toEqual([
      [12.99, 'USD'],
      [1299, 'JPY'],
      [1.299, 'KWD'],
    ]);
    const fixed = map((x) => ({ ...x, asset: { ...x.asset, currency: null, fixedCurrency: 'EUR' } }));
    expect(readAssetPage([{ id: 1, price: 3 }], fixed).value.items[0]!.currency).toBe('EUR');
  });

  it('tolerant: wrong types and absent fields are named, the rest is read, nothing throws', () => {
    const r = readAssetPage({ items: [{ id: 1, title: { nested: true }, price: 'cheap' }, { title: 'no id' }, 'junk'] }, D);
    // Nothing of the item is lost: what could not be read is kept as sent, and said so.
    expect(r.value.items).toEqual([{ id: 1, source: { title: { nested: true }, price: 'cheap' } }]);
    expect(r.warnings).toEqual([
      expect.stringMatching(/^2 item\(s\) of this page have no readable id/),
      expect.stringMatching(/`title` could not be read as asset.title: kept as sent under `source.title`/),
      expect.stringMatching(/`price` could not be read as asset.price: kept as sent under `source.price`/),
    ]);
    expect(r.value.received).toBe(3);
    expect(r.missing).toEqual(expect.arrayContaining(['asset.title', 'asset.price', 'asset.id', 'asset']));
    for (const hostile of [null, '<html><body>502</body></html>', 42, { items: 'x' }]) {
      const h = readAssetPage(hostile, D);
      expect(h.value.items).toEqual([]);
      expect(h.value.done).toBe(true);
      expect(h.missing).toContain('list.items');
      expect(h.raw).toBe(hostile);
    }
  });
});

describe('the other readers', () => {
  it('search, categories (objects or bare names), history (epoch seconds and ms, sorted)', () => {
    expect(readSearch({ items: [{ id: 1 }], total: '7' }, D).value).toMatchObject({ total: 7, received: 1 });
    expect(readCategories({ items: [{ id: 'audio', name: 'Audio', count: 3 }, { id: 'x' }] }, D).value).toEqual([
      { id: 'audio', name: 'Audio', count: 3 },
      { id: 'x', name: 'x', count: null },
    ]);
    expect(readCategories(['audio', 'fonts'], D).value.map((c) => c.id)).toEqual(['audio', 'fonts']);
    const h = map((x) => ({ ...x, historyPoint: { time: 'ts', timeFormat: 'auto', value: 'amount', event: null } }));
    const read = readHistory(
      {
        points: [
          { ts: 1_700_000_100_000, amount: '2.50' },
          { ts: 1_700_000_000, amount: 2 },
        ],
      },
      h,
    );
    expect(read.value).toEqual([
      { at: '2023-11-14T22:13:20.000Z', event: '', price: 2 },
      { at: '2023-11-14T22:15:00.000Z', event: '', price: 2.5 },
    ]);
    expect(readHistory({ items: [{ at: 'yesterday-ish' }] }, D).missing).toContain('historyPoint.time');
  });

  it('a purchase in an envelope, state words from the map, an unknown word allowing every action with a warning', () => {
    const m = map((x) => ({ ...x, purchase: { ...x.purchase, at: 'result.purchase', id: 'purchase_id' } }));
    const ok = readPurchase({ result: { purchase: { purchase_id: 'p1', asset_id: 5, state: 'Validated' } } }, m);
    expect(ok.value).toMatchObject({ id: 'p1', asset_id: 5, state: 'Validated', stateKind: 'validated' });
    expect(ok.value.actions).toContain('downloadUrl');
    const odd = readPurchase({ id: 'p2', state: 'on_hold' }, D);
    expect(odd.value.stateKind).toBe('unknown');
    expect(odd.value.actions).toEqual(['purchaseInfo', 'validatePurchase', 'downloadUrl', 'viewUrl', 'cancelPurchase']);
    expect(odd.warnings[0]).toContain('"on_hold"');
  });

  it('URL answers: only http(s), expiry as a time or as seconds from now', () => {
    const now = Date.UTC(2026, 0, 1);
    expect(readUrl({ url: 'https://x.example/d', expires_at: '2026-01-01T00:15:00Z' }, D, now).value).toEqual({
      url: 'https://x.example/d',
      expiresAt: '2026-01-01T00:15:00.000Z',
    });
    const seconds = map((x) => ({ ...x, url: { ...x.url, expiry: 'expires_in', expiryKind: 'seconds' } }));
    expect(readUrl({ url: 'https://x.example/d', expires_in: 900 }, seconds, now).value.expiresAt).toBe('2026-01-01T00:15:00.000Z');
    expect(readUrl({ url: 'javascript:alert(1)' }, D, now).value.url).toBeNull();
  });

  it('falls back to detection on the first real answer the map does not fit, and says so in a note, not a warning', () => {
    const session = structuredClone(D);
    const history = readHistoryOrDetect({ history: [{ timestamp: 1_700_000_000_000, priceCents: 1299, changeType: 'price' }] }, session);
    expect(history.value[0]).toMatchObject({ at: '2023-11-14T22:13:20.000Z', event: 'price' });
    expect(history.warnings).toEqual([]);
    expect(history.notes).toEqual([expect.stringMatching(/read with a detected layout .*for this session\. Detect again/)]);
    expect(history.detected?.historyPoint.time).toBe('timestamp');
    const purchase = readPurchaseOrDetect({ data: { id: 'p_9', attributes: { status: 'pending', assetId: 4 } } }, session);
    expect(purchase.value).toMatchObject({ id: 'p_9', state: 'pending', stateKind: 'registered' });
    const url = readUrlOrDetect({ purchaseId: 'p', url: 'https://x.example/v', expiresIn: 60 }, session, 0);
    expect(url.value).toEqual({ url: 'https://x.example/v', expiresAt: '1970-01-01T00:01:00.000Z' });
    expect(url.warnings).toEqual([]);
    // Nothing detectable: the first read stands, with what was missing.
    expect(readHistoryOrDetect('<html>', session)).toMatchObject({ notes: [], missing: expect.arrayContaining(['history.points']) });
  });

  it('keeps the detected layout for the session: later answers are read with it, with no note; another session learns afresh', () => {
    const session = structuredClone(D);
    const answer = (ms: number) => ({ purchaseId: 'p', url: `https://x.example/${ms}`, expiresIn: 60 });
    expect(readUrlOrDetect(answer(1), session, 0).notes).toHaveLength(1);
    const later = readUrlOrDetect(answer(2), session, 1000);
    expect(later).toMatchObject({ value: { url: 'https://x.example/2', expiresAt: '1970-01-01T00:01:01.000Z' }, missing: [], warnings: [], notes: [] });
    const history = { history: [{ timestamp: 1_700_000_000_000, priceCents: 1299, changeType: 'price' }] };
    expect(readHistoryOrDetect(history, session).notes).toHaveLength(1);
    expect(readHistoryOrDetect(history, session)).toMatchObject({ notes: [], warnings: [], missing: [] });
    // An answer the learned layout does not fit is read with the session's map again (and detected if need be).
    expect(readUrlOrDetect({ url: 'https://x.example/d', expires_at: '2026-01-01T00:15:00Z' }, session, 0)).toMatchObject({
      value: { expiresAt: '2026-01-01T00:15:00.000Z' },
      notes: [],
    });
    expect(readUrlOrDetect(answer(3), structuredClone(D), 0).notes).toHaveLength(1);
  });

  it("offers a detected layout to the session's keeper: kept (a map not yet reviewed) is no note; refused (a reviewed map) keeps the note", () => {
    const kept = structuredClone(D);
    const offered: ServiceMap[] = [];
    keepDetectedLayouts(kept, (m) => offered.push(m) > 0);
    const answer = { data: { id: 'p_9', attributes: { status: 'pending' }, relationships: { asset: { data: { id: '4' } } } } };
    expect(readPurchaseOrDetect(answer, kept)).toMatchObject({ value: { id: 'p_9', asset_id: '4' }, notes: [] });
    expect(offered.map((m) => m.purchase)).toEqual([expect.objectContaining({ at: 'data', asset: 'relationships.asset.data.id' })]);
    // Once per session: later answers are read with the layout, not offered again.
    readPurchaseOrDetect(answer, kept);
    expect(offered).toHaveLength(1);
    const reviewed = structuredClone(D);
    keepDetectedLayouts(reviewed, () => false);
    expect(readPurchaseOrDetect(answer, reviewed).notes).toHaveLength(1);
  });
});
