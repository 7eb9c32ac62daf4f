/**
 * The Budget view's one clock for its rates: it ticks at a fixed point of each period, and reads the
 * moment it was due, not when the timer happened to fire. Ticked at SETTLE_MS into the second, the table
 * and every chart panel move to the same complete second at once (a panel's plot later within the second
 * by its stagger only), so the table's Req/s and a panel's "5 s avg" are never a second apart.
 */
import { useEffect, useState } from 'react';

/** The latest moment at or before `now` that lies `offsetMs` into a period of `periodMs`. */
export function lastAlignedTick(now: number, periodMs: number, offsetMs: number): number {
  return Math.floor((now - offsetMs) / periodMs) * periodMs + offsetMs;
}

/**
 * The latest tick's due moment (`offsetMs` into each `periodMs`), re-rendering at each one after a further
 * `delayMs` (a panel's stagger: it draws later, at the same moment); `frozenAt` when set (paused).
 */
export function useAlignedNow(
  periodMs: number,
  offsetMs: number,
  { delayMs = 0, frozenAt = null }: { delayMs?: number; frozenAt?: number | null } = {},
): number {
  const [tick, setTick] = useState(() => lastAlignedTick(Date.now() - delayMs, periodMs, offsetMs));
  useEffect(() => {
    if (frozenAt !== null) return;
    let timer: ReturnType<typeof setTimeout>;
    const schedule = () => {
      const due = lastAlignedTick(Date.now() - delayMs, periodMs, offsetMs) + periodMs;
      timer = setTimeout(
        () => {
          // Late (a throttled tab): the latest tick, not the one that was due.
          setTick(Math.max(due, lastAlignedTick(Date.now() - delayMs, periodMs, offsetMs)));
          schedule();
        },
        Math.max(0, due + delayMs - Date.now()),
      );
    };
    setTick(lastAlignedTick(Date.now() - delayMs, periodMs, offsetMs));
    schedule();
    return () => clearTimeout(timer);
  }, [periodMs, offsetMs, delayMs, frozenAt]);
  return frozenAt ?? tick;
}
