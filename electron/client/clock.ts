import type { Clock } from '../../shared/clock';

/**
 * Real time for the client. `now()` is monotonic (performance.timeOrigin + performance.now()): a
 * wall-clock step (NTP) must not make the pacing think a second went by, or none did. It falls behind
 * Date.now() by the time the computer slept, so sample time stamps use wallNow() (see wallTime).
 * Its timers are not unref'd (unlike shared/clock's timerClock): a caller awaiting a queued or
 * backing-off request keeps the process alive until the answer.
 */
export const systemClock: Clock = {
  now: () => performance.timeOrigin + performance.now(),
  // Samples are stamped with this: the monotonic clock stops while the computer sleeps, the wall clock does not.
  wallNow: () => Date.now(),
  // Capped: Node fires a longer timer at once, with a TimeoutOverflowWarning.
  setTimeout: (fn, ms) => setTimeout(fn, Math.min(2 ** 31 - 1, Math.max(0, Math.ceil(Number.isFinite(ms) ? ms : 0)))),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
