/**
 * The time a bucket's queue was held back, per cause (shared/wait-causes.ts), as running totals: a
 * waiter reads them when it joins and when it leaves, and the difference is its own wait split by
 * cause. Every queued request is held by what holds the queue's head (the queue is granted in order
 * as soon as the model allows), so one cause at a time covers the whole queue. Only records: nothing
 * here feeds back into when a request goes.
 */
import type { WaitCause, WaitCauses } from '../../shared/wait-causes';
import { emptyWaitCauses, WAIT_CAUSES } from '../../shared/wait-causes';

export class WaitLedger {
  private readonly totals = emptyWaitCauses();
  private cause: WaitCause | null = null;
  private since = 0;

  /** Counts the time up to `now` to the cause that held until now, then holds by `cause` (null: nothing waits). */
  hold(now: number, cause: WaitCause | null): void {
    this.advance(now);
    this.cause = cause;
  }

  /** The running totals up to `now` (a copy). */
  read(now: number): WaitCauses {
    this.advance(now);
    return { ...this.totals };
  }

  /** Adds what the totals grew by since `start` (read when the waiter joined) into `into`. */
  addSince(start: Readonly<WaitCauses>, now: number, into: WaitCauses): void {
    this.advance(now);
    for (const c of WAIT_CAUSES) into[c] += Math.max(0, this.totals[c] - start[c]);
  }

  private advance(now: number): void {
    if (this.cause !== null && now > this.since) this.totals[this.cause] += now - this.since;
    this.since = Math.max(this.since, now);
  }
}
