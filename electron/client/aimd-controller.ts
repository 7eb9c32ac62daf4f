/**
 * The pace while others share the budget (AIMD, as TCP and AWS's adaptive retry), one decision per
 * second for every copy (the same pace of decisions for all makes AIMD converge to fair shares):
 * - the use of the budget, projected over the whole server second from the latest answer of the
 *   second (Remaining at a known phase), says whether together we ask for too much: at or above the
 *   aim less a margin, a multiplicative cut; just under it, hold; well under it, an additive increase
 *   plus our part of the room left. The margin grows with how much the projected use varies from
 *   second to second (many small consumers send in uneven counts per second and need room for that,
 *   while one steady competitor needs almost none);
 * - a 429 cuts harder, at once;
 * - under a whole-second budget, a projection far under the recent mean means a consumer left: our
 *   part of its room at once, not over several seconds (the fleet's tail, as downloads finish).
 *
 * Phases: `alone` (nobody seen lately: the whole limit), `tentative` (one answer showed others),
 * `startup` (others just showed up: the pace never exceeds the share their requests suggest),
 * `steady` (the decisions above). A tentative start is capped like a startup within its first answers.
 *
 * Pure: every method takes the local time.
 */
import type { ContentionEstimator, Observation, ShareAnswer } from './contention-estimator';
import type { FairShareParams } from './fair-share-params';
import { FAIR_SHARE, minRate } from './fair-share-params';

export type SharePhase = 'alone' | 'tentative' | 'startup' | 'steady';

export class AimdController {
  private rateNow: number;
  private lastCutAt = -Infinity;
  private lastDecisionAt: number;
  private congested = false;
  /** A second of this decision period was projected close to the aim. */
  private near = false;
  /** Uncongested decisions in a row. */
  private calm = 0;
  private activeSince = -Infinity;
  private startupLeft = 0;
  /** The projection of this decision period from the answer latest in its server second. */
  private bestPhase = 0;
  private bestUse = 0;
  /** Mean and variance of the projected use over recent decisions (share of the limit). */
  private useMean = 1;
  private useVar = 0;

  constructor(
    private readonly limit: () => number,
    private readonly others: ContentionEstimator,
    now: number,
    private readonly p: FairShareParams = FAIR_SHARE,
  ) {
    this.rateNow = limit();
    this.lastDecisionAt = now;
  }

  phase(now: number): SharePhase {
    if (!this.others.active(now)) return 'alone';
    if (this.others.isTentative()) return 'tentative';
    return this.startupOpen(now) ? 'startup' : 'steady';
  }

  /** Requests per second we pace at (the limit when alone). */
  rate(now: number): number {
    return this.others.active(now) ? Math.min(this.rateNow, this.limit()) : this.limit();
  }

  /** The pace as last decided, whether or not others are still seen (where deferred requests spread). */
  decidedRate(): number {
    return this.rateNow;
  }

  consumers(now: number): number {
    return this.others.consumers(now, this.rate(now));
  }

  /** The fleet's mean use of the budget per second, as a share of the limit. */
  meanUse(): number {
    return this.useMean;
  }

  /** Others showed up this recently: the mean use is still a guess. */
  settling(now: number): boolean {
    return now - this.activeSince < this.p.settlingMs;
  }

  /**
   * Projected use we aim at, as a share of the limit: a little above it where a crowd shares a
   * whole-second budget (overask), where deferring takes the excess to the next second.
   */
  aim(now: number): number {
    if (!this.others.wholeSecondLikely(now)) return 1;
    const c = this.consumers(now);
    const { overask, crowd, largeCrowd } = this.p;
    return 1 + overask * Math.min(1, (c - 1) / (crowd - 1)) * (c <= largeCrowd ? 1 : Math.max(this.p.overaskLeast, largeCrowd / c));
  }

  /** One answer, after the estimator read it. */
  answered(a: ShareAnswer, o: Observation): void {
    const limit = this.limit();
    if (this.phase(a.at) === 'alone') {
      this.rateNow = limit;
      return;
    }
    if (!o.wasActive) {
      this.start(a, o, limit);
      return;
    }
    if (o.readable && o.foreign >= 1 && (a.phase === null || a.phase >= this.p.minPhase) && this.startupOpen(a.at)) this.capAtStartup(a, o, limit);
    if (a.refused && a.at - this.lastCutAt >= this.p.decisionMs) {
      this.cut(this.p.betaRefused, a.at);
      return;
    }
    const bound = this.aim(a.at) - this.p.useSpread * Math.sqrt(this.useVar);
    this.noteUse(a, o.readable, bound, limit);
    if (a.at - this.lastDecisionAt < this.p.decisionMs) return;
    this.decide(a.at, bound, limit);
  }

  /** Steady from `at` at a pace known from elsewhere (the last fair share a budget store granted), not a fresh start. */
  resume(at: number, rate: number): void {
    this.rateNow = Math.min(this.limit(), Math.max(minRate(this.limit(), this.p), rate));
    this.activeSince = -Infinity;
    this.startupLeft = 0;
    this.lastDecisionAt = at;
    this.calm = 0;
    this.endDecision(at);
  }

  private startupOpen(at: number): boolean {
    return at - this.activeSince < this.p.startupMs && this.startupLeft > 0;
  }

  /**
   * Newly shared: start at the fair share the estimate suggests, counting the others' requests per
   * one of ours so far as consumers (a fleet that starts together), never at the whole limit; where
   * others' requests are spread over the second, what they leave. A 429 first: what we got through
   * in the second before it is about our share of the limit. Others first seen after our own burst
   * in this second (a copy that joins a running fleet and was alone for a moment): neither their
   * requests per one of ours nor what they leave is a share, since the burst kept their requests out
   * of the second they were counted in; at least `burstMinConsumers` instead.
   */
  private start(a: ShareAnswer, o: Observation, limit: number): void {
    const refusedGuess = a.refused ? Math.max(this.p.refusedMinConsumers, o.got > 0 ? limit / o.got : this.p.refusedMinConsumers) : 1;
    const afterBurst = this.others.oursThisSecond(a) >= this.p.burstSends;
    const guess = Math.max(this.consumers(a.at), 1 + this.others.othersPerOurs(o.foreign, a), refusedGuess, afterBurst ? this.p.burstMinConsumers : 1);
    const left = a.refused || afterBurst ? 0 : this.others.leftBy(o.foreign, a.phase, a.at);
    this.rateNow = Math.max(minRate(limit, this.p), limit / guess, left);
    this.activeSince = a.at;
    this.startupLeft = this.p.startupAnswers;
    this.lastDecisionAt = a.at;
    this.congested = false;
    this.calm = 0;
  }

  /**
   * Copies that start together find each other over their first answers: the later ones see more
   * others per one of ours. Not from the start of a second (minPhase), where a continuous budget
   * still low looks like many others.
   */
  private capAtStartup(a: ShareAnswer, o: Observation, limit: number): void {
    this.startupLeft--;
    const suggested = Math.max(limit / (1 + this.others.othersPerOurs(o.foreign, a)), this.others.leftBy(o.foreign, a.phase, a.at));
    this.rateNow = Math.max(minRate(limit, this.p), Math.min(this.rateNow, suggested));
  }

  /** Marks this decision period congested or near the aim; the answer latest in its server second projects the whole second best. */
  private noteUse(a: ShareAnswer, readable: boolean, bound: number, limit: number): void {
    // Without Date (no phase): the budget nearly gone is all we can tell.
    if (readable && (a.remaining === 0 || (a.phase === null && a.remaining! <= Math.max(1, Math.ceil(limit * this.p.noDateCongestedShare)))))
      this.congested = true;
    if (readable && a.phase !== null && a.phase >= this.p.projectFromPhase && a.phase > this.bestPhase) {
      this.bestPhase = a.phase;
      this.bestUse = (limit - a.remaining! - 1) / (limit * a.phase);
    }
    if (this.bestUse >= bound) this.congested = true;
    if (this.bestUse >= bound - this.p.nearGap) this.near = true;
  }

  /** The decision of the second: cut when congested, hold when near the aim, else increase. */
  private decide(at: number, bound: number, limit: number): void {
    const left = this.noteSecondUse(at);
    if (this.congested && at - this.lastCutAt >= this.p.decisionMs) this.cut(this.p.betaCongested, at);
    else if (this.near) this.calm = 0;
    else if (!this.congested) this.increase(at, bound - this.p.nearGap, left, limit);
    this.endDecision(at);
  }

  /** Folds this period's projection into the mean and variance; true when it says a consumer left a whole-second budget. */
  private noteSecondUse(at: number): boolean {
    if (this.bestPhase <= 0) return false;
    const d = Math.min(this.bestUse, this.p.useCap) - this.useMean;
    const left = this.others.wholeSecondSeen(at) && this.bestUse >= this.p.leftMin && -d > Math.max(this.p.leftMin, this.p.leftSd * Math.sqrt(this.useVar));
    this.useMean += this.p.useEwma * d;
    this.useVar = (1 - this.p.useEwma) * (this.useVar + this.p.useEwma * d * d);
    return left;
  }

  /**
   * Additive, growing with each calm decision in a row; where the projection leaves room under the
   * target, our part of it (in proportion to our rate) at once. A consumer that left a whole-second
   * budget: all of our part of its room at once, since every copy sees the same fall (the
   * projections of a continuous budget are too noisy for that).
   */
  private increase(at: number, target: number, left: boolean, limit: number): void {
    this.calm = Math.min(this.p.maxCalm, this.calm + 1);
    const room = this.bestPhase > 0 ? ((target - this.bestUse) * this.rateNow) / Math.max(this.bestUse, this.p.roomUseFloor) / this.p.roomDivisor : 0;
    const regained = left ? this.rateNow * (target / Math.max(this.bestUse, target / this.p.leftMaxFactor) - 1) : 0;
    // A whole decision period without others' requests: they left, and all the room is ours. Also without
    // a projection of this period (nothing of ours answered late in a second): a copy held to a request
    // or two a second, deferred to the start of each, never answers late, and would stay that slow alone.
    const alone = this.others.othersGone(at, this.p.decisionMs) ? (target - this.bestUse) * limit : 0;
    const step = Math.max(this.p.growth * Math.sqrt(limit * this.rateNow) * this.calm, room, regained, alone) * Math.min(1, (at - this.lastDecisionAt) / 1000);
    this.rateNow = Math.min(limit, this.rateNow + step);
  }

  private cut(beta: number, at: number): void {
    this.rateNow = Math.max(minRate(this.limit(), this.p), this.rateNow * beta);
    this.lastCutAt = at;
    this.calm = 0;
    this.endDecision(at);
  }

  private endDecision(at: number): void {
    this.lastDecisionAt = at;
    this.congested = false;
    this.near = false;
    this.bestPhase = 0;
    this.bestUse = 0;
  }
}
