/** Time and timers, injected so that batching is tested with a fake clock. Same shape as the client's Clock. */
export interface TimerClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: TimerClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const handle = setTimeout(fn, ms);
    // A pending flush never keeps the process alive on its own.
    if (typeof handle === 'object' && handle !== null && 'unref' in handle) handle.unref();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
