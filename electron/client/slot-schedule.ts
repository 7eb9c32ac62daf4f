/**
 * One reservation on a key's schedule, as the machine store keeps it (machine-slot-store.ts): the same
 * GCRA without burst and the same adaptive spread as the Redis script (slot-scripts.ts), on the one
 * clock every process of a machine shares. Pure, so that its rules are tested without a file.
 */
import type { Spacing } from './fleet-slot-store';

/** A key's schedule: the theoretical arrival time, and the spread with when it was last read and widened. */
export interface Schedule {
  /** Epoch ms of the next free slot. */
  tat: number;
  /** The clock when the last reservation was made (a clock step back shows as `at` ahead of now). */
  at: number;
  spreadMs: number;
  /** When a 429 last widened the spread (at most once a second). */
  widenedAt: number;
}

export interface Reservation {
  /** The schedule to store; unchanged when the slot was refused as too far off. */
  next: Schedule;
  /** Ms to wait before sending; over `maxWaitMs` means refused (headers only). */
  waitMs: number;
  spreadMs: number;
  /** Epoch ms of the granted slot (counted for its second), or null when refused. */
  slotAt: number | null;
}

/** A stored number we can use, or undefined: NaN, infinities and values past any clock are another writer's. */
export function usableTime(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && Math.abs(v) < 2 ** 52 ? v : undefined;
}

/**
 * Reserves one slot of `limit` per second: slots (1000 + spread) / limit ms apart, so that no second of the
 * service, whatever its alignment, holds more than `limit` of the machine's requests while each reaches it
 * within the spread of its slot. The spread narrows while nobody is refused and doubles on a 429, at most
 * once a second (Spacing). A stored schedule ahead of the clock by a step back moves back with the clock;
 * one further off than anyone waits is refused unadvanced, so that it drains in real time.
 */
export function reserveSlot(
  stored: Partial<Schedule> | undefined,
  now: number,
  limit: number,
  refused: boolean,
  spacing: Spacing,
  maxWaitMs: number,
): Reservation {
  const { floorMs, mostMs, narrowMsPerSecond, startMs } = spacing;
  const before = usableTime(stored?.at);
  let widenedAt = usableTime(stored?.widenedAt) ?? 0;
  if (widenedAt > now) widenedAt = 0;
  let spreadMs = Math.min(mostMs, Math.max(floorMs, usableTime(stored?.spreadMs) ?? startMs));
  spreadMs = Math.max(floorMs, spreadMs - (Math.max(0, now - (before ?? now)) * narrowMsPerSecond) / 1000);
  if (refused && now - widenedAt >= 1000) {
    spreadMs = Math.min(mostMs, Math.max(startMs, spreadMs * 2));
    widenedAt = now;
  }
  let tat = usableTime(stored?.tat) ?? now;
  // The clock went back (a step, NTP): the schedule moves back with it instead of being waited out.
  if (before !== undefined && before > now) tat -= before - now;
  tat = Math.max(tat, now);
  if (tat - now > maxWaitMs) {
    return { next: { tat, at: now, spreadMs, widenedAt }, waitMs: Math.ceil(tat - now), spreadMs, slotAt: null };
  }
  const interval = (1000 + spreadMs) / Math.max(1, limit);
  return { next: { tat: tat + interval, at: now, spreadMs, widenedAt }, waitMs: Math.floor(tat - now), spreadMs, slotAt: tat };
}
