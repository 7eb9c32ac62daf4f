/** The generated catalog: determinism, id arithmetic, paging, categories, search and history. */
import { describe, expect, it } from 'vitest';
import { AssetCatalog, FIRST_ID, SEARCH_TOTAL_CAP } from '../../electron/simulator/asset-catalog';
import { CATEGORIES, TAGS } from '../../electron/simulator/words';
import { assetSchema, categorySchema, historyEntrySchema } from '../../shared/catalog';

describe('AssetCatalog', () => {
  const small = new AssetCatalog(500, 42);

  it('is deterministic from (size, seed), and another seed gives another catalog', () => {
    const again = new AssetCatalog(500, 42);
    expect(again.page(null, 100)).toEqual(small.page(null, 100));
    expect(new AssetCatalog(500, 7).page(null, 100)).not.toEqual(small.page(null, 100));
  });

  it('ids are strictly increasing with gaps, and indexOfId inverts idAt', () => {
    let previous = FIRST_ID - 1;
    for (let k = 0; k < small.size; k++) {
      const id = small.idAt(k);
      expect(id).toBeGreaterThan(previous);
      expect(small.indexOfId(id)).toBe(k);
      previous = id;
    }
    const ids = new Set(Array.from({ length: small.size }, (_, k) => small.idAt(k)));
    const gaps = Array.from({ length: small.idAt(small.size - 1) - FIRST_ID }, (_, i) => FIRST_ID + i).filter((id) => !ids.has(id));
    expect(gaps.length).toBeGreaterThan(0);
    for (const id of gaps) expect(small.indexOfId(id)).toBe(-1);
    expect(small.indexOfId(0)).toBe(-1);
    expect(small.indexOfId(small.idAt(small.size - 1) + 3)).toBe(-1);
  });

  it('assets have the documented fields and pass the shared loose schema', () => {
    for (const a of small.page(null, 100).items) {
      expect(assetSchema.safeParse(a).success).toBe(true);
      expect(Object.keys(a)).toEqual(['id', 'title', 'category', 'price', 'currency', 'rating', 'downloads', 'tags', 'created_at', 'updated_at']);
      expect(a.title.split(' ').length).toBeGreaterThanOrEqual(3);
      expect(CATEGORIES.map((c) => c.id)).toContain(a.category);
      expect(a.price).toBeGreaterThan(0);
      expect(Math.round(a.price * 100) % 100).toBe(99);
      expect(a.rating).toBeGreaterThanOrEqual(1);
      expect(a.rating).toBeLessThanOrEqual(5);
      expect(Number.isInteger(a.downloads)).toBe(true);
      expect(new Set(a.tags).size).toBe(a.tags.length);
      expect(a.tags.length).toBeGreaterThanOrEqual(2);
      for (const t of a.tags) expect(TAGS).toContain(t);
      expect(Date.parse(a.updated_at)).toBeGreaterThanOrEqual(Date.parse(a.created_at));
    }
  });

  it('paging after each last_id walks the whole catalog once, in increasing id order', () => {
    const seen: number[] = [];
    let last: number | null = null;
    for (;;) {
      const p = small.page(last, 37);
      seen.push(...p.items.map((a) => a.id));
      expect(p.total).toBe(500);
      if (!p.has_more) {
        expect(p.items.length).toBeLessThanOrEqual(37);
        break;
      }
      expect(p.last_id).toBe(p.items[p.items.length - 1]!.id);
      last = p.last_id;
    }
    expect(seen).toHaveLength(500);
    expect(new Set(seen).size).toBe(500);
    expect(seen.every((id, i) => i === 0 || id > seen[i - 1]!)).toBe(true);
  });

  it('a last_id that is not an asset id continues after it; past the end gives an empty page', () => {
    const id5 = small.idAt(5);
    const gap = [id5 + 1, id5 + 2].find((id) => small.indexOfId(id) === -1) ?? id5;
    expect(small.page(gap, 1).items[0]!.id).toBe(small.idAt(6));
    expect(small.page(-50, 1).items[0]!.id).toBe(small.idAt(0));
    const end = small.page(small.idAt(499), 10);
    expect(end).toEqual({ items: [], last_id: null, has_more: false, total: 500 });
  });

  it('a 1,000,000-asset catalog pages from the middle without generating the rest', () => {
    const big = new AssetCatalog(1_000_000, 42);
    const mid = big.idAt(654_321);
    const p = big.page(mid, 100);
    expect(p.items).toHaveLength(100);
    expect(p.items[0]!.id).toBe(big.idAt(654_322));
    expect(p.has_more).toBe(true);
    expect(big.page(big.idAt(999_999), 100).has_more).toBe(false);
  });

  it('category counts add up to the catalog size and every category is used', () => {
    const cats = small.categories();
    expect(cats).toHaveLength(CATEGORIES.length);
    for (const c of cats) expect(categorySchema.safeParse(c).success).toBe(true);
    expect(cats.reduce((n, c) => n + c.count, 0)).toBe(500);
    expect(cats.every((c) => c.count > 0)).toBe(true);
    let fromPages = 0;
    for (let last: number | null = null, more = true; more;) {
      const p = small.page(last, 100);
      fromPages += p.items.filter((a) => a.category === 'audio').length;
      last = p.last_id;
      more = p.has_more;
    }
    expect(cats.find((c) => c.id === 'audio')!.count).toBe(fromPages);
  });

  it('search is a case-insensitive substring match on title or tags, in id order, with a true total', () => {
    const all = small.page(null, 100).items.concat(...[1, 2, 3, 4].map((i) => small.page(small.idAt(i * 100 - 1), 100).items));
    expect(all).toHaveLength(500);
    const q = 'CaStLe';
    const expected = all.filter((a) => a.title.toLowerCase().includes('castle') || a.tags.some((t) => t.includes('castle')));
    const r = small.search(q, undefined, 5);
    expect(r.items.map((a) => a.id)).toEqual(expected.slice(0, 5).map((a) => a.id));
    expect(r.total).toBe(expected.length);
    expect(r.total_capped).toBe(false);
    const byTag = small.search('pixel', undefined, 100);
    expect(byTag.total).toBe(all.filter((a) => a.tags.includes('pixel-art') || a.title.toLowerCase().includes('pixel')).length);
  });

  it('search within a category returns only that category', () => {
    const r = small.search('', 'fonts', 100);
    expect(r.items.every((a) => a.category === 'fonts')).toBe(true);
    expect(r.total).toBe(small.categories().find((c) => c.id === 'fonts')!.count);
  });

  it('search on a huge catalog stops counting at the cap and says so', () => {
    const big = new AssetCatalog(1_000_000, 42);
    const r = big.search('', undefined, 20);
    expect(r.items).toHaveLength(20);
    expect(r.total).toBe(SEARCH_TOTAL_CAP);
    expect(r.total_capped).toBe(true);
    const none = big.search('no such words', undefined, 20);
    expect(none).toEqual({ items: [], total: 0, total_capped: false });
  });

  it('history: a few entries, oldest first, ending at updated_at with the current price; null for an unknown id', () => {
    for (let k = 0; k < 50; k++) {
      const a = small.assetAt(k);
      const h = small.history(a.id)!;
      expect(h.length).toBeGreaterThanOrEqual(1);
      expect(h.length).toBeLessThanOrEqual(4);
      for (const e of h) expect(historyEntrySchema.safeParse(e).success).toBe(true);
      expect(h[0]).toMatchObject({ event: 'created', version: 1, at: a.created_at });
      expect(h[h.length - 1]).toMatchObject({ at: a.updated_at, price: a.price, version: h.length });
      expect(h.every((e, i) => i === 0 || Date.parse(e.at) >= Date.parse(h[i - 1]!.at))).toBe(true);
    }
    expect(small.history(FIRST_ID - 1)).toBeNull();
    expect(small.history(small.history(small.idAt(0)) ? small.idAt(499) + 100 : 0)).toBeNull();
  });

  it('refuses sizes and seeds it cannot honour', () => {
    expect(() => new AssetCatalog(-1, 1)).toThrow(RangeError);
    expect(() => new AssetCatalog(1.5, 1)).toThrow(RangeError);
    expect(() => new AssetCatalog(20_000_000, 1)).toThrow(RangeError);
    expect(() => new AssetCatalog(10, Number.NaN)).toThrow(RangeError);
    expect(new AssetCatalog(0, 1).page(null, 20)).toEqual({ items: [], last_id: null, has_more: false, total: 0 });
  });
});
