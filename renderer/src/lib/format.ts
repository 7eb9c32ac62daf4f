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

/** Wall-clock time with milliseconds, for the request log. */
export function fmtClock(ms: number, withMs = false): string {
  const d = new Date(ms);
  const hms = [d.getHours(), d.getMinutes(), d.getSeconds()].map((v) => String(v).padStart(2, '0')).join(':');
  return withMs ? `${hms}.${String(d.getMilliseconds()).padStart(3, '0')}` : hms;
}

export function fmtDateTime(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return DASH;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return String(value);
  return d.toLocaleString(undefined, { year: 'numeric', month: 'short', day: '2-digit', hour: '2-digit', minute: '2-digit' });
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
