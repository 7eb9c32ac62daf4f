/**
 * The whole-second limiter allows N requests per server second. Without trusting any header we can
 * still keep our own requests inside that: a request answered at local time r was processed at or
 * before r; a request sent now is processed at or after now. If now - r >= 1000 (+ slack for clock
 * rate differences) the two cannot share a server second. So: at most N of our requests may be
 * "recent" (in flight, or answered within the last second) when we send another one. Any window of
 * one second then holds at most N of ours, whatever its alignment. This costs a round trip per
 * reuse of a slot (N per 1000 ms + RTT).
 *
 * Where the answer's Date header says which server second processed it, the request stops counting
 * as soon as that second has surely ended on the server (ServerClock), which removes the round-trip
 * cost. Only the Date header is trusted for this, never the X-Rate-Limit-* values.
 */
export const SLIDING_SLACK_MS = 2;

/** Local time by which a server second (epoch ms) has surely ended, or null when unknown; `at`: local time of the answer. */
export type SecondEnd = (secondMs: number, at: number) => number | null;

interface Answered {
  /** Local time of the answer (processing was at or before it). */
  at: number;
  /** Server second from Date, or null. */
  second: number | null;
}

export class RecentSends {
  private readonly pending = new Set<number>();
  private answered: Answered[] = [];

  constructor(private readonly secondEnd: SecondEnd = () => null) {}

  add(id: number): void {
    this.pending.add(id);
  }

  /** Processed by local time t (t may be in the future for an outcome we cannot pin down). */
  settle(id: number, t: number, second: number | null = null): void {
    if (!this.pending.delete(id)) return;
    this.answered.push({ at: t, second });
  }

  refund(id: number): void {
    this.pending.delete(id);
  }

  /** When an answered request stops sharing a possible server second with new ones. */
  private expiry(a: Answered): number {
    const sliding = a.at + 1000 + SLIDING_SLACK_MS;
    if (a.second === null) return sliding;
    const end = this.secondEnd(a.second, a.at);
    return end === null ? sliding : Math.min(sliding, end);
  }

  private live(now: number): number[] {
    const expiries = this.answered.map((a) => this.expiry(a));
    this.answered = this.answered.filter((_, i) => expiries[i]! > now);
    return expiries.filter((e) => e > now).sort((a, b) => a - b);
  }

  /** How many more of our requests may be sent at `now` with a limit of N per second. */
  room(now: number, limit: number): number {
    return limit - this.pending.size - this.live(now).length;
  }

  /** Earliest local time >= now with room >= need; Infinity if only answers can free room. */
  earliest(need: number, now: number, limit: number): number {
    const live = this.live(now);
    const excess = this.pending.size + live.length + need - limit;
    if (excess <= 0) return now;
    if (excess > live.length) return Infinity;
    return live[excess - 1]!;
  }

  get inFlight(): number {
    return this.pending.size;
  }
}
