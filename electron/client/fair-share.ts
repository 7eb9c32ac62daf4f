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
 * shrinks with the number of consumers, so N copies converge to about limit/N each; a second projected
 * close to the limit (87.5%) holds the rate, since more would only bring 429s. Nobody seen for
 * a while: the rate is the whole limit again (a lone copy is never slowed).
 *
 * Pure: every method takes the local time.
 */
export const CONTENTION_MEMORY_MS = 15_000;
/** Multiplicative decrease on a 429 (a strong signal: AWS adaptive retry uses 0.7), and on a congested second. */
const BETA_REFUSED = 0.5;
const BETA_CONGESTED = 0.85;
/** One pacing decision per this long: the same pace of decisions for every copy makes AIMD fair. */
const DECISION_MS = 1_000;
/** Additive increase per second, the same for every copy: limit * GROWTH. */
const GROWTH = 0.01;
/** Weight of a new sample in the others' rate average. */
const EWMA = 0.2;
/** A phase this early says too little about a whole second's use. */
const MIN_PHASE = 0.2;
/** Use of the budget, projected over the whole second, at or above which the second is congested. */
const CONGESTED_USE = 0.95;
/** Projected use at or above which the pace holds (no increase): close to the limit, more only brings 429s. */
const NEAR_USE = 0.875;
const PROJECT_FROM_PHASE = 0.5;
const MAX_CALM = 2;
/** Room is what others leave of this share of the limit. */
const FILL = 1;
const OWN_RATE_WINDOW_MS = 5_000;

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
  private lastRefusedAt = -Infinity;
  private lastCutAt = -Infinity;
  private lastDecisionAt: number;
  private congested = false;
  /** A second of this decision period was projected close to the limit. */
  private near = false;
  private lastSendAt = -Infinity;
  private foreignBefore = false;
  private sends: number[] = [];
  /** Local times of our answers that were not refused, for the first guess of our share. */
  private oks: number[] = [];
  /** Uncongested decisions in a row. */
  private calm = 0;

  constructor(
    private readonly limit: () => number,
    now: number,
  ) {
    this.rateNow = limit();
    this.lastDecisionAt = now;
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
    return Math.max(1, Math.min(1000, 1 + this.othersRate / Math.max(this.ownRate(now), 0.1)));
  }

  sent(now: number): void {
    this.lastSendAt = now;
    this.sends.push(now);
    if (this.sends.length > 256) this.sends.splice(0, 128);
  }

  private noteOk(at: number): void {
    this.oks.push(at);
    if (this.oks.length > 256) this.oks.splice(0, 128);
  }

  /** Our own requests per second over the last few seconds (our pace while we have work). */
  private ownRate(now: number): number {
    const from = now - OWN_RATE_WINDOW_MS;
    const recent = this.sends.filter((t) => t > from);
    if (recent.length < 2) return this.rate(now);
    return (recent.length * 1000) / Math.max(1000 / this.limit(), now - recent[0]!);
  }

  /** Earliest time the pacing lets the next request go: spaced evenly while shared. */
  earliest(now: number): number {
    if (!this.active(now)) return now;
    return Math.max(now, this.lastSendAt + 1000 / this.rate(now));
  }

  answered(a: ShareAnswer): void {
    const wasActive = this.active(a.at);
    const limit = this.limit();
    const readable = a.remaining !== null && !a.refused;
    const foreign = readable && a.aloneFloor !== null ? Math.max(0, a.aloneFloor - a.remaining!) : 0;
    // Two answers in a row must show others (one garbled Remaining is not a crowd); so must two 429s.
    const seen = foreign >= 1 && this.foreignBefore;
    if (readable) this.foreignBefore = foreign >= 1;
    if (seen) {
      // Others cannot spend more than the limit in a second.
      const sample = Math.min(limit, a.phase === null ? foreign : foreign / Math.max(a.phase, MIN_PHASE));
      this.othersRate = wasActive ? this.othersRate * (1 - EWMA) + sample * EWMA : sample;
    } else if (wasActive && readable) {
      this.othersRate *= 1 - EWMA;
    }
    // Our answers that went through in the last second: about our share of the limit when refused.
    const got = this.oks.filter((t) => t > a.at - 1000).length;
    // A 429 just after some of ours went through, fewer than the limit: others spent the rest (a
    // strong signal at once, no need for a second one).
    const crowded = a.refused && (this.foreignBefore || (got > 0 && got < limit) || a.at - this.lastRefusedAt < CONTENTION_MEMORY_MS);
    if (seen || crowded) this.contendedAt = a.at;
    if (a.refused) this.lastRefusedAt = a.at;
    else this.noteOk(a.at);
    if (!this.active(a.at)) {
      this.rateNow = limit;
      return;
    }
    if (!wasActive) {
      // Newly shared: start at the fair share the estimate suggests, counting each request of others
      // seen so far as one consumer (a fleet that starts together), never at the whole limit.
      // A 429 first: what we got through in the second before it is about our share of the limit.
      const guess = Math.max(this.consumers(a.at), 1 + foreign, a.refused ? Math.max(2, got > 0 ? limit / got : 2) : 1);
      this.rateNow = Math.max(minRate(limit), limit / guess);
      this.lastDecisionAt = a.at;
      this.congested = false;
      this.calm = 0;
      return;
    }
    if (a.refused && a.at - this.lastCutAt >= DECISION_MS) {
      this.cut(BETA_REFUSED, a.at);
      return;
    }
    if (readable && this.isCongested(a, limit)) this.congested = true;
    if (readable && this.projectedUse(a, limit) >= NEAR_USE) this.near = true;
    if (a.at - this.lastDecisionAt < DECISION_MS) return;
    if (this.congested && a.at - this.lastCutAt >= DECISION_MS) this.cut(BETA_CONGESTED, a.at);
    else if (this.near) this.calm = 0;
    else if (!this.congested) {
      // Additive, growing with each calm decision in a row (the same for every copy, so still fair);
      // where others leave room, each of the consumers takes its part of that room at once.
      this.calm = Math.min(MAX_CALM, this.calm + 1);
      const room = (limit * FILL - this.othersRate - this.rateNow) / (2 * this.consumers(a.at));
      const step = Math.max(limit * GROWTH * this.calm, room) * Math.min(1, (a.at - this.lastDecisionAt) / 1000);
      this.rateNow = Math.min(limit, this.rateNow + step);
    }
    this.lastDecisionAt = a.at;
    this.congested = false;
    this.near = false;
  }

  /**
   * The budget is (nearly) all used: Remaining, projected over the whole server second, says
   * together we ask for about the limit or more. Without Date: Remaining nearly gone.
   */
  private isCongested(a: ShareAnswer, limit: number): boolean {
    const remaining = a.remaining!;
    if (remaining === 0) return true;
    if (a.phase === null) return remaining <= Math.max(1, Math.ceil(limit * 0.1));
    // Early in the second a few requests more or less swing the projection: judge from mid-second on.
    return a.phase >= PROJECT_FROM_PHASE && (limit - remaining - 1) / (limit * a.phase) >= CONGESTED_USE;
  }

  /** Use of the budget projected over the whole server second (0 when too early to judge or no Date). */
  private projectedUse(a: ShareAnswer, limit: number): number {
    if (a.phase === null || a.phase < PROJECT_FROM_PHASE) return 0;
    return (limit - a.remaining! - 1) / (limit * a.phase);
  }

  private cut(beta: number, at: number): void {
    this.rateNow = Math.max(minRate(this.limit()), this.rateNow * beta);
    this.lastCutAt = at;
    this.lastDecisionAt = at;
    this.congested = false;
    this.near = false;
    this.calm = 0;
  }
}

function minRate(limit: number): number {
  return Math.max(0.05, limit / 200);
}
