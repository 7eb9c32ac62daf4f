/**
 * Where the server's clock stands against ours, learnt from the Dates of our answers, for the
 * whole-second estimate of others' use (foreign-whole-second.ts): an answer with Date second S, sent
 * at `sent` and received at `at`, was counted at a time p with S <= p + d < S + 1000, so
 * S - at <= d < S + 1000 - sent. The offset d is the intersection over the latest answers.
 *
 * A Date that no flight can explain (its span more than a second from the intersection) is not
 * believed at once: a stale cache, or one backend with a wrong clock behind a load balancer, sends
 * such Dates, and filing their answers under a second far away shows another consumer where there is
 * none. The clock is taken to have stepped only when several answers in a row, over a stretch of our
 * clock, all agree on the new offset (a frozen Date cannot: its spans drift apart).
 */
import type { BudgetSample } from '../../shared/rate-limit';

/** Drift and rounding: spans this far apart still agree. */
const AGREE_MS = 50;
/** A span this far from the clock so far is not one of our flights: a step, or a Date not to trust. */
const FAR_MS = 1000;
/** A step is believed after this many answers in a row agreeing on it, over at least this much of our clock. */
const STEP_ANSWERS = 3;
const STEP_SPAN_MS = 2000;

/** What an answer's Date says: placed (the clock so far holds), unplaced (not to be trusted yet), or stepped (the clock moved for good). */
export type Placement = 'placed' | 'unplaced' | 'stepped';

export class ServerOffset {
  private low = -Infinity;
  private high = Infinity;
  /** Answers in a row far from the clock so far, agreeing on one offset: a step, once there is enough of them. */
  private candidate: { lo: number; hi: number; firstAt: number; answers: number } | null = null;
  /** Steps taken so far: each estimate retires the seconds it holds from the old clock once per step. */
  steps = 0;

  /** Learns from one answer with a Date (in arrival order). */
  place(sample: BudgetSample): Placement {
    const { lo, hi } = span(sample);
    if (!Number.isFinite(this.low) || !Number.isFinite(this.high)) {
      this.low = lo;
      this.high = hi;
      return 'placed';
    }
    const gap = Math.max(lo - this.high, this.low - hi, 0);
    if (gap <= FAR_MS) {
      this.candidate = null;
      if (gap > AGREE_MS) {
        // Drift, or a clock set by a little: start again from this answer.
        this.low = lo;
        this.high = hi;
      } else {
        this.low = Math.max(this.low, lo);
        this.high = Math.max(this.low, Math.min(this.high, hi));
      }
      return 'placed';
    }
    const c = this.candidate;
    if (c && lo <= c.hi + AGREE_MS && hi >= c.lo - AGREE_MS) {
      c.lo = Math.max(c.lo, lo);
      c.hi = Math.max(c.lo, Math.min(c.hi, hi));
      c.answers += 1;
      if (c.answers >= STEP_ANSWERS && sample.at - c.firstAt >= STEP_SPAN_MS) {
        this.low = c.lo;
        this.high = c.hi;
        this.candidate = null;
        this.steps += 1;
        return 'stepped';
      }
    } else {
      this.candidate = { lo, hi, firstAt: sample.at, answers: 1 };
    }
    return 'unplaced';
  }

  /** The server's clock less ours (ms); null before any Date. */
  estimate(): number | null {
    return Number.isFinite(this.low) && Number.isFinite(this.high) ? (this.low + this.high) / 2 : null;
  }
}

/** The offsets an answer allows: S - at <= d < S + 1000 - sent. */
function span(sample: BudgetSample): { lo: number; hi: number } {
  const second = Math.floor(sample.serverSecond! / 1000) * 1000;
  return { lo: second - sample.at, hi: second + 1000 - (sample.at - Math.max(0, sample.latencyMs)) };
}
