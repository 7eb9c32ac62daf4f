/** Issue 11 item 6: the dashboard's Budget CSV writes would-be formulas as text (shared/csv.ts's rule). */
import { describe, expect, it } from 'vitest';
import { toCsv } from '../../../renderer/src/lib/csv';

describe('Budget CSV formula injection', () => {
  it('puts a single quote before cells that start with = + - @ tab or CR', () => {
    const hostile = ['=HYPERLINK("http://evil.example","x")', '+cmd', '-1+1', '@SUM(1)', '\tTab', '\rCR'];
    const text = toCsv(
      ['endpoint', 'note'],
      hostile.map((h) => ['listAssets', h]),
    );
    const lines = text.split('\r\n').slice(1, -1);
    expect(lines).toHaveLength(hostile.length);
    expect(lines.every((line) => line.startsWith('listAssets,"\''))).toBe(true);
    expect(toCsv(['n'], [[-12.5]])).toBe('n\r\n-12.5\r\n');
  });
});
