/** Number and time formatting for dense tables: short, fixed-width friendly, never "NaN". */
const integer = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1, minimumFractionDigits: 1 });

export const DASH = '—';

export function fmtInt(n: number | null | undefined): string {
  return n === null || n === undefined || !Number.isFinite(n) ? DASH : integer.format(n);
}

export function fmtRate(n: number | null | undefined): string {
  return n === null || n === undefined || !Number.isFinite(n) ? DASH : oneDecimal.format(n);
}

export function fmtMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return DASH;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  return fmtDuration(ms / 1000);
}

/** Seconds as "42 s", "3 min 05 s", "1 h 02 min". */
export function fmtDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return DASH;
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
}

export function fmtBytes(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return DASH;
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/*
 * Times of day: one format app-wide, 24-hour (an ops tool, read beside logs and servers' clocks), the
 * same in every view, table, chart axis and tooltip. Dates stay in the user's locale.
 */
const pad2 = (v: number) => String(v).padStart(2, '0');

/** "15:04:05" (with withMs "15:04:05.123", for the request log). */
export function fmtClock(ms: number, withMs = false): string {
  const d = new Date(ms);
  const hms = `${fmtClockMinutes(ms)}:${pad2(d.getSeconds())}`;
  return withMs ? `${hms}.${String(d.getMilliseconds()).padStart(3, '0')}` : hms;
}

/** "15:04". */
export function fmtClockMinutes(ms: number): string {
  const d = new Date(ms);
  return `${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}

const DAY_MONTH = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
const DAY_MONTH_YEAR = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: '2-digit' });
const WEEKDAY = new Intl.DateTimeFormat(undefined, { weekday: 'short' });

/** "Nov 27" (the locale's order). */
export function fmtDayMonth(ms: number): string {
  return DAY_MONTH.format(ms);
}

/** "Fri 15:00": an hour within a week. */
export function fmtWeekdayHour(ms: number): string {
  return `${WEEKDAY.format(ms)} ${pad2(new Date(ms).getHours())}:00`;
}

/** "Nov 27, 15:04:05": a moment within the last weeks. */
export function fmtMoment(ms: number): string {
  return `${fmtDayMonth(ms)}, ${fmtClock(ms)}`;
}

/** "Nov 27, 2026, 15:04". */
export function fmtDateTime(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return DASH;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return String(value);
  return `${DAY_MONTH_YEAR.format(d)}, ${fmtClockMinutes(d.getTime())}`;
}

export function fmtDate(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return DASH;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return String(value);
  return d.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: '2-digit' });
}

export function fmtPrice(price: unknown, currency: unknown): string {
  if (typeof price !== 'number' || !Number.isFinite(price)) return DASH;
  const code = typeof currency === 'string' && /^[A-Z]{3}$/.test(currency) ? currency : null;
  return code ? new Intl.NumberFormat(undefined, { style: 'currency', currency: code }).format(price) : price.toFixed(2);
}

export function fmtPercent(share: number | null | undefined): string {
  return share === null || share === undefined || !Number.isFinite(share) ? DASH : `${Math.round(share * 100)}%`;
}

/** "96% (ours 54%)": the whole budget's use and this app's part, as the live Budget table writes it; one figure where they are the same. */
export function fmtUseWithOurs(use: number | null, ours: number | null): string {
  return ours === null || use === null || Math.round(ours * 100) === Math.round(use * 100) ? fmtPercent(use) : `${fmtPercent(use)} (ours ${fmtPercent(ours)})`;
}
