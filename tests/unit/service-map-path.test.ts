/** Field paths: nesting, arrays, alternatives, and a reader that never throws. */
import { describe, expect, it } from 'vitest';
import { isPath, parsePath, readPath, writePath } from '../../shared/service-map/field-path';

const body = {
  data: [
    { id: '1', attributes: { title: 'One', price: { amount: '12.30' } } },
    { id: '2', attributes: { title: 'Two' } },
  ],
  meta: { total: 2, next: null },
  hits: { hits: [{ _id: 'a', _source: { title: 'A' } }] },
  _embedded: { assets: [{ id: 9 }] },
  'page[size]': 5,
};

describe('field paths', () => {
  it('reads nested keys, array elements and mapped arrays', () => {
    expect(readPath(body, 'meta.total')).toEqual({ found: true, value: 2 });
    expect(readPath(body, 'data[].attributes.title').value).toEqual(['One', 'Two']);
    expect(readPath(body, 'data[0].attributes.price.amount').value).toBe('12.30');
    expect(readPath(body, 'hits.hits[]._source').value).toEqual([{ title: 'A' }]);
    expect(readPath(body, '_embedded.assets').value).toEqual([{ id: 9 }]);
    expect(readPath([1, 2], '').value).toEqual([1, 2]);
  });

  it('a null value is found; an absent one is not; alternatives take the first present', () => {
    expect(readPath(body, 'meta.next')).toEqual({ found: true, value: null });
    expect(readPath(body, 'meta.cursor').found).toBe(false);
    expect(readPath(body, 'meta.cursor|meta.total').value).toBe(2);
    expect(readPath(body, null).found).toBe(false);
  });

  it('never throws on hostile values or paths', () => {
    const hostile = Object.defineProperty({}, 'boom', {
      enumerable: true,
      get: () => {
        throw new Error('no');
      },
    });
    expect(readPath(hostile, 'boom').found).toBe(false);
    expect(readPath('<html>', 'data').found).toBe(false);
    expect(readPath(null, 'a.b').found).toBe(false);
    expect(readPath({ a: 1 }, 'a..b').found).toBe(false);
    expect(readPath({ a: [1] }, 'a[5]').found).toBe(false);
    expect(isPath('a..b')).toBe(false);
    expect(isPath('data[].attributes.title|items')).toBe(true);
    expect(parsePath(Array.from({ length: 40 }, () => 'a').join('.'))).toBeNull();
  });

  it('writes nested request fields', () => {
    const out: Record<string, unknown> = {};
    writePath(out, 'filter.text', 'castle');
    writePath(out, 'filter.category', 'audio');
    writePath(out, 'limit', 5);
    expect(out).toEqual({ filter: { text: 'castle', category: 'audio' }, limit: 5 });
  });
});
