/**
 * Emits at most once per interval, whatever the rate of changes: callers accumulate state and call
 * `schedule()`; the emitter later calls `take()` for the accumulated payload and hands it to `emit`.
 * A change after a quiet period goes out on the next tick (delay 0), later ones wait for the interval.
 */
import type { Clock } from '../../shared/clock';

export interface ThrottledEmitterOptions<T> {
  intervalMs: number;
  clock: Clock;
  /** The payload accumulated since the last emit, or null when there is nothing to say. */
  take: () => T | null;
  emit: (payload: T) => void;
}

export class ThrottledEmitter<T> {
  private timer: unknown = null;
  private lastEmitAt = Number.NEGATIVE_INFINITY;
  private disposed = false;

  constructor(private readonly options: ThrottledEmitterOptions<T>) {}

  schedule(): void {
    if (this.disposed || this.timer !== null) return;
    const { clock, intervalMs } = this.options;
    const delay = Math.max(0, this.lastEmitAt + intervalMs - clock.now());
    this.timer = clock.setTimeout(() => {
      this.timer = null;
      this.flush();
    }, delay);
  }

  /** Emits now what has accumulated (dispose and tests use it). */
  flush(): void {
    if (this.timer !== null) {
      this.options.clock.clearTimeout(this.timer);
      this.timer = null;
    }
    const payload = this.options.take();
    if (payload === null) return;
    this.lastEmitAt = this.options.clock.now();
    this.options.emit(payload);
  }

  dispose(): void {
    if (this.timer !== null) this.options.clock.clearTimeout(this.timer);
    this.timer = null;
    this.disposed = true;
  }
}
