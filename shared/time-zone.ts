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

/** The zone's offset from UTC at `ms` (ms; east positive). */
function offsetAt(ms: number, timeZone: string): number {
  const t = zonedTime(ms, timeZone);
  const [y, m, d] = t.day.split('-').map(Number) as [number, number, number];
  const asUtc = Date.UTC(y, m - 1, d, t.hour, t.minute);
  return asUtc - Math.floor(ms / 60_000) * 60_000;
}

/** The first instant of a calendar day (YYYY-MM-DD) in the zone. */
export function startOfDay(day: string, timeZone: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d);
  // Twice: the offset at the guess may differ from the offset at local midnight (a DST change that day).
  const first = guess - offsetAt(guess, timeZone);
  return guess - offsetAt(first, timeZone);
}

/** The calendar day after `day`. */
export function nextDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}
