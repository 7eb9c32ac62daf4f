/**
 * Reservations that timed out and are still unanswered. Redis runs a timed-out command when it can and grants
 * its slot: while one is pending, the next reservations wait for it (up to their own timeout) instead of piling
 * more into the socket, so that a Redis that hung does not wake up to thousands of abandoned slots pushing the
 * fleet's schedule far ahead.
 */

/** A reservation unanswered this long is forgotten: the next one asks again (a probe, at most one per this long while Redis hangs). */
const PENDING_FORGET_MS = 10_000;

export class PendingReservations {
  /** By when asked: the reply's settling (answered or dropped with the connection). */
  private readonly pending = new Map<number, Promise<unknown>>();

  /** A reply that timed out: pending until Redis answers it or the connection drops it. */
  add(askedAt: number, reply: Promise<unknown>): void {
    const gone = (): boolean => this.pending.delete(askedAt);
    this.pending.set(askedAt, reply.then(gone, gone));
  }

  /** Whether one is pending (one older than PENDING_FORGET_MS no longer counts). Synchronous: the usual path sends at once. */
  any(now: number): boolean {
    for (const at of this.pending.keys()) if (now - at > PENDING_FORGET_MS) this.pending.delete(at);
    return this.pending.size > 0;
  }

  /** True once none is pending, waiting up to `ms` for those that are. */
  async noneWithin(ms: number): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
    await Promise.race([Promise.all([...this.pending.values()]), late]);
    clearTimeout(timer);
    return this.pending.size === 0;
  }
}
