/**
 * A report's day starts at the first instant of that local date. Where summer time starts at midnight
 * (America/Santiago, America/Havana), midnight never shows: the day starts at 01:00, not at 23:00 the
 * evening before.
 */
import { describe, expect, it } from 'vitest';
import { nextDay, startOfDay, zonedTime } from '../../shared/time-zone';

const iso = (ms: number) => new Date(ms).toISOString();

/** The day's start is on that day, and the minute before it on the day before. */
function expectFirstInstant(day: string, timeZone: string): number {
  const start = startOfDay(day, timeZone);
  expect(zonedTime(start, timeZone).day).toBe(day);
  expect(zonedTime(start - 1, timeZone).day < day).toBe(true);
  return start;
}

describe('startOfDay', () => {
  it('starts a day whose midnight is skipped (summer time at 00:00) at 01:00 local', () => {
    const santiago = expectFirstInstant('2024-09-08', 'America/Santiago');
    expect(iso(santiago)).toBe('2024-09-08T04:00:00.000Z');
    expect(zonedTime(santiago, 'America/Santiago')).toEqual({ day: '2024-09-08', hour: 1, minute: 0 });

    const havana = expectFirstInstant('2024-03-10', 'America/Havana');
    expect(iso(havana)).toBe('2024-03-10T05:00:00.000Z');
    expect(zonedTime(havana, 'America/Havana')).toEqual({ day: '2024-03-10', hour: 1, minute: 0 });
  });

  it('ends the day before where the short day starts: the evening before stays in it', () => {
    const tz = 'America/Santiago';
    const lateEvening = Date.parse('2024-09-08T03:30:00Z'); // 23:30 on the 7th, local
    expect(lateEvening).toBeGreaterThanOrEqual(startOfDay('2024-09-07', tz));
    expect(lateEvening).toBeLessThan(startOfDay(nextDay('2024-09-07'), tz));
  });

  it('starts an ordinary day, and one whose summer time starts at 02:00, at local midnight', () => {
    expect(iso(expectFirstInstant('2024-06-01', 'Europe/Berlin'))).toBe('2024-05-31T22:00:00.000Z');
    expect(iso(expectFirstInstant('2024-03-31', 'Europe/Berlin'))).toBe('2024-03-30T23:00:00.000Z');
    expect(iso(expectFirstInstant('2024-01-01', 'UTC'))).toBe('2024-01-01T00:00:00.000Z');
  });

  it('starts a fall-back day at its first midnight', () => {
    // Santiago turns 24:00 back to 23:00: midnight shows once, in winter time.
    expect(iso(expectFirstInstant('2024-04-07', 'America/Santiago'))).toBe('2024-04-07T04:00:00.000Z');
    // Havana turns 01:00 back to 00:00: midnight shows twice; the day starts at the first.
    expect(iso(expectFirstInstant('2024-11-03', 'America/Havana'))).toBe('2024-11-03T04:00:00.000Z');
  });
});
