import { describe, expect, it } from 'vitest';
import { MAX_UNLISTED_NAMED, cellText, columnsFromItems, csvItemRow, csvRow, quoteCell, unlistedWarning } from '../../electron/catalog/csv';
import { createEncoder } from '../../electron/catalog/encoder';

describe('CSV quoting (RFC 4180)', () => {
  it('leaves plain fields alone', () => {
    expect(quoteCell('plain text')).toBe('plain text');
    expect(quoteCell('')).toBe('');
  });

  it('quotes fields with a comma, quote, CR or LF and doubles quotes', () => {
    expect(quoteCell('a,b')).toBe('"a,b"');
    expect(quoteCell('say "hi"')).toBe('"say ""hi"""');
    expect(quoteCell('line1\nline2')).toBe('"line1\nline2"');
    expect(quoteCell('cr\r')).toBe('"cr\r"');
    expect(quoteCell('"')).toBe('""""');
  });

  it('ends rows with CRLF', () => {
    expect(csvRow(['a', 'b,c', ''])).toBe('a,"b,c",\r\n');
  });

  it('JSON-encodes nested values; null and absent are empty', () => {
    expect(cellText(['x', 'y'])).toBe('["x","y"]');
    expect(cellText({ a: 1 })).toBe('{"a":1}');
    expect(cellText(null)).toBe('');
    expect(cellText(undefined)).toBe('');
    expect(cellText(false)).toBe('false');
    expect(cellText(12.5)).toBe('12.5');
    expect(csvItemRow({ id: 1, tags: ['a', 'b'] }, ['id', 'tags'])).toBe('1,"[""a"",""b""]"\r\n');
  });

  it('keeps the columns fixed: extra keys dropped, missing ones empty, order from the header', () => {
    expect(csvItemRow({ b: 2, extra: 'x', a: 1 }, ['a', 'b', 'c'])).toBe('1,2,\r\n');
  });

  it('takes the header from the first page keys in the order first seen', () => {
    expect(
      columnsFromItems([
        { id: 1, title: 't' },
        { id: 2, price: 3, title: 'u' },
      ]),
    ).toEqual(['id', 'title', 'price']);
  });

  it('does not treat inherited properties as columns values', () => {
    expect(csvItemRow({ id: 1 }, ['id', 'toString'])).toBe('1,\r\n');
  });
});

describe('encoders', () => {
  it('JSON Lines: one object per line, no header', () => {
    const enc = createEncoder('jsonl', null, false);
    expect(enc.begin([{ id: 1 }])).toBe('');
    expect(enc.encode({ id: 1, t: 'a\nb' })).toBe('{"id":1,"t":"a\\nb"}\n');
    expect(enc.columns).toBeNull();
  });

  it('CSV: the header comes once, from the first non-empty page, then the columns are fixed', () => {
    const enc = createEncoder('csv', null, false);
    expect(enc.begin([])).toBe('');
    expect(enc.columns).toBeNull();
    expect(enc.begin([{ id: 1, title: 'a' }])).toBe('id,title\r\n');
    expect(enc.columns).toEqual(['id', 'title']);
    expect(enc.begin([{ id: 2, title: 'b', more: 1 }])).toBe('');
    expect(enc.encode({ id: 2, more: 1 })).toBe('2,\r\n');
  });

  it('CSV: configured columns win, and a resumed file gets no second header', () => {
    const configured = createEncoder('csv', ['title', 'id'], false);
    expect(configured.begin([{ id: 1, title: 'a' }])).toBe('title,id\r\n');
    const resumed = createEncoder('csv', ['id'], true);
    expect(resumed.begin([{ id: 5 }])).toBe('');
    expect(resumed.columns).toEqual(['id']);
    expect(resumed.encode({ id: 5 })).toBe('5\r\n');
  });

  it('CSV: names the fields a first-page header leaves out once each, at most 50, then says there are more', () => {
    const enc = createEncoder('csv', null, false, []);
    enc.begin([{ id: 1 }]);
    expect(enc.note([{ id: 1 }], 1)).toEqual([]);
    expect(
      enc.note(
        [
          { id: 2, a: 1 },
          { id: 3, a: 2 },
        ],
        2,
      ),
    ).toEqual([unlistedWarning({ field: 'a', page: 2 })]);
    const many = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`f${i}`, i]));
    const warnings = enc.note([{ id: 4, a: 3, ...many }], 3);
    expect(warnings).toHaveLength(MAX_UNLISTED_NAMED);
    expect(warnings.at(-1)).toMatch(/^More than 50 fields are not in the CSV/);
    expect(enc.unlisted).toHaveLength(MAX_UNLISTED_NAMED);
    expect(enc.unlisted?.[0]).toEqual({ field: 'a', page: 2 });
    // A resumed encoder knows what was named before; chosen columns are not watched.
    expect(createEncoder('csv', ['id'], true, [{ field: 'a', page: 2 }]).note([{ id: 9, a: 1, b: 2 }], 7)).toEqual([unlistedWarning({ field: 'b', page: 7 })]);
    expect(createEncoder('csv', ['id'], false).note([{ id: 1, b: 2 }], 1)).toEqual([]);
  });
});
