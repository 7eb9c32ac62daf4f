import { describe, expect, it } from 'vitest';
import { assertPageUsable, parsePage, sameCursor } from '../../electron/catalog/page';
import { RecentIds } from '../../electron/catalog/repeats';
import type { PageShape } from '../../electron/catalog/settings';
import { formatForPath, pageShape, validatePageSize, validatePageSizeParam } from '../../electron/catalog/settings';
import { PartnerError } from '../../shared/errors';

const shape = pageShape();

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return e instanceof PartnerError ? e.code : 'not a PartnerError';
  }
  return undefined;
}

/** The download's strict read: a page whose items or next cursor cannot be read is INVALID_RESPONSE. */
function strictPage(body: unknown, s: PageShape = shape) {
  const page = parsePage(body, s);
  assertPageUsable(page, s);
  return page;
}

describe('parsePage', () => {
  it('reads a top-level array: the cursor is the last item id, no total', () => {
    const page = parsePage([{ id: 1 }, { id: 2 }], shape);
    expect(page).toMatchObject({ items: [{ id: 1 }, { id: 2 }], cursor: 2, done: false, total: null, received: 2 });
  });

  it('reads the first array property of an object', () => {
    const page = parsePage({ meta: { x: 1 }, data: [{ id: 'a' }, { id: 'b' }], other: [{ id: 'z' }] }, shape);
    expect(page.items).toEqual([{ id: 'a' }, { id: 'b' }]);
    expect(page.cursor).toBe('b');
    expect(page.done).toBe(false);
  });

  it('uses a configured items field and id field', () => {
    const custom = pageShape({ itemsField: 'rows', idField: 'uuid' });
    const page = parsePage({ first: [1], rows: [{ uuid: 'u1' }, { uuid: 'u2' }] }, custom);
    expect(page.items).toHaveLength(2);
    expect(page.cursor).toBe('u2');
  });

  it('prefers a cursor the body names over the last item id', () => {
    expect(parsePage({ items: [{ id: 1 }, { id: 2 }], next_cursor: 'abc' }, shape).cursor).toBe('abc');
    expect(parsePage({ items: [{ id: 1 }], next_last_id: 99 }, shape).cursor).toBe(99);
    const custom = pageShape({ cursorFields: ['after'] });
    expect(parsePage({ items: [{ id: 1 }], after: 'k', last_id: 5 }, custom).cursor).toBe('k');
  });

  it('ends on an empty page that gives no sign of more', () => {
    expect(parsePage({ items: [] }, shape)).toMatchObject({ items: [], done: true, cursor: null });
    expect(parsePage({ items: [], last_id: null, has_more: false }, shape).done).toBe(true);
    expect(parsePage([], shape).done).toBe(true);
  });

  it('an empty page that says more follows (has-more or a next cursor), with no total, is not the end', () => {
    expect(parsePage({ items: [], has_more: true }, shape)).toMatchObject({ items: [], done: false, total: null });
    expect(parsePage({ items: [], last_id: null, hasMore: true }, shape).done).toBe(false);
    expect(parsePage({ items: [], next_cursor: 'k9' }, shape)).toMatchObject({ done: false, cursor: 'k9' });
  });

  it('a page with items and neither cursor field nor has-more goes on from the last item id', () => {
    expect(parsePage({ items: [{ id: 4 }, { id: 5 }] }, shape)).toMatchObject({ done: false, cursor: 5 });
  });

  it('ends on has_more: false, keeping the items of that page', () => {
    const page = parsePage({ items: [{ id: 7 }], last_id: 7, has_more: false, total: 7 }, shape);
    expect(page).toMatchObject({ items: [{ id: 7 }], cursor: 7, done: true, total: 7 });
  });

  it('ends on a named cursor that is null', () => {
    const page = parsePage({ items: [{ id: 3 }], next_cursor: null }, shape);
    expect(page.done).toBe(true);
    expect(page.cursor).toBeNull();
  });

  it('reads a total from total, total_count or count, ignoring nonsense', () => {
    expect(parsePage({ items: [{ id: 1 }], total_count: 50 }, shape).total).toBe(50);
    expect(parsePage({ items: [{ id: 1 }], count: '12' }, shape).total).toBe(12);
    expect(parsePage({ items: [{ id: 1 }], total: -3 }, shape).total).toBeNull();
    expect(parsePage({ items: [{ id: 1 }], total: 'many' }, shape).total).toBeNull();
  });

  it('tolerant read: an item without an id is left out and named as missing, never thrown', () => {
    const page = parsePage({ items: [{ id: 1 }, { title: 'no id' }] }, shape);
    expect(page.items).toEqual([{ id: 1 }]);
    expect(page.received).toBe(2);
    expect(page.missing).toContain('asset.id');
    expect(parsePage('<html>', shape)).toMatchObject({ items: [], done: true, missing: ['list.items'], raw: '<html>' });
  });

  it('strict read (the download): refuses items without a usable id with INVALID_RESPONSE', () => {
    expect(codeOf(() => strictPage({ items: [{ id: 1 }, { title: 'no id' }] }, shape))).toBe('INVALID_RESPONSE');
    expect(codeOf(() => strictPage([{ id: '' }], shape))).toBe('INVALID_RESPONSE');
    expect(codeOf(() => strictPage([{ id: null }], shape))).toBe('INVALID_RESPONSE');
    expect(codeOf(() => strictPage([{ id: { nested: 1 } }], shape))).toBe('INVALID_RESPONSE');
    expect(codeOf(() => strictPage([5, 6], shape))).toBe('INVALID_RESPONSE');
    try {
      strictPage({ items: [{ id: 1 }, { title: 'x' }] }, shape);
    } catch (e) {
      expect((e as Error).message).toContain('item 2');
      expect((e as Error).message).toContain('"id"');
    }
  });

  it('refuses bodies without items and cursors that cannot be sent', () => {
    expect(codeOf(() => strictPage({ message: 'hello' }, shape))).toBe('INVALID_RESPONSE');
    expect(codeOf(() => strictPage('<html>', shape))).toBe('INVALID_RESPONSE');
    expect(codeOf(() => strictPage(null, shape))).toBe('INVALID_RESPONSE');
    expect(codeOf(() => strictPage({ items: [{ id: 1 }], next_cursor: '' }, shape))).toBe('INVALID_RESPONSE');
    expect(codeOf(() => strictPage({ rows: [] }, pageShape({ itemsField: 'items' })))).toBe('INVALID_RESPONSE');
  });

  it('compares cursors as sent on the wire', () => {
    expect(sameCursor(5, '5')).toBe(true);
    expect(sameCursor(5, 6)).toBe(false);
    expect(sameCursor(null, null)).toBe(false);
  });
});

describe('settings', () => {
  it('checks the page size range', () => {
    expect(validatePageSize(100)).toBe(100);
    expect(validatePageSize('1')).toBe(1);
    for (const bad of [0, 101, 2.5, '', ' ', 'ten', -1, Number.NaN, undefined, '0x10', '1e1', '-1']) {
      expect(codeOf(() => validatePageSize(bad))).toBe('BAD_REQUEST');
    }
  });

  it('checks the page-size parameter name', () => {
    expect(validatePageSizeParam('limit')).toBe('limit');
    expect(codeOf(() => validatePageSizeParam(''))).toBe('BAD_REQUEST');
    expect(codeOf(() => validatePageSizeParam('last_id'))).toBe('BAD_REQUEST');
    // Not the name the map gives the cursor.
    expect(validatePageSizeParam('last_id', 'after')).toBe('last_id');
    expect(codeOf(() => validatePageSizeParam('after', 'after'))).toBe('BAD_REQUEST');
  });

  it('chooses the format from the extension or an explicit option', () => {
    expect(formatForPath('/x/a.jsonl')).toBe('jsonl');
    expect(formatForPath('A.NDJSON')).toBe('jsonl');
    expect(formatForPath('a.csv')).toBe('csv');
    expect(formatForPath('a.txt', 'csv')).toBe('csv');
    expect(codeOf(() => formatForPath('a.txt'))).toBe('BAD_REQUEST');
    expect(codeOf(() => formatForPath('a.csv', 'xml'))).toBe('BAD_REQUEST');
  });
});

describe('RecentIds', () => {
  const page = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ id: from + i }));

  it('leaves out the items of the last pages written, and only those', () => {
    const recent = new RecentIds();
    recent.add(page(1, 3));
    recent.add(page(4, 3));
    expect(recent.fresh(page(5, 3)).map((i) => i.id)).toEqual([7]);
    // Ids compared as sent on the wire: 5 and "5" are one item.
    expect(recent.fresh([{ id: '5' }, { id: 8 }]).map((i) => i.id)).toEqual([8]);
  });

  it('stays bounded: the last 5 pages, at most 2,000 ids', () => {
    const recent = new RecentIds();
    for (let p = 0; p < 6; p++) recent.add(page(p * 10 + 1, 10));
    // Page 1 (ids 1-10) has left the window; pages 2-6 are in it.
    expect(recent.fresh(page(1, 20)).map((i) => i.id)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    expect(recent.size).toBe(50);
    const big = new RecentIds();
    for (let p = 0; p < 3; p++) big.add(page(p * 1000 + 1, 1000));
    expect(big.size).toBe(2000);
    expect(big.fresh(page(1, 1)).map((i) => i.id)).toEqual([1]);
  });

  it('leaves nothing out once a page has one id twice: the id field is not unique there (a wrong map)', () => {
    const recent = new RecentIds();
    recent.add(page(1, 3));
    expect(recent.fresh([{ id: 3 }, { id: 3 }]).map((i) => i.id)).toEqual([3, 3]);
    recent.add([{ id: 4 }, { id: 4 }]);
    expect(recent.fresh(page(1, 2)).map((i) => i.id)).toEqual([1, 2]);
  });
});
