/**
 * The client's notion of time, injectable so that every wait, timeout and backoff runs on a fake
 * clock in tests. `now()` is epoch ms.
 */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/**
 * Real time. `now()` is monotonic (performance.timeOrigin + performance.now()): a wall-clock step
 * (NTP) must not make the pacing think a second went by, or none did. It stays within a few ms of
 * Date.now() for the life of a process, close enough for sample time stamps.
 */
export const systemClock: Clock = {
  now: () => performance.timeOrigin + performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, Math.max(0, Math.ceil(ms))),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
