/**
 * How far back the request log reaches. It is bounded by count, not time: under heavy traffic its
 * newest 5,000 requests may cover seconds only, so the Requests view says the span it holds, an empty
 * search says it looked only there, and the Usage report links a minute only while the log holds it.
 */
import { fmtClock, fmtDuration, fmtInt } from '../../lib/format';

export interface LogSpan {
  /** Entries kept. */
  count: number;
  /** The oldest kept entry's time; null when nothing is kept. */
  oldestAt: number | null;
  /** Nothing was let go: the log holds every request since the app started. */
  complete: boolean;
}

/**
 * The span the Requests view would hold, from main's requestLogSpan answer for the backfill's `limit`:
 * complete when main let nothing go and holds fewer than `limit` entries (the view would hold every one).
 */
export function spanOfMain(answer: { oldestAt: number | null; count: number; dropped: number }, limit: number): LogSpan {
  return { count: answer.count, oldestAt: answer.oldestAt, complete: answer.dropped === 0 && answer.count < limit };
}

/**
 * Whether the log still holds the minute starting at `minuteStart`: it reaches back before the
 * minute, or into it with nothing let go (the app started within that minute).
 */
export function holdsMinute(span: LogSpan, minuteStart: number): boolean {
  if (span.oldestAt === null) return false;
  return span.oldestAt < minuteStart || (span.complete && span.oldestAt < minuteStart + 60_000);
}

/** "18:59:38 (12 s ago)". */
function since(at: number, now: number): string {
  return `${fmtClock(at)} (${fmtDuration(Math.max(0, (now - at) / 1000))} ago)`;
}

/** "holds the last 5,000 requests, since 18:59:38 (12 s ago)"; "holds all 120 requests since 18:59:38 (…)" when nothing was let go. */
export function spanText(span: LogSpan, now: number): string {
  if (span.oldestAt === null) return 'holds no requests yet';
  const n = fmtInt(span.count);
  const noun = span.count === 1 ? 'request' : 'requests';
  return span.complete ? `holds all ${n} ${noun} since ${since(span.oldestAt, now)}` : `holds the last ${n} ${noun}, since ${since(span.oldestAt, now)}`;
}

/** Under "No request matches the filters.": what the filters were applied to. */
export function noMatchDetail(span: LogSpan, now: number): string {
  if (span.oldestAt === null) return '';
  return span.complete
    ? `Searched every request since ${since(span.oldestAt, now)}.`
    : `Searched only the last ${fmtInt(span.count)} requests, since ${since(span.oldestAt, now)}: older requests are no longer in the log.`;
}
