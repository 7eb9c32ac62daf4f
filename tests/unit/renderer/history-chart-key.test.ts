/**
 * The history charts explain what they draw (as the live charts' key does), and draw 429s as marks on
 * the time axis rather than as bars on the req/s axis, where a count read as a rate.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { HistoryKey, tooltipValue, withThrottleMarks } from '../../../renderer/src/views/budget/HistoryChart';

const point = (t: number, throttled: number) => ({ t, rate: 12, othersRate: 0, throttled, peakPct: 60, lowestRemaining: 4, waitMeanMs: 1 });

describe('history charts', () => {
  it('their key names the peak-use line and its axis, the limit and the 429 marks', () => {
    const text = renderToStaticMarkup(createElement(HistoryKey, { others: false }))
      .replace(/<[^>]+>/g, '')
      .replace(/&#x27;/g, "'");
    expect(text).toContain("this app's requests/s");
    expect(text).toContain('peak use, % of the limit (right axis)');
    expect(text).toContain('limit');
    expect(text).toContain('429s');
    expect(text).not.toContain('others');
  });

  it('names the others area where other consumers used the budget', () => {
    expect(renderToStaticMarkup(createElement(HistoryKey, { others: true }))).toContain('others (about: estimated from Remaining)');
  });

  it('puts a 429 mark on the time axis (0 req/s) only where the point had 429s', () => {
    const marked = withThrottleMarks([point(0, 0), point(60_000, 7), point(120_000, 0)]);
    expect(marked.map((p) => p.mark429)).toEqual([null, 0, null]);
    expect(marked[1]!.throttled).toBe(7);
  });

  it("the hovered point's tooltip gives its 429 count beside the rate", () => {
    expect(tooltipValue(12, 'this app, req/s', { payload: point(60_000, 7) })[0]).toBe('12.0 (lowest Remaining 4, mean wait 1 ms, 7 × 429)');
    expect(tooltipValue(12, 'this app, req/s', { payload: point(0, 0) })[0]).toBe('12.0 (lowest Remaining 4, mean wait 1 ms)');
  });
});
