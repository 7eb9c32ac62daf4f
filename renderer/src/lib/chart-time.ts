/**
 * The one time format of every chart (live panels and history): format.ts's 24-hour clock, with the
 * detail the shown span (or the labels' step) needs.
 */
import { fmtClock, fmtClockMinutes, fmtDayMonth, fmtMoment, fmtWeekdayHour } from './format';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * An axis label: seconds up to an hour's span, clock minutes up to a day, day and hour up to a week, the
 * date beyond. Labels `stepMs` apart on whole minutes need no seconds ("15:04", not "15:04:00").
 */
export function chartTick(t: number, spanMs: number, stepMs = 0): string {
  if (spanMs <= HOUR_MS) return stepMs >= MINUTE_MS && t % MINUTE_MS === 0 ? fmtClockMinutes(t) : fmtClock(t);
  if (spanMs <= DAY_MS) return fmtClockMinutes(t);
  if (spanMs <= 8 * DAY_MS) return fmtWeekdayHour(t);
  return fmtDayMonth(t);
}

/** A tooltip's time: the clock time within an hour's span, else the date with it. */
export function chartMoment(t: number, spanMs: number): string {
  return spanMs <= HOUR_MS ? fmtClock(t) : fmtMoment(t);
}
