/**
 * The whole-second limiter allows N requests per server second. Without trusting any header we can
 * still keep our own requests inside that: a request answered at local time r was processed at or
 * before r; a request sent now is processed at or after now. If now - r >= 1000 (+ slack for clock
 * rate differences) the two cannot share a server second. So: at most N of our requests may be
 * "recent" (in flight, or answered within the last second) when we send another one. Any window of
 * one second then holds at most N of ours, whatever its alignment: no Date header needed, and in
 * steady state it costs only the round trip per second (N per 1000 ms + RTT).
 */
export const SLIDING_SLACK_MS = 2;

export class RecentSends {
  private readonly pending = new Set<number>();
  /** Local times by which answered requests were processed, ascending as inserted (mostly). */
  private answered: number[] = [];

  add(id: number): void {
    this.pending.add(id);
  }

  /** Processed by local time t (t may be in the future for an outcome we cannot pin down). */
  settle(id: number, t: number): void {
    if (!this.pending.delete(id)) return;
    this.answered.push(t);
    this.answered.sort((a, b) => a - b);
  }

  refund(id: number): void {
    this.pending.delete(id);
  }

  private prune(now: number): void {
    const horizon = now - 1000 - SLIDING_SLACK_MS;
    let i = 0;
    while (i < this.answered.length && this.answered[i]! <= horizon) i++;
    if (i > 0) this.answered = this.answered.slice(i);
  }

  /** How many more of our requests may be sent at `now` with a limit of N per second. */
  room(now: number, limit: number): number {
    this.prune(now);
    return limit - this.pending.size - this.answered.length;
  }

  /** Earliest local time >= now with room >= need; Infinity if only answers can free room. */
  earliest(need: number, now: number, limit: number): number {
    this.prune(now);
    const excess = this.pending.size + this.answered.length + need - limit;
    if (excess <= 0) return now;
    if (excess > this.answered.length) return Infinity;
    return this.answered[excess - 1]! + 1000 + SLIDING_SLACK_MS;
  }

  get inFlight(): number {
    return this.pending.size;
  }
}
