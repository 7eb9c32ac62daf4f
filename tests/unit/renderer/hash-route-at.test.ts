/** The `at=<ms>` moment of a route (the Usage report's busiest-minute links): parsed, or ignored when bad, never a throw. */
import { describe, expect, it } from 'vitest';
import { parseRoute, routeHref } from '../../../renderer/src/lib/hash-route';
import type { LogEntry } from '../../../renderer/src/live/request-log-store';
import { aroundMoment } from '../../../renderer/src/views/budget/moment-link';
import { logFilter, minuteOf } from '../../../renderer/src/views/requests/log-filter';

describe('route moment (at)', () => {
  it('reads the moment of a link the Usage report writes', () => {
    const at = Date.UTC(2026, 10, 21, 14, 5);
    expect(parseRoute(routeHref('budget', `at=${at}`))).toEqual({ view: 'budget', param: `at=${at}`, at, endpoint: null });
    expect(parseRoute(`#/requests/at=${at}`).at).toBe(at);
    expect(parseRoute('#/budget/at=0').at).toBe(0);
  });

  it('ignores a moment that is not a whole, representable time', () => {
    for (const bad of [
      'at=',
      'at=abc',
      'at=-5',
      'at=1.5',
      'at=1e12',
      'at=99999999999999999',
      'at=8640000000000001',
      'at=12&x=1',
      'x=12',
      'at=%E0%A4%A',
      '12',
    ]) {
      const route = parseRoute(`#/budget/${bad}`);
      expect(route.at, bad).toBeNull();
      expect(route.view).toBe('budget');
    }
    expect(parseRoute('#/budget').at).toBeNull();
    expect(parseRoute('#/nowhere/at=5').at).toBeNull();
  });
});

describe('the Budget view at a linked moment', () => {
  it('shows the minute of the moment with half an hour either side', () => {
    const minute = Date.UTC(2026, 10, 21, 14, 5);
    expect(aroundMoment(minute + 42_000).custom).toEqual({ fromMs: minute - 30 * 60_000, toMs: minute + 31 * 60_000 });
  });
});

describe('the Requests view at a linked minute', () => {
  const minute = Date.UTC(2026, 10, 21, 14, 5);
  const at = (ms: number) => ({ at: ms }) as LogEntry;

  it('keeps the whole minute the moment falls in, and only it, whatever the time range says', () => {
    expect(minuteOf(minute + 59_999)).toBe(minute);
    const keep = logFilter({ endpoint: 'all', status: 'all', rangeS: 10, text: '', minute }, minute + 3_600_000);
    expect([minute - 1, minute, minute + 30_000, minute + 59_999, minute + 60_000].map((ms) => keep(at(ms)))).toEqual([false, true, true, true, false]);
  });
});
