/**
 * The header model's two "server" bounds (header-model.ts), both re-based on the Remaining the answers
 * report, so that others' use of the budget slows us as soon as a header shows it:
 *   continuous    RefillBound on the latest-sent answer's Remaining (R at its arrival, less every
 *                 request of ours that may not be counted in R yet);
 *   whole-second  WindowBasis: the lowest Remaining of the server's latest second, less our requests
 *                 that may have been processed after it, until that second surely ended (learnt from
 *                 Date, plus a guard; without Date, one second after it).
 * Before the first readable Remaining there is neither, and they hold nothing back.
 */
import type { WaitCause } from '../../shared/wait-causes';
import { RefillBound } from './refill-bound';
import type { ServerClock } from './server-clock';
import type { AnswerFact } from './window-basis';
import { WindowBasis } from './window-basis';

/** Continuous-model basis from the latest-sent answered request's Remaining. */
interface RefillBasis {
  seq: number;
  bound: RefillBound;
}

export class ServerBounds {
  private refillBasis: RefillBasis | null = null;
  private windowBasis: WindowBasis | null = null;

  constructor(
    private readonly serverClock: ServerClock,
    private readonly guardMs: number,
  ) {}

  sent(id: number): void {
    this.refillBasis?.bound.add(id);
    this.windowBasis?.sent(id);
  }

  /** Nothing of request `id` reached the server. */
  refunded(id: number): void {
    this.refillBasis?.bound.refund(id);
    this.windowBasis?.refunded(id);
  }

  /** Request `id` was surely counted by `t`. */
  settled(id: number, t: number, limit: number): void {
    this.refillBasis?.bound.settle(id, t, limit);
  }

  answered(x: AnswerFact): void {
    this.windowBasis?.answered(x);
  }

  /**
   * Remaining fell faster than our own requests explain: someone else spends this budget. Valid in
   * both models: within one server second, refill can only add.
   */
  showsOthers(x: AnswerFact): boolean {
    const w = this.windowBasis;
    return w !== null && x.remaining !== null && x.window !== null && x.window === w.window && x.remaining < w.value();
  }

  /**
   * Offers answer x as the basis of both bounds. `pending`: our requests in flight or lingering;
   * `answeredLog`: recent answers, to spot those that overtook x.
   */
  rebase(x: AnswerFact, remaining: number, pending: number[], answeredLog: readonly AnswerFact[]): void {
    // Continuous: the latest-sent answer; answers that arrived while it was in flight may have been
    // processed after it, so they are folded in as spent.
    if (this.refillBasis === null || x.seq > this.refillBasis.seq) {
      const overtaken = answeredLog.filter((a) => a.seq < x.seq && a.receivedAt > x.sentAt && !a.refused).length;
      this.refillBasis = { seq: x.seq, bound: new RefillBound(remaining - overtaken, x.receivedAt, pending) };
    }
    // Whole-second: a later second replaces. Within one second Remaining only falls, so the lowest
    // one is the latest state, everyone's consumption included (on a tie, the one that leaves more
    // of our requests unexplained loses). Without Date to compare: the latest-sent answer. An answer
    // sent after the basis's second surely ended replaces it whatever its Date says (a clock that
    // stepped back would otherwise leave the basis in place until the server's time caught up).
    const candidate = WindowBasis.on(x, remaining, pending, answeredLog);
    const w = this.windowBasis;
    if (w === null) this.windowBasis = candidate;
    else if (x.window !== null && w.window !== null) {
      const later = x.window > w.window;
      const lower = x.window === w.window && (remaining < w.remaining || (remaining === w.remaining && candidate.value() > w.value()));
      const ended = x.sentAt >= this.windowEndsAt(w);
      if (later || lower || ended) this.windowBasis = candidate;
    } else if (x.seq > w.seq) this.windowBasis = candidate;
  }

  /**
   * Holds the next send (at `t`, held by `cause` so far) until both bounds have `need` slots. On a
   * tie, the server's evidence names the cause.
   */
  hold(t: number, cause: WaitCause, need: number, now: number, limit: number): { at: number; cause: WaitCause } {
    if (this.refillBasis) {
      const refill = this.refillBasis.bound.earliest(need, now, limit);
      if (refill >= t && refill > now) cause = this.refillBasis.bound.earliest(1, now, limit) <= now ? 'others' : 'budget';
      t = Math.max(t, refill);
    }
    const w = this.windowBasis;
    if (w && w.value() < need) {
      const ends = this.windowEndsAt(w);
      if (ends >= t && ends > now) cause = w.value() >= 1 ? 'others' : 'budget';
      t = Math.max(t, ends);
    }
    return { at: t, cause };
  }

  /** `v` slots, less what either bound does not have beyond `margin`. */
  room(v: number, margin: number, now: number, limit: number): number {
    if (this.refillBasis) v = Math.min(v, this.refillBasis.bound.value(now, limit) - margin);
    const w = this.windowBasis;
    if (w && now < this.windowEndsAt(w)) v = Math.min(v, w.value() - margin);
    return v;
  }

  /** Remaining as the headers have it now, before flooring; null before any readable Remaining. */
  remaining(now: number, limit: number): number | null {
    const w = this.windowBasis;
    if (!this.refillBasis && !w) return null;
    let v = this.refillBasis ? this.refillBasis.bound.value(now, limit) : limit;
    if (w && now < this.windowEndsAt(w)) v = Math.min(v, w.value());
    return v;
  }

  /**
   * Local time after which the basis's server second has surely ended. The answer was processed
   * before it arrived, so its second ended within a second of that whatever Date says: a clock
   * believed since (stepped back, or another backend's) must not hold the budget shut longer.
   */
  private windowEndsAt(s: WindowBasis): number {
    const latest = s.receivedAt + 1000;
    const reached = s.window === null ? null : this.serverClock.surelyReached(s.window + 1000, s.receivedAt);
    return (reached === null ? latest : Math.min(reached, latest)) + this.guardMs;
  }
}
