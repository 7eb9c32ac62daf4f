/** DataTable's column fitting: never wider than the room it has, the least important columns give way first. */
import { describe, expect, it } from 'vitest';
import { fitColumns, settleWidth } from '../../../renderer/src/components/fit-columns';

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

/**
 * The idle-page loop: fitted to 1000 px the rows bring a page scrollbar (box 985 px), fitted to 985 px
 * they are short enough for it to go (box 1000 px) again. Each flip was a re-fit and a render of the table.
 */
describe('settleWidth', () => {
  const boxWidth = (fittedTo: number) => (fittedTo >= 1000 ? 985 : 1000);

  it('settles a scrollbar that comes and goes with the fit instead of re-fitting for ever', () => {
    let state = settleWidth(null, 1000, 0);
    let refits = 0;
    for (let frame = 1; frame <= 60; frame++) {
      const next = settleWidth(state, boxWidth(state.width), frame * 16);
      if (next !== state) refits++;
      state = next;
    }
    expect(refits).toBe(1);
    expect(state.width).toBe(985);
  });

  it('returns the same object for the same width or a change under 1 px (no new layout, no render)', () => {
    const state = settleWidth(null, 800, 0);
    expect(settleWidth(state, 800, 10)).toBe(state);
    expect(settleWidth(state, 800.6, 20)).toBe(state);
  });

  it('follows a real resize: wider than the width left, later, or any narrowing', () => {
    const narrowed = settleWidth(settleWidth(null, 1000, 0), 985, 10);
    expect(settleWidth(narrowed, 1200, 20).width).toBe(1200); // window widened past the width left
    expect(settleWidth(narrowed, 1000, 2000).width).toBe(1000); // back to it, but long after
    expect(settleWidth(narrowed, 700, 20).width).toBe(700);
  });
});

describe('fitColumns is a fixed point', () => {
  it('fitting a fitted layout again gives the same widths', () => {
    const columns = [col('endpoint', 240, 180), col('limit', 66, 58, 1), col('remaining', 104, 98), col('state', 112, 96)];
    const first = fitColumns(columns, 731).widths;
    const again = fitColumns(
      columns.map((c) => ({ ...c, size: first.get(c.id)! })),
      731,
    ).widths;
    expect([...again.entries()]).toEqual([...first.entries()]);
  });
});
