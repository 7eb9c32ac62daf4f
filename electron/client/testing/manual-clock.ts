/**
 * A clock that moves only when told to, for tests: timers fire in time order as time is advanced,
 * and `advance` lets promise chains settle between timers, so async client code runs as it would.
 */
import type { Clock } from '../../../shared/clock';

interface Timer {
  at: number;
  seq: number;
  fn: () => void;
}

/** Lets pending promise continuations run (a few event-loop turns: Response bodies are streams). */
export async function settle(rounds = 4): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((resolve) => setImmediate(resolve));
}

export class ManualClock implements Clock {
  private t: number;
  private seq = 0;
  private timers = new Map<number, Timer>();

  constructor(startMs = Date.UTC(2025, 0, 1, 12, 0, 0)) {
    this.t = startMs;
  }

  now(): number {
    return this.t;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const id = ++this.seq;
    this.timers.set(id, { at: this.t + Math.max(0, Number.isFinite(ms) ? ms : 0), seq: id, fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  /** Timers not yet fired or cleared. */
  get pendingTimers(): number {
    return this.timers.size;
  }

  /** When the next timer is due, or undefined. */
  nextTimerAt(): number | undefined {
    let next: number | undefined;
    for (const t of this.timers.values()) if (next === undefined || t.at < next) next = t.at;
    return next;
  }

  private popDue(until: number): Timer | undefined {
    let best: Timer | undefined;
    for (const t of this.timers.values()) {
      if (t.at <= until && (!best || t.at < best.at || (t.at === best.at && t.seq < best.seq))) best = t;
    }
    if (best) this.timers.delete(best.seq);
    return best;
  }

  /** Moves time forward by `ms`, firing due timers in order and settling promises after each. */
  async advance(ms: number): Promise<void> {
    const target = this.t + ms;
    await settle();
    for (;;) {
      const timer = this.popDue(target);
      if (!timer) break;
      this.t = Math.max(this.t, timer.at);
      timer.fn();
      await settle();
    }
    this.t = target;
    await settle();
  }

  /** Advances until `done()` holds (checked after every timer), or throws after `limitMs`. */
  async runUntil(done: () => boolean, limitMs = 600_000): Promise<void> {
    const end = this.t + limitMs;
    await settle();
    while (!done()) {
      const next = this.nextTimerAt();
      if (next === undefined || next > end) throw new Error(`runUntil: condition not met within ${limitMs} ms (pending timers: ${this.timers.size})`);
      await this.advance(Math.max(0, next - this.t));
    }
  }
}
