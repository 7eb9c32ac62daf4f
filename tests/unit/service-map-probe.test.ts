/** The search probe's candidates: every word it sends meets the category it sends in one sampled asset. */
import { describe, expect, it } from 'vitest';
import { searchCandidates } from '../../electron/service-map/probe';
import { detectServiceMap } from '../../shared/service-map/detect';
import { DEFAULT_SERVICE_MAP } from '../../shared/service-map/schema';
import type { ServiceMap } from '../../shared/service-map/schema';

/** A camelCase service: numeric category ids, names in `name`, categories as objects. */
const map: ServiceMap = {
  ...DEFAULT_SERVICE_MAP,
  list: { ...DEFAULT_SERVICE_MAP.list, items: 'items' },
  asset: { ...DEFAULT_SERVICE_MAP.asset, id: 'id', title: 'name', category: 'categoryId' },
  categories: { items: 'items' },
  category: { id: 'id', name: 'name', count: null },
};
const list = {
  items: [
    { id: 1, name: 'Crimson Forest Texture', categoryId: 2 },
    { id: 2, name: 'Azure River Sound Pack', categoryId: 3 },
    { id: 3, name: 'Golden Harbor Music Loop', categoryId: 3 },
    { id: 4, name: 'Neon Castle Shader', categoryId: 5 },
    { id: 5, name: 'Silent Meadow Ambience', categoryId: 3 },
  ],
};
const categories = { items: [2, 3, 5, 7].map((id) => ({ id, name: `C${id}` })) };

describe('searchCandidates', () => {
  it('takes the words and the one category from the same sampled assets, so any honoured pair meets', () => {
    const probe = searchCandidates(map, list, categories);
    // The sample's most common category, as the categories answer writes it (a number), under every name.
    expect(new Set(Object.values(probe.category))).toEqual(new Set([3]));
    const inCategory = list.items.filter((a) => a.categoryId === 3).map((a) => a.name.toLowerCase());
    const words = Object.values(probe.text);
    expect(words.length).toBeGreaterThan(3);
    expect(new Set(words).size).toBe(words.length);
    for (const w of words) expect(inCategory.some((t) => t.includes(w))).toBe(true);
  });
});

describe('detection of the search fields from a probe whose words tie', () => {
  it("a category sent under every name is told by the assets' own category field; tied text names are each kept", () => {
    const probe = searchCandidates(map, list, categories);
    // A result whose title holds the words sent as `q` and as `search`: either may be the one.
    const result = { id: 3, name: `${probe.text['q']} ${probe.text['search']}`, categoryId: 3 };
    const proposal = detectServiceMap(
      {
        categories,
        list: { body: list },
        search: { body: { items: [result], totalCount: 1 }, text: probe.text, category: probe.category, limit: probe.limit },
      },
      DEFAULT_SERVICE_MAP,
    );
    expect(proposal.map.search.categoryField).toBe('categoryId');
    expect(proposal.map.search.categoryType).toBe('number');
    expect(proposal.map.search.textField.split('|').sort()).toEqual(['q', 'search']);
  });
});
