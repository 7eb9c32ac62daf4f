/**
 * Fair sharing of one bucket with consumers we cannot see (other processes and machines of the
 * vendor, its other systems), from the answers alone.
 *
 * Estimator: "Remaining if we were alone" is known from our own requests (the caller computes it
 * under both refill models and gives the lower one). Remaining below it means others spent the
 * difference; spread over the part of the server second gone by (from Date), that is the others'
 * rate. Consumers ≈ 1 + others' rate / our rate: about how many of us share the bucket.
 *
 * Pacing (AIMD, as TCP and AWS's adaptive retry): while others are seen, our requests are spaced at
 * `rate` per second instead of spending the budget at the start of each second (that burst is what
 * leaves the others with 429s). The rate falls multiplicatively on evidence of contention (a 429, or
 * the budget nearly gone while others use it) and grows additively while it fades, by a step that
 * shrinks with the number of consumers, so N copies converge to about limit/N each. Nobody seen for
 * a while: the rate is the whole limit again (a lone copy is never slowed).
 *
 * Pure: every method takes the local time.
 */
export const CONTENTION_MEMORY_MS = 15_000;
/** Multiplicative decrease on a 429 (AWS adaptive retry uses 0.7), and a gentler one when the budget ran out. */
const BETA = 0.7;
const BETA_EMPTY = 0.9;
/** One decrease per this long: a burst of 429s is one event. */
const CUT_HOLD_MS = 1_000;
/** Additive increase per second, shared among the consumers: limit * GROWTH / consumers. */
const GROWTH = 0.1;
/** Weight of a new sample in the others' rate average. */
const EWMA = 0.2;
/** A phase this early says too little about a whole second's rate. */
const MIN_PHASE = 0.2;

export interface ShareAnswer {
  /** Local time of the answer. */
  at: number;
  refused: boolean;
  /** Remaining as read (null: unreadable). */
  remaining: number | null;
  /** The least Remaining we would read if nobody else used the bucket (null: unknown). */
  aloneFloor: number | null;
  /** Fraction of the server's second gone by when it was processed (null: no Date). */
  phase: number | null;
}

export class FairShare {
  private rateNow: number;
  private othersRate = 0;
  private contendedAt = -Infinity;
  private lastCutAt = -Infinity;
  private lastGrowAt: number;
  private lastSendAt = -Infinity;
  private foreignBefore = false;

  constructor(
    private readonly limit: () => number,
    now: number,
  ) {
    this.rateNow = limit();
    this.lastGrowAt = now;
  }

  /** Others were seen within the memory: we pace. */
  active(now: number): boolean {
    return now - this.contendedAt < CONTENTION_MEMORY_MS;
  }

  /** Requests per second we pace at (the limit when alone). */
  rate(now: number): number {
    return this.active(now) ? Math.min(this.rateNow, this.limit()) : this.limit();
  }

  /** Consumers sharing the bucket, us included (1 when nobody else was seen lately). */
  consumers(now: number): number {
    if (!this.active(now)) return 1;
    return Math.max(1, Math.min(1000, 1 + this.othersRate / Math.max(this.rateNow, 0.1)));
  }

  /** Others' requests per second, as last estimated (0 when nobody was seen lately). */
  othersPerSecond(now: number): number {
    return this.active(now) ? this.othersRate : 0;
  }

  sent(now: number): void {
    this.lastSendAt = now;
  }

  /** Earliest time the pacing lets the next request go. */
  earliest(now: number): number {
    const rate = this.rate(now);
    if (rate >= this.limit()) return now; // not slowed: the four bounds alone (full speed when alone)
    return Math.max(now, this.lastSendAt + 1000 / rate);
  }

  answered(a: ShareAnswer): void {
    const wasActive = this.active(a.at);
    const limit = this.limit();
    const foreign = a.remaining !== null && a.aloneFloor !== null ? Math.max(0, a.aloneFloor - a.remaining) : 0;
    // Two answers in a row must show others (one garbled Remaining is not a crowd).
    const seen = foreign >= 1 && this.foreignBefore;
    if (a.remaining !== null && !a.refused) this.foreignBefore = foreign >= 1;
    if (seen) {
      this.contendedAt = a.at;
      // Others cannot spend more than the limit in a second.
      const sample = Math.min(limit, a.phase === null ? foreign : foreign / Math.max(a.phase, MIN_PHASE));
      this.othersRate = wasActive ? this.othersRate * (1 - EWMA) + sample * EWMA : sample;
    } else if (wasActive && a.remaining !== null && !a.refused) {
      this.othersRate *= 1 - EWMA;
    }
    if (a.refused) this.contendedAt = a.at;
    if (!wasActive && this.active(a.at)) {
      // Newly shared: start at the fair share the estimate suggests, not at the whole limit.
      this.rateNow = Math.max(minRate(limit), Math.min(limit, limit / this.consumers(a.at)));
      this.lastCutAt = a.at;
      this.lastGrowAt = a.at;
      return;
    }
    if (!this.active(a.at)) {
      this.rateNow = limit;
      this.lastGrowAt = a.at;
      return;
    }
    // The budget ran out while others spend it too: together we ask for more than the limit.
    const nearlyGone = a.remaining === 0 && seen;
    if ((a.refused || nearlyGone) && a.at - this.lastCutAt >= CUT_HOLD_MS) {
      this.rateNow = Math.max(minRate(limit), this.rateNow * (a.refused ? BETA : BETA_EMPTY));
      this.lastCutAt = a.at;
      this.lastGrowAt = a.at;
    } else if (!a.refused && !nearlyGone) {
      const step = ((limit * GROWTH) / this.consumers(a.at)) * (Math.max(0, a.at - this.lastGrowAt) / 1000);
      this.rateNow = Math.min(limit, this.rateNow + step);
      this.lastGrowAt = a.at;
    }
  }
}

function minRate(limit: number): number {
  return Math.max(0.05, limit / 200);
}
