/** A lookup by reference where the service map names no items path: read without a guess, since "nothing found" lets a person buy again. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SERVICE_MAP } from '../../shared/service-map/schema';
import { readPurchaseList } from '../../shared/service-map/read';

const p1 = { id: 'P-1', asset_id: 7, state: 'registered', client_reference: 'ref-1' };
const read = (body: unknown) => {
  const r = readPurchaseList(body, DEFAULT_SERVICE_MAP);
  return { ids: r.value.map((p) => p.id), missing: r.missing };
};

describe('readPurchaseList without an items path', () => {
  it('reads a bare list, and the one array of an object that holds anything beside empty ones', () => {
    expect(read([p1])).toEqual({ ids: ['P-1'], missing: [] });
    expect(read({ warnings: [], purchases: [p1] })).toEqual({ ids: ['P-1'], missing: [] });
  });

  it('reads the single purchase answered, also one with an empty array of its own', () => {
    expect(read(p1)).toEqual({ ids: ['P-1'], missing: [] });
    expect(read({ ...p1, files: [] })).toEqual({ ids: ['P-1'], missing: [] });
  });

  it('finds nothing only where nothing could hold a purchase', () => {
    expect(read([])).toEqual({ ids: [], missing: [] });
    expect(read({ items: [], total: 0 })).toEqual({ ids: [], missing: [] });
  });

  it('does not read an answer whose items could be elsewhere: nested, in one of several arrays, or nowhere named', () => {
    for (const body of [{ result: { items: [p1] }, errors: [] }, { links: [{ rel: 'self' }], purchases: [p1] }, { total: 1 }]) {
      expect(read(body), JSON.stringify(body)).toEqual({ ids: [], missing: ['lookupByReference.items'] });
    }
  });
});
