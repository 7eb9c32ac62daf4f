/**
 * Every tuned number of the fair-share pacing (contention-estimator.ts, aimd-controller.ts,
 * fair-share.ts), in one place. Each note names what it is for and the fleet-model scenario
 * (`npm run bench -- --only fleet-model`, tests/unit/client-fleet*.test.ts) that fixes it. Any change here
 * is a change of behaviour: run the fleet model over five seeds and compare
 * (`--seeds 1,2,3,4,5 --compare FILE`). Shares are of the limit; times are local milliseconds.
 */
export const FAIR_SHARE = {
  // --- Contention estimator: who else spends the budget ---
  /** Others seen this recently: we pace. Nobody seen for this long: the whole limit again (1 copy alone: never slowed). */
  contentionMemoryMs: 15_000,
  /** Weight of a new sample in the others' rate (4 copies converge to limit/4 without swinging with each answer). */
  othersEwma: 0.2,
  /** A phase this early says too little about a whole second (fleets that start together: the first answers of a second). */
  minPhase: 0.2,
  /** Our own rate over this window (consumers = 1 + others' rate / ours; 4 and 8 copies). */
  ownRateWindowMs: 5_000,
  /** Our rate is taken as at least this (requests per second) when counting consumers: the estimate stays finite. */
  ownRateFloor: 0.1,
  /** At most this many consumers are counted (a bound on a garbled header's effect). */
  maxConsumers: 1_000,
  /** Remaining of at least this share of the limit seen within wholeSecondMemoryMs: the budget comes back whole (whole-second fleets). */
  highShare: 0.5,
  wholeSecondMemoryMs: 3_000,
  /** A rise of Remaining across a server second's start by this many beyond a continuous refill: the budget came back whole (whole-second fixed work: departures). */
  wholeRise: 3,
  /** Our sends this long before a server second's start may be processed in it (a fleet that starts together). */
  sendSlackMs: 5,
  /** First guess where others' requests are spread over the second: what they leave of this share (1 + competitor 8/s). */
  firstFill: 0.95,

  // --- AIMD controller: one decision per second ---
  /** One decision per this long: the same pace of decisions for every copy makes AIMD fair (Jain of 4-16 copies). */
  decisionMs: 1_000,
  /** Multiplicative decrease on a 429: a strong signal (AWS's adaptive retry uses 0.7; 16 copies whole-second). */
  betaRefused: 0.5,
  /** Multiplicative decrease on a congested second: gentle, since a second at the aim is the goal (8 copies, both refills). */
  betaCongested: 0.93,
  /**
   * Additive increase per second: growth * sqrt(limit * rate) * calm. Slower copies gain more for their rate (they
   * converge to equal shares) while the fleet's total grows with the square root of the copies (16 copies do not overshoot).
   */
  growth: 0.015,
  /** Calm decisions in a row multiply the increase up to this (4 copies regain the room after a cut). */
  maxCalm: 2,
  /** Weight of a new second in the projected use's mean and variance (16 copies: uneven counts per second). */
  useEwma: 0.1,
  /** The projected use counts at most this many limits (one garbled Remaining does not move the mean far). */
  useCap: 2,
  /** Projections of a whole second only from this phase on; earlier, a few requests swing them (8 copies continuous). */
  projectFromPhase: 0.5,
  /** Margin under the aim: this many standard deviations of the projected use (many small copies vs one steady competitor). */
  useSpread: 0.6,
  /** Under the aim by less than this share: hold, since more would only bring 429s (8 copies whole-second). */
  nearGap: 0.02,
  /** Without Date, Remaining at or under this share of the limit (at least 1) counts as a congested second. */
  noDateCongestedShare: 0.1,
  /** The room under the aim is shared in proportion to our rate, a use under this share taken as this (one quiet second does not multiply the pace). */
  roomUseFloor: 0.5,
  /** Only this fraction of our part of the room at once (4 and 8 copies: no overshoot after a quiet second). */
  roomDivisor: 2,
  /** Just after others first show up (this long, this many answers), the pace never exceeds the share their requests suggest (8 and 16 copies starting together). */
  startupMs: 2_000,
  startupAnswers: 4,
  /** A 429 as the first sign of others: at least this many consumers (a fleet that starts together). */
  refusedMinConsumers: 2,
  /**
   * Where a crowd shares a whole-second budget, the aim is this much above the limit (copies defer each second's excess to
   * the next, so the fleet gets the limit instead of leaving 1-2 of 20 slots unused; 4 and 8 copies whole-second). Full from
   * `crowd` consumers on, less in proportion down to 1 (beside one steady competitor, which does not defer, our excess would
   * be its 429s: 1 + competitor 8/s). Above `largeCrowd` consumers it shrinks as largeCrowd / consumers, reaching
   * `overaskLeast` of it at largeCrowd / overaskLeast consumers (half at 16) and staying there: each of many small copies
   * reads Remaining less often, so its forecast errs more and the excess comes back as 429s (16 copies whole-second). The
   * change is gentle, so that copies whose estimates of the crowd differ still aim nearly alike (Jain).
   */
  overask: 0.1,
  crowd: 4,
  largeCrowd: 8,
  overaskLeast: 0.5,
  /** A consumer left a whole-second budget: a projection this far under the recent mean (a share, or sd deviations if more; whole-second fixed work). */
  leftMin: 0.1,
  leftSd: 2,
  /** ... and our rate grows at most this-fold at once. */
  leftMaxFactor: 2,
  /** The pace never falls under max(minRate, limit / minRateDivisor) requests per second (16 copies after repeated cuts). */
  minRate: 0.05,
  minRateDivisor: 200,

  // --- Deferral within the server second (fair-share.ts) ---
  /** A projection this far above the aim defers the rest of our second, whatever the other estimates say (16 copies whole-second). */
  deferExcess: 0.1,
  /** For this long after others show up the mean use is still a guess: the others' forecast is at least this second's use so far (8 and 16 copies starting together). */
  settlingMs: 5_000,
  /** A request is deferred unless Remaining covers the others' requests until it goes plus this many sqrt of their count (8 and 16 copies whole-second). */
  othersSpread: 0.25,
  /** A deferred request goes this long after the server second surely changed, plus its spread. */
  nextSecondGuardMs: 10,
  /** The golden ratio's fraction: spreads deferred requests over our interval, deterministic and different per copy (whole-second copies that wait do not all come at once). */
  spreadStep: 0.618_033_988_75,
} as const;

export type FairShareParams = typeof FAIR_SHARE;

/** The least pace: a copy cut again and again still probes the budget. */
export function minRate(limit: number, p: FairShareParams = FAIR_SHARE): number {
  return Math.max(p.minRate, limit / p.minRateDivisor);
}
