/** Value conversions for the readers: ids, text, counts, money, times. Total functions: null when unusable. */
import { NumberText } from '../json/number-text';

/** An id as the service wrote it: an integer past 2^53 stays its number text (NumberText). */
export type Id = string | number | NumberText;

/** An id as given: a finite number (exact past 2^53) or a non-empty string. */
export function asId(value: unknown): Id | null {
  if (value instanceof NumberText) return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '') return value;
  return null;
}

export function asText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (value instanceof NumberText) return value.text;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

/** A decimal number: a finite number or an exact decimal string ("12.30", "-4", "1e3" is refused). */
export function asDecimal(value: unknown): number | null {
  if (value instanceof NumberText) return Number(value.text);
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return null;
}

/** A count: a whole number >= 0, or its digits as a string. */
export function asCount(value: unknown): number | null {
  const n = asDecimal(value);
  return n !== null && n >= 0 && Number.isSafeInteger(n) ? n : null;
}

export function asFlag(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  return null;
}

/** ISO 4217 minor-unit digits that are not 2. */
const MINOR_DIGITS: Record<string, number> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
};

export function minorDigits(currency: string | null): number {
  return (currency === null ? undefined : MINOR_DIGITS[currency.toUpperCase()]) ?? 2;
}

/** Major units from an amount in major or minor units (exact for decimal strings of cents). */
export function toMajor(amount: number, unit: 'major' | 'minor', currency: string | null): number {
  if (unit === 'major') return amount;
  const digits = minorDigits(currency);
  // Divide once: the correctly rounded quotient is the double closest to the decimal amount.
  return amount / 10 ** digits;
}

/** A currency code from a string, or an object holding one (`{code}`, `{currency}`, `{iso}`...). */
export function asCurrency(value: unknown): string | null {
  if (typeof value === 'string' && /^[A-Za-z]{3}$/.test(value.trim())) return value.trim().toUpperCase();
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    for (const key of ['code', 'currency', 'iso', 'isoCode', 'iso_code', 'currency_code', 'currencyCode']) {
      const code = asCurrency(record[key]);
      if (code !== null) return code;
    }
  }
  return null;
}

export type TimeFormat = 'iso' | 'epoch-s' | 'epoch-ms' | 'auto';

/** Epoch seconds vs milliseconds: anything past 10^11 is ms (year 5138 in seconds). */
const MS_THRESHOLD = 1e11;
const MAX_TIME_MS = 8.64e15;

/** Epoch ms from an ISO text or an epoch number (or digits); null when it is not a time. */
export function asTimeMs(value: unknown, format: TimeFormat): number | null {
  const numeric = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : null;
  let ms: number | null = null;
  if (numeric !== null && Number.isFinite(numeric) && format !== 'iso') {
    if (format === 'epoch-s') ms = numeric * 1000;
    else if (format === 'epoch-ms') ms = numeric;
    else ms = numeric > MS_THRESHOLD ? numeric : numeric * 1000;
  } else if (typeof value === 'string' && numeric === null && (format === 'iso' || format === 'auto')) {
    const parsed = Date.parse(value);
    ms = Number.isNaN(parsed) ? null : parsed;
  }
  return ms !== null && Math.abs(ms) <= MAX_TIME_MS ? Math.round(ms) : null;
}

export function asIsoTime(value: unknown, format: TimeFormat): string | null {
  const ms = asTimeMs(value, format);
  return ms === null ? null : new Date(ms).toISOString();
}

/** Only http(s) links: the dashboard opens them, so a javascript: or file: URL is refused. */
export function asWebUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    const u = new URL(value);
    return u.protocol === 'https:' || u.protocol === 'http:' ? value : null;
  } catch {
    return null;
  }
}
