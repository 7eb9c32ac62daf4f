/**
 * Calendar days and hours of day in a named time zone (IANA, e.g. "Europe/Berlin"), with the
 * platform's Intl: a report counts "Tuesday" and "9 to 10" where its reader lives, summer time included.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' });
    formatters.set(timeZone, f);
  }
  return f;
}

export function isTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

export interface ZonedTime {
  /** YYYY-MM-DD */
  day: string;
  hour: number;
  minute: number;
}

export function zonedTime(ms: number, timeZone: string): ZonedTime {
  const parts: Record<string, string> = {};
  for (const p of formatter(timeZone).formatToParts(ms)) parts[p.type] = p.value;
  return { day: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour) % 24, minute: Number(parts.minute) };
}

const MINUTE_MS = 60_000;

/**
 * The first instant of a calendar day (YYYY-MM-DD) in the zone: local midnight, or where summer time
 * starts at midnight (America/Santiago, America/Havana) and midnight never shows, the first instant
 * that does (01:00). Found by halving, to the minute, the instants whose local day is `day`: offsets
 * lie within -12 h and +14 h, and they change on whole minutes.
 */
export function startOfDay(day: string, timeZone: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const utcMidnight = Date.UTC(y, m - 1, d);
  // In minutes: `before` is still on an earlier local day, `after` already on this one or later.
  let before = (utcMidnight - 15 * 3600_000) / MINUTE_MS;
  let after = (utcMidnight + 13 * 3600_000) / MINUTE_MS;
  while (after - before > 1) {
    const mid = Math.floor((before + after) / 2);
    if (zonedTime(mid * MINUTE_MS, timeZone).day < day) before = mid;
    else after = mid;
  }
  return after * MINUTE_MS;
}

/** The calendar day after `day`. */
export function nextDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}
