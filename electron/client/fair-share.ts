/**
 * Fair sharing of one bucket with consumers we cannot see (other processes and machines of the
 * vendor, its other systems), from the answers alone. Two parts: the contention estimator
 * (contention-estimator.ts: others' rate, consumers, whole-second detection) and the AIMD controller
 * (aimd-controller.ts: one decision of the pace per second, in phases alone / tentative / startup /
 * steady). Every tuned number is in FAIR_SHARE (fair-share-params.ts).
 *
 * While others are seen, our requests are spaced at the controller's pace instead of spending the
 * budget at the start of each second (that burst is what leaves the others with 429s). Within the
 * second, a request that would probably find the budget gone (Remaining, less what the others spend
 * until we would send and a margin for how that count varies, is under one) waits for the next server
 * second, at a point spread over our own interval so that the copies that wait do not all come at
 * once. Deferring is what fills each second to its end when the fleet asks for more, which is why a
 * crowd may aim above the limit. A projection well above the aim still defers the rest of our second.
 * Nobody seen for a while: the rate is the whole limit again (a lone copy is never slowed).
 *
 * Pure: every method takes the local time.
 */
import type { SharePhase } from './aimd-controller';
import { AimdController } from './aimd-controller';
import type { Reading, ShareAnswer } from './contention-estimator';
import { ContentionEstimator } from './contention-estimator';
import type { FairShareParams } from './fair-share-params';
import { FAIR_SHARE } from './fair-share-params';

export type { ShareAnswer } from './contention-estimator';
export type { SharePhase } from './aimd-controller';
export const CONTENTION_MEMORY_MS = FAIR_SHARE.contentionMemoryMs;

export class FairShare {
  private readonly others: ContentionEstimator;
  private readonly pace: AimdController;
  private lastSendAt = -Infinity;
  private spreadFor = NaN;
  private spreadMs = 0;
  /** The fill earliest() just allowed, with the paced time it goes before and its reading: sending it leaves the pacing where it was. */
  private allowedFill: { paced: number; on: Reading } | null = null;
  /** The reading a fill was last sent on: one fill per reading, so that its answer is read before the next. */
  private filledOn: Reading | null = null;
  /**
   * Paced from a failed budget store's share: the whole fleet resumed at once, with no header history of the
   * others, where the forecast a fill needs errs most (16 processes, Redis killed: more 429s with fills).
   */
  private resumed = false;

  constructor(
    private readonly limit: () => number,
    now: number,
    private readonly p: FairShareParams = FAIR_SHARE,
  ) {
    this.others = new ContentionEstimator(limit, p);
    this.pace = new AimdController(limit, this.others, now, p);
  }

  /** Others were seen within the memory: we pace. */
  active(now: number): boolean {
    return this.others.active(now);
  }

  phase(now: number): SharePhase {
    return this.pace.phase(now);
  }

  /** Requests per second we pace at (the limit when alone). */
  rate(now: number): number {
    return this.pace.rate(now);
  }

  /** Consumers sharing the bucket, us included (1 when nobody else was seen lately). */
  consumers(now: number): number {
    return this.pace.consumers(now);
  }

  /**
   * Pace from `now` at `rate`, as if the others had been seen: where a budget store (Redis) that
   * spaced the fleet fails, each process goes on at the last fair share it was granted instead of
   * starting alone at the whole limit and finding the others again through 429s.
   */
  resume(now: number, rate: number): void {
    this.resumed = true;
    this.others.assume(now);
    this.pace.resume(now, rate);
  }

  sent(now: number): void {
    if (this.allowedFill && now < this.allowedFill.paced) this.filledOn = this.allowedFill.on;
    else this.lastSendAt = now;
    this.allowedFill = null;
    this.others.sent(now);
  }

  answered(a: ShareAnswer): void {
    this.pace.answered(a, this.others.observe(a));
  }

  /** Earliest time the pacing lets the next request go: spaced evenly while shared, in a second with budget left. */
  earliest(now: number): number {
    this.allowedFill = null;
    if (!this.active(now)) return now;
    return this.inSecondWithBudget(Math.max(now, this.lastSendAt + 1000 / this.rate(now)), now, true);
  }

  /**
   * A request a budget store spaced (its slot is now) beside consumers outside the store: only the deferral
   * to the next server second applies, since the store's schedule is the pace and fills its seconds.
   */
  deferral(now: number): number {
    this.allowedFill = null;
    if (!this.active(now)) return now;
    return this.inSecondWithBudget(now, now, false);
  }

  /** `paced`, or later where the server second it would land in has no budget left for it (or, with `fill`, sooner to use a leftover). */
  private inSecondWithBudget(paced: number, now: number, fill: boolean): number {
    const r = this.others.latestReading();
    if (r === null) return paced;
    // Reckoned where the server sees it. The reading's phase is at its request's midpoint, half its round
    // trip before `r.at`, so the server's second turns at `turn` on our clock. Our next request reaches the
    // server half its own round trip after it leaves, taken as the reading's but at most the quickest recent
    // one and `slowTripMs` (one slow answer, a busy server or a stalled process, says little of the next
    // one's way out): one sent from `sendBy` on lands in the next second, and the others spend from the
    // reading until ours lands. Across a network (round trips of 40-60 ms) the loopback reckoning missed a
    // round trip of the others' requests, and most of the 429s (fleet model, 8 copies, short workload
    // started mid-second: goals met in 0 -> 19 of 24 seeds; on loopback 20 -> 19).
    const turn = r.at - r.roundTripMs / 2 + (1 - r.phase) * 1000;
    const wayOut = Math.min(r.roundTripMs, r.quickTripMs + this.p.slowTripMs) / 2;
    const sendBy = turn - wayOut;
    if (paced >= sendBy) return fill ? this.fillOrPaced(r, paced, { turn, sendBy }, now) : paced;
    const limit = this.limit();
    // Whole-second budget (a continuous one never shows half the limit while shared): what the
    // others spend until ours lands leaves none. Between our reading and our next request only
    // the others send, so our own rate is not part of the forecast.
    const others = this.othersForecast(r, paced + wayOut, now);
    const expected = r.remaining - others - this.p.othersSpread * Math.sqrt(others);
    if (this.others.wholeSecondLikely(r.at) && expected < 1) return sendBy + this.p.nextSecondGuardMs + this.spread(r.at);
    if (r.phase >= this.p.projectFromPhase && (limit - r.remaining - 1) / r.phase >= limit * (this.pace.aim(now) + this.p.deferExcess))
      return sendBy + this.p.nextSecondGuardMs;
    return paced;
  }

  /**
   * Our next request falls in the next server second. A whole-second budget's leftover is lost at the
   * second's end: where the others' forecast leaves some, our part of it (in proportion to our rate)
   * goes late in the second, one request at a time (each answer reads Remaining again), beside the
   * pacing, which goes on from our last paced request. Where copies finish one after another, this
   * is how the room of those gone is used while the AIMD climbs.
   */
  private fillOrPaced(r: Reading, paced: number, second: { turn: number; sendBy: number }, now: number): number {
    if (r === this.filledOn || this.resumed) return paced;
    // In send times: a fill sent at `secondStart + x` lands at phase x of the reading's second.
    const secondStart = second.sendBy - 1000;
    const fillAt = Math.max(now, secondStart + this.p.fillFromPhase * 1000);
    if (fillAt > secondStart + this.p.fillToPhase * 1000 || !this.others.wholeSecondSeen(now) || this.pace.phase(now) !== 'steady') return paced;
    const others = this.othersForecast(r, second.turn, now);
    const left = r.remaining - others - this.p.othersSpread * Math.sqrt(others) - this.p.fillKeep;
    const rate = this.rate(now);
    if ((left * rate) / Math.max(rate, this.pace.meanUse() * this.limit()) < this.p.fillPart) return paced;
    this.allowedFill = { paced, on: r };
    return fillAt;
  }

  /**
   * The others' requests expected from reading `r` (its request's midpoint, where the server counted it) until
   * `until`: the fleet's mean use less our own pace (while settling, at least this second's use so far).
   */
  private othersForecast(r: Reading, until: number, now: number): number {
    const limit = this.limit();
    let fleet = this.pace.meanUse() * limit;
    if (this.pace.settling(now) && r.phase >= this.p.minPhase) fleet = Math.max(fleet, (limit - r.remaining) / r.phase);
    return (Math.max(0, fleet - this.rate(now)) * (until - (r.at - r.roundTripMs / 2))) / 1000;
  }

  /** Where in our own interval a deferred request goes: the same for one reading, different per copy. */
  private spread(key: number): number {
    if (key !== this.spreadFor) {
      this.spreadFor = key;
      this.spreadMs = ((key * this.p.spreadStep) % 1) * (1000 / this.pace.decidedRate());
    }
    return this.spreadMs;
  }
}
