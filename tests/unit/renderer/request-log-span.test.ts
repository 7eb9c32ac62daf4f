/**
 * The request log is bounded by count: under demo traffic its 5,000 requests cover seconds. The view
 * says the span it holds, an empty search says it looked only there, and Usage links a minute to the
 * log only while the log holds it (not "about the last hour").
 */
import { describe, expect, it } from 'vitest';
import { fmtClock } from '../../../renderer/src/lib/format';
import { holdsMinute, noMatchDetail, spanOfMain, spanText } from '../../../renderer/src/views/requests/log-span';

/** The span main answers (requestLogSpan) for a log holding `entries` (oldest first) of which it returns the newest `limit`. */
const spanOfBackfill = (entries: readonly { at: number }[], dropped: number, limit: number) => {
  const held = entries.slice(-limit);
  return spanOfMain({ oldestAt: held[0]?.at ?? null, count: held.length, dropped }, limit);
};

const NOW = Date.UTC(2026, 10, 27, 19, 0, 0);
const LIMIT = 5000;
/** Main's answer to the backfill: 5,000 entries over the last 12 s, oldest first, with older ones let go. */
const busy = spanOfBackfill(
  Array.from({ length: 5000 }, (_, i) => ({ at: NOW - 12_000 + (i * 12_000) / 4999 })),
  20_000,
  LIMIT,
);

describe('the span the request log holds', () => {
  it('names the count and the oldest kept time, with how long ago it was', () => {
    expect(busy).toEqual({ count: 5000, oldestAt: NOW - 12_000, complete: false });
    expect(spanText(busy, NOW)).toBe(`holds the last 5,000 requests, since ${fmtClock(NOW - 12_000)} (12 s ago)`);
  });

  it('says "all" when nothing was let go, and nothing when empty', () => {
    const all = spanOfBackfill([{ at: NOW - 90_000 }, { at: NOW - 1000 }], 0, LIMIT);
    expect(spanText(all, NOW)).toBe(`holds all 2 requests since ${fmtClock(NOW - 90_000)} (1 min 30 s ago)`);
    expect(spanText(spanOfBackfill([], 0, LIMIT), NOW)).toBe('holds no requests yet');
  });

  it('an empty search says it covered only the kept span', () => {
    expect(noMatchDetail(busy, NOW)).toBe(
      `Searched only the last 5,000 requests, since ${fmtClock(NOW - 12_000)} (12 s ago): older requests are no longer in the log.`,
    );
  });

  it('holds a minute only when the log reaches back before it (or into it with nothing let go)', () => {
    // A minute from one minute ago is long gone under demo traffic, though well within "the last hour".
    expect(holdsMinute(busy, NOW - 60_000)).toBe(false);
    expect(holdsMinute(busy, NOW - 60_000 - 60_000)).toBe(false);
    const quiet = spanOfBackfill([{ at: NOW - 30 * 60_000 }, { at: NOW - 1000 }], 500, LIMIT);
    expect(holdsMinute(quiet, NOW - 10 * 60_000)).toBe(true);
    expect(holdsMinute(quiet, NOW - 30 * 60_000)).toBe(false); // entries of that minute may have been let go
    const sinceStart = spanOfBackfill([{ at: NOW - 30 * 60_000 + 5000 }, { at: NOW - 1000 }], 0, LIMIT);
    expect(holdsMinute(sinceStart, NOW - 30 * 60_000)).toBe(true); // the app started in it
    expect(holdsMinute(spanOfBackfill([], 0, LIMIT), NOW - 60_000)).toBe(false);
    // Main let nothing go but holds more than the backfill reads: the view's log is not complete.
    expect(spanOfBackfill([{ at: NOW - 5000 }, { at: NOW - 1000 }], 0, 2).complete).toBe(false);
  });
});
