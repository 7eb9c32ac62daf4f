/**
 * The one time format of every chart (live panels and history): the user's locale, through
 * Intl.DateTimeFormat, with the detail the shown span needs.
 */
const SECONDS = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
const MINUTES = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const DAY_HOUR = new Intl.DateTimeFormat(undefined, { weekday: 'short', hour: '2-digit' });
const DATE = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
const MOMENT = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** An axis label: seconds up to an hour's span, clock minutes up to a day, day and hour up to a week, the date beyond. */
export function chartTick(t: number, spanMs: number): string {
  if (spanMs <= HOUR_MS) return SECONDS.format(t);
  if (spanMs <= DAY_MS) return MINUTES.format(t);
  if (spanMs <= 8 * DAY_MS) return DAY_HOUR.format(t);
  return DATE.format(t);
}

/** A tooltip's time: the clock time within an hour's span, else the date with it. */
export function chartMoment(t: number, spanMs: number): string {
  return spanMs <= HOUR_MS ? SECONDS.format(t) : MOMENT.format(t);
}
