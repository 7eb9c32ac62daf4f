/**
 * A field that holds a time, whatever the service's style: an ISO text, or epoch seconds or
 * milliseconds, under a name that says so (`updated_at`, `createdAt`, `timestamp`, `date`).
 */
const TIME_NAME = /(_at|At|date|Date|time|Time|timestamp|ts)$/;

/** Epoch ms of a time field's value; null when the field is not a time or the value is not one. */
export function timeOfField(field: string, value: unknown): number | null {
  if (!TIME_NAME.test(field)) return null;
  if (typeof value === 'string') {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? null : ms;
  }
  if (typeof value === 'number' && Number.isFinite(value)) {
    if (value > 1e11 && value < 1e14) return value; // milliseconds (1973-5138)
    if (value > 1e8 && value < 1e11) return value * 1000; // seconds
  }
  return null;
}
