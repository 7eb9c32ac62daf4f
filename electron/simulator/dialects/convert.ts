/** Value conversions the dialects share: times, money, numeric ids for categories and purchases. */
import { CATEGORIES } from '../words';

/** "2021-03-04T05:06:07Z" as epoch milliseconds. */
export const epochMs = (iso: string): number => Date.parse(iso);
/** ... as whole epoch seconds. */
export const epochS = (iso: string): number => Math.floor(Date.parse(iso) / 1000);

/** Major units (12.99) as minor units (1299), exactly. */
export const minorUnits = (major: number): number => Math.round(major * 100);
/** Major units as a decimal string ("12.99"). */
export const decimalString = (major: number): string => major.toFixed(2);

/** A category's number (1-based position) for dialects with numeric category ids. */
export function categoryNumber(id: string): number {
  return CATEGORIES.findIndex((c) => c.id === id) + 1;
}

/** A numeric category id (number or digits) as the canonical id; anything else unchanged (the action says 400). */
export function categoryFromNumber(value: unknown): unknown {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,3}$/.test(value) ? Number(value) : NaN;
  const def = Number.isInteger(n) ? CATEGORIES[n - 1] : undefined;
  if (def) return def.id;
  return value === undefined || value === null ? value : String(value);
}

const PURCHASE_PREFIX = 'p_';

/** The canonical purchase id "p_00000a" as the number 10 (its sequence number). */
export function purchaseNumber(id: string): number {
  return parseInt(id.slice(PURCHASE_PREFIX.length), 36);
}

/** A numeric purchase id (digits) as the canonical id; anything else unchanged (the action says 404). */
export function purchaseFromNumber(value: string): string {
  if (!/^\d{1,15}$/.test(value)) return value;
  return `${PURCHASE_PREFIX}${Number(value).toString(36).padStart(6, '0')}`;
}

/** A body field by dotted name (`filter.text`); undefined when absent. */
export function fieldAt(body: Record<string, unknown>, name: string): unknown {
  let current: unknown = body;
  for (const key of name.split('.')) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
    if (!Object.prototype.hasOwnProperty.call(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** The object without its undefined properties (so that absent stays absent in the canonical body). */
export function defined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));
}
