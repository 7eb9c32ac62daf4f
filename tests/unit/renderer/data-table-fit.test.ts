/** DataTable's column fitting: never wider than the room it has, the least important columns give way first. */
import { describe, expect, it } from 'vitest';
import { fitColumns } from '../../../renderer/src/components/fit-columns';

const col = (id: string, size: number, minSize: number, dropOrder = 0) => ({ id, size, minSize, dropOrder });
const total = (widths: Map<string, number>) => [...widths.values()].reduce((a, b) => a + b, 0);

describe('fitColumns', () => {
  const columns = [col('endpoint', 240, 180), col('limit', 66, 58, 1), col('remaining', 104, 98), col('held', 84, 64, 2), col('state', 112, 96)];

  it('grows every column alike when there is room to spare', () => {
    const { widths, dropped } = fitColumns(columns, 1212);
    expect(dropped).toEqual([]);
    expect(widths.get('endpoint')).toBe(480);
    expect(total(widths)).toBeLessThanOrEqual(1212);
  });

  it('shrinks towards the minimums when short of room, never below them and never past the width', () => {
    const { widths, dropped } = fitColumns(columns, 520);
    expect(dropped).toEqual([]);
    expect(total(widths)).toBeLessThanOrEqual(520);
    for (const c of columns) expect(widths.get(c.id)).toBeGreaterThanOrEqual(c.minSize);
  });

  it('drops the highest drop order first, and only as many as it must', () => {
    expect(fitColumns(columns, 440).dropped).toEqual(['held']);
    expect(fitColumns(columns, 400).dropped).toEqual(['held', 'limit']);
    const { widths } = fitColumns(columns, 400);
    expect(total(widths)).toBeLessThanOrEqual(400);
  });

  it('never drops a column without a drop order, even when nothing fits', () => {
    const { widths, dropped } = fitColumns(columns, 100);
    expect(dropped).toEqual(['held', 'limit']);
    expect([...widths.keys()]).toEqual(['endpoint', 'remaining', 'state']);
  });
});
