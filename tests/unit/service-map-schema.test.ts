/** The service map's schema: the default, an import from a file, and every problem named. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { storedProfileSchema } from '../../electron/profiles/profile-types';
import { DEFAULT_SERVICE_MAP, parseServiceMap, serviceMapSchema } from '../../shared/service-map/schema';
import { PURCHASE_ACTIONS_BY_STATE } from '../../shared/catalog';

describe('service map schema', () => {
  it('the default map is valid, survives a JSON round trip, and is the simulator dialect', () => {
    const round = parseServiceMap(JSON.stringify(DEFAULT_SERVICE_MAP));
    expect(round).toEqual({ ok: true, map: DEFAULT_SERVICE_MAP });
    expect(DEFAULT_SERVICE_MAP.list.pageSizeParam).toBe('per-page');
    expect(DEFAULT_SERVICE_MAP.list.cursorParam).toBe('last_id');
    expect(PURCHASE_ACTIONS_BY_STATE.validated).toContain('downloadUrl');
    expect(PURCHASE_ACTIONS_BY_STATE.cancelled).toEqual(['purchaseInfo']);
  });

  it('imports the README example file', () => {
    const text = readFileSync(join(__dirname, '../../docs/service-map.example.json'), 'utf8');
    const parsed = parseServiceMap(text);
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(parsed.map.asset.title).toBe('attributes.title');
  });

  it('a map without categoryType (older files) gets the default', () => {
    const { categoryType: _omit, ...search } = DEFAULT_SERVICE_MAP.search;
    const parsed = serviceMapSchema.parse({ ...DEFAULT_SERVICE_MAP, search });
    expect(parsed.search.categoryType).toBe('string');
  });

  it('refuses bad maps with every problem in words, never throwing', () => {
    expect(parseServiceMap('{ not json')).toMatchObject({ ok: false, errors: [expect.stringMatching(/^Not JSON/)] });
    expect(parseServiceMap(null)).toMatchObject({ ok: false });
    const bad = {
      ...DEFAULT_SERVICE_MAP,
      version: 2,
      list: { ...DEFAULT_SERVICE_MAP.list, items: 'data[x].title', pageSizeMax: 0 },
      asset: { ...DEFAULT_SERVICE_MAP.asset, priceUnit: 'cents' },
      states: [{ word: 'ok', state: 'done', actions: ['fly'] }],
    };
    const parsed = parseServiceMap(bad);
    expect(parsed.ok).toBe(false);
    const text = parsed.ok ? '' : parsed.errors.join('\n');
    for (const field of ['version', 'list.items', 'list.pageSizeMax', 'asset.priceUnit', 'states.0.state', 'states.0.actions.0']) expect(text).toContain(field);
    expect(text).toContain('not a field path');
  });

  it("refuses a page-size parameter with the cursor's name (the first page would skip the items up to the page size)", () => {
    const parsed = parseServiceMap({ ...DEFAULT_SERVICE_MAP, list: { ...DEFAULT_SERVICE_MAP.list, pageSizeParam: 'last_id' } });
    expect(parsed).toMatchObject({ ok: false, errors: [expect.stringMatching(/^list\.pageSizeParam: .*cursor/)] });
    expect(parseServiceMap({ ...DEFAULT_SERVICE_MAP, list: { ...DEFAULT_SERVICE_MAP.list, pageSizeParam: null } }).ok).toBe(true);
  });

  it('refuses names one request would write twice or cannot write: the reference over the asset id, `a|b` outside search, a name with no field', () => {
    const errorsOf = (patch: (m: typeof DEFAULT_SERVICE_MAP) => object): string => {
      const parsed = parseServiceMap(patch(DEFAULT_SERVICE_MAP));
      return parsed.ok ? '' : parsed.errors.join('\n');
    };
    expect(errorsOf((m) => ({ ...m, register: { assetIdField: 'asset_id', referenceField: 'asset_id' } }))).toMatch(/register\.referenceField: .*overwrite/);
    expect(errorsOf((m) => ({ ...m, register: { assetIdField: 'asset', referenceField: 'asset.ref' } }))).toMatch(/register\.referenceField/);
    expect(errorsOf((m) => ({ ...m, register: { ...m.register, assetIdField: 'asset_id|assetId' } }))).toMatch(/register\.assetIdField: is one name/);
    expect(errorsOf((m) => ({ ...m, purchaseId: { ...m.purchaseId, viewUrl: { in: 'query', name: 'purchase_id|id' } } }))).toMatch(/purchaseId\.viewUrl\.name/);
    expect(errorsOf((m) => ({ ...m, register: { ...m.register, assetIdField: '.' } }))).toMatch(/register\.assetIdField: names no field/);
    expect(errorsOf((m) => ({ ...m, search: { ...m.search, categoryField: 'query' } }))).toMatch(/search\.categoryField: must not share/);
    // Search fields may stay undecided between names, as detection leaves them.
    expect(errorsOf((m) => ({ ...m, search: { ...m.search, textField: 'query|q', categoryField: 'category|cat' } }))).toBe('');
  });

  it('a profile saved with such a map keeps the rest of it: the page size is no longer sent', () => {
    const map = {
      ...DEFAULT_SERVICE_MAP,
      list: { ...DEFAULT_SERVICE_MAP.list, items: 'data', pageSizeParam: 'last_id' },
      asset: { ...DEFAULT_SERVICE_MAP.asset, id: 'sku' },
    };
    const stored = storedProfileSchema.parse({
      id: 'p1',
      name: 'Acme',
      vendor: 'acme',
      baseUrl: 'https://acme.example',
      tokens: [],
      tokenPresentation: { header: 'Authorization', scheme: 'Bearer' },
      serviceMap: map,
      createdAt: 1,
      updatedAt: 1,
    });
    expect(stored.serviceMap).toMatchObject({ list: { items: 'data', pageSizeParam: null, cursorParam: 'last_id' }, asset: { id: 'sku' } });
  });
});
