/** Issue 11 item 6: cells a spreadsheet would run as formulas are written as text (OWASP's rule), in every CSV export. */
import { describe, expect, it } from 'vitest';
import { createEncoder } from '../../electron/catalog/encoder';
import { quoteCell } from '../../shared/csv';

const HOSTILE = ['=HYPERLINK("http://evil.example","x")', '+cmd', '-1+1', '@SUM(1)', '\tTab', '\rCR'];

describe('CSV formula injection', () => {
  it('puts a single quote before a cell that starts with = + - @ tab or CR, and quotes it', () => {
    expect(quoteCell('=HYPERLINK("http://evil.example","x")')).toBe('"\'=HYPERLINK(""http://evil.example"",""x"")"');
    expect(quoteCell('+cmd')).toBe(`"'+cmd"`);
    expect(quoteCell('-1+1')).toBe(`"'-1+1"`);
    expect(quoteCell('@SUM(1)')).toBe(`"'@SUM(1)"`);
    expect(quoteCell('\tTab')).toBe(`"'\tTab"`);
    expect(quoteCell('\rCR')).toBe(`"'\rCR"`);
  });

  it('leaves plain numbers and harmless text alone', () => {
    expect(quoteCell('-12.5')).toBe('-12.5');
    expect(quoteCell('+3')).toBe('+3');
    expect(quoteCell('1e-3')).toBe('1e-3');
    expect(quoteCell('a=b')).toBe('a=b');
    expect(quoteCell('')).toBe('');
  });

  it('the catalog export (CLI and dashboard) writes hostile titles as text', () => {
    const encoder = createEncoder('csv', null, false);
    const items = HOSTILE.map((title, i) => ({ id: i + 1, title }));
    const text = encoder.begin(items) + items.map((item) => encoder.encode(item)).join('');
    for (const title of HOSTILE) expect(text).toContain(`,"'${title.replace(/"/g, '""')}"\r\n`);
    expect(text).not.toMatch(/(^|,)[=+\-@\t\r]/m);
  });
});
