/**
 * The machine store's schedule (slot-schedule.ts): the Redis script's rules on one machine's clock.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SPACING, MAX_SLOT_WAIT_MS } from '../../electron/client/fleet-slot-store';
import { reserveSlot } from '../../electron/client/slot-schedule';
import type { Schedule } from '../../electron/client/slot-schedule';

const T0 = 1_800_000_000_000;

function run(times: number[], limit = 20, refusedAt: number[] = []): { waits: number[]; last: Schedule } {
  let stored: Partial<Schedule> | undefined;
  const waits: number[] = [];
  for (const now of times) {
    const r = reserveSlot(stored, now, limit, refusedAt.includes(now), DEFAULT_SPACING, MAX_SLOT_WAIT_MS);
    waits.push(r.waitMs);
    stored = r.next;
  }
  return { waits, last: stored as Schedule };
}

describe('the machine store schedule', () => {
  it('spaces slots (1000 + spread) / limit apart: 40 asked at once are granted over 2 s + 40 spreads', () => {
    const { waits } = run(Array.from({ length: 40 }, () => T0));
    expect(waits[0]).toBe(0);
    expect(waits[1]).toBe(Math.floor(1025 / 20));
    expect(waits[39]).toBe(Math.floor((39 * 1025) / 20));
    // No second of arrivals at the slots holds more than the limit.
    for (let s = 0; s < 3; s++) expect(waits.filter((w) => w >= s * 1000 && w < (s + 1) * 1000).length).toBeLessThanOrEqual(20);
  });

  it('narrows the spread while nobody is refused, down to its floor', () => {
    const { last } = run([T0, T0 + 5_000, T0 + 60_000]);
    expect(last.spreadMs).toBe(DEFAULT_SPACING.floorMs);
    expect(run([T0, T0 + 5_000]).last.spreadMs).toBe(DEFAULT_SPACING.startMs - 5);
  });

  it('doubles the spread on a 429, at most once a second', () => {
    const times = [T0, T0 + 100, T0 + 200, T0 + 1_300];
    const { last } = run(times, 20, [T0 + 100, T0 + 200]);
    expect(last.widenedAt).toBe(T0 + 100);
    expect(run(times, 20, [T0 + 100, T0 + 200, T0 + 1_300]).last.widenedAt).toBe(T0 + 1_300);
    expect(run([T0, T0 + 100], 20, [T0 + 100]).last.spreadMs).toBeCloseTo(2 * (DEFAULT_SPACING.startMs - 0.1), 5);
  });

  it('moves the schedule back with a clock stepped back, instead of waiting the step out', () => {
    const first = reserveSlot(undefined, T0, 20, false, DEFAULT_SPACING, MAX_SLOT_WAIT_MS);
    const after = reserveSlot(first.next, T0 - 3_600_000, 20, false, DEFAULT_SPACING, MAX_SLOT_WAIT_MS);
    expect(after.waitMs).toBeLessThan(100);
  });

  it('refuses a slot further off than anyone waits, leaving the schedule where it was', () => {
    const stored: Schedule = { tat: T0 + MAX_SLOT_WAIT_MS + 5_000, at: T0, spreadMs: 25, widenedAt: 0 };
    const r = reserveSlot(stored, T0, 20, false, DEFAULT_SPACING, MAX_SLOT_WAIT_MS);
    expect(r.slotAt).toBeNull();
    expect(r.waitMs).toBeGreaterThan(MAX_SLOT_WAIT_MS);
    expect(r.next.tat).toBe(stored.tat);
  });

  it("takes another writer's NaN, infinities and times past any clock as absent", () => {
    for (const bad of [NaN, Infinity, -Infinity, 1e300, -1e300]) {
      const r = reserveSlot({ tat: bad, at: bad, spreadMs: bad, widenedAt: bad }, T0, 20, false, DEFAULT_SPACING, MAX_SLOT_WAIT_MS);
      expect(r.waitMs).toBe(0);
      expect(r.spreadMs).toBe(DEFAULT_SPACING.startMs);
      expect(r.next.tat).toBe(T0 + 1025 / 20);
    }
  });

  it('keeps a stored spread within its bounds', () => {
    expect(reserveSlot({ spreadMs: 1e6 }, T0, 20, false, DEFAULT_SPACING, MAX_SLOT_WAIT_MS).spreadMs).toBe(DEFAULT_SPACING.mostMs);
    expect(reserveSlot({ spreadMs: -50 }, T0, 20, false, DEFAULT_SPACING, MAX_SLOT_WAIT_MS).spreadMs).toBe(DEFAULT_SPACING.floorMs);
  });
});
