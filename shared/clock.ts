/**
 * Time and timers, injected so that every wait, timeout, backoff, batch and throttle can run on a
 * fake clock in tests. `now()` is epoch ms. One interface for the client, telemetry and downloads.
 */
export interface Clock {
  now(): number;
  /**
   * Wall-clock epoch ms, where now() is monotonic: after the computer sleeps the two part by the sleep
   * time. Pace on now(); stamp what people read (samples, log entries) with wallTime(). Absent: now() is both.
   */
  wallNow?(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The wall-clock time of an instant read on `clock.now()` (the same instant when the clock has no wallNow). */
export function wallTime(clock: Clock, monotonicMs: number): number {
  return clock.wallNow ? clock.wallNow() - (clock.now() - monotonicMs) : monotonicMs;
}

/**
 * Wall-clock time with unref'd timers, for batching, throttling and progress timers: a pending
 * flush never keeps the process alive on its own. (The client paces on its own monotonic clock.)
 */
export const timerClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    // unknown: a Node Timeout (with unref) under Node, a number in a browser.
    const handle: unknown = setTimeout(fn, ms);
    if (typeof handle === 'object' && handle !== null && 'unref' in handle && typeof handle.unref === 'function') handle.unref();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
