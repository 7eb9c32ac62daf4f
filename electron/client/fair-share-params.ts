/**
 * Every tuned number of the fair-share pacing (contention-estimator.ts, aimd-controller.ts,
 * fair-share.ts), in one place. Each note says what it is for and which fleet-model scenario
 * (`npm run bench -- --only fleet-model`) moves most when it is raised by a quarter (seed 42): most
 * numbers move several scenarios at once, the 12 s fixed-work runs most. "Not in the model" names the
 * unit test (tests/unit/client-fleet.test.ts) that covers it instead. Any change here is a change of
 * behaviour: run the model over five seeds and compare (`--seeds 1,2,3,4,5 --compare FILE`).
 * Shares are of the limit; times are local milliseconds.
 */
export const FAIR_SHARE = {
  // --- Contention estimator: who else spends the budget ---
  /** Others seen this recently: we pace; nobody for this long: the whole limit again. Not in the model (no run loses its others): "grows back ... whole once others are gone". */
  contentionMemoryMs: 15_000,
  /** Weight of a new sample in the others' rate: steady without lagging (8 copies continuous: Jain). */
  othersEwma: 0.2,
  /** A phase this early says too little about a whole second (8 copies continuous, fixed work: goodput and 429s). */
  minPhase: 0.2,
  /** Our own rate over this window (consumers = 1 + others' rate / ours; 16 copies whole-second: Jain). */
  ownRateWindowMs: 5_000,
  /** Our rate is taken as at least this (requests per second) when counting consumers: the estimate stays finite. Not in the model (a bound). */
  ownRateFloor: 0.1,
  /** At most this many consumers are counted (a bound on a garbled header's effect). Not in the model (a bound). */
  maxConsumers: 1_000,
  /** Remaining of at least this share seen within wholeSecondMemoryMs: the budget comes back whole (16 copies whole-second, fixed work; 8 continuous, fixed work). */
  highShare: 0.5,
  wholeSecondMemoryMs: 3_000,
  /** A rise of Remaining across a second's start by this many beyond a continuous refill: the budget came back whole (8 copies whole-second, fixed work: departures). */
  wholeRise: 3,
  /** Our sends this long before a server second's start may be processed in it. Not in the model: "five of ours among twenty count as about four consumers". */
  sendSlackMs: 5,
  /** Others are gone when this many readable answers in a row over a whole decision showed none of their requests: all the room is ours at once (8 and 16 copies continuous, fixed work: the tail). */
  goneAnswers: 3,
  /** First guess where others' requests are spread over the second: what they leave of this share (16 and 8 copies whole-second, fixed work; "others spread over the second"). */
  firstFill: 0.95,

  // --- AIMD controller: one decision per second ---
  /** One decision per this long: the same pace of decisions for every copy makes AIMD fair (16 copies whole-second: Jain). */
  decisionMs: 1_000,
  /** Multiplicative decrease on a 429: a strong signal, harder than AWS's adaptive retry's 0.7 (16 copies whole-second: 429s). */
  betaRefused: 0.5,
  /** Multiplicative decrease on a congested second: gentle, since a second at the aim is the goal (16 copies whole-second, fixed work: 429s). */
  betaCongested: 0.93,
  /**
   * Additive increase per second: growth * sqrt(limit * rate) * calm. Slower copies gain more for their rate (they
   * converge to equal shares) while the fleet's total grows with the square root of the copies (16 copies whole-second, fixed work: 429s).
   */
  growth: 0.015,
  /** Calm decisions in a row multiply the increase up to this (16 copies whole-second and 8 continuous: 429s, Jain). */
  maxCalm: 2,
  /** Weight of a new second in the projected use's mean and variance (16 copies continuous: 429s). */
  useEwma: 0.1,
  /** The projected use counts at most this many limits (one garbled Remaining does not move the mean far). Not in the model (a bound). */
  useCap: 2,
  /** Projections of a whole second only from this phase on; earlier, a few requests swing them (16 copies whole-second: 429s). */
  projectFromPhase: 0.5,
  /** Margin under the aim: this many standard deviations of the projected use; many small copies need room, one steady competitor hardly any (8 copies whole-second, fixed work). */
  useSpread: 0.6,
  /** Under the aim by less than this share: hold, since more would only bring 429s (16 copies continuous: 429s; "holds the pace instead of increasing it"). */
  nearGap: 0.02,
  /** Without Date, Remaining at or under this share of the limit (at least 1) counts as a congested second. Not in the model (its answers carry Date). */
  noDateCongestedShare: 0.1,
  /** The room under the aim is shared in proportion to our rate, a use under this share taken as this: one quiet second does not multiply the pace (8 copies continuous: Jain). */
  roomUseFloor: 0.5,
  /** Our part of the room is taken over this many decisions, not at once (8 copies continuous: Jain). */
  roomDivisor: 2,
  /** Just after others first show up (this long, this many answers), the pace never exceeds the share their requests suggest (16 copies, 4 copies whole-second: start). */
  startupMs: 2_000,
  startupAnswers: 4,
  /** A 429 as the first sign of others: at least this many consumers. Not in the model: "a first 429 after a few of ours went through". */
  refusedMinConsumers: 2,
  /**
   * Others first seen in a server second where we already sent this many (a fresh copy's burst while it was
   * alone): our burst crowded their requests out of that second, so neither their count per one of ours nor
   * what they leave (`firstFill`) is a share; we count at least `burstMinConsumers` (8 copies whole-second short
   * catalog started over 2 s: Jain). Three, not two: copies that start together send one or two each before the
   * first answers show the others, and their start is the per-ours count (at 2 the model lost 7 runs).
   */
  burstSends: 3,
  burstMinConsumers: 2,
  /**
   * Where a crowd shares a whole-second budget, the aim is this much above the limit (copies defer each second's excess to
   * the next, so the fleet gets the limit instead of leaving 1-2 of 20 slots unused). Full from
   * `crowd` consumers on, less in proportion down to 1 (beside one steady competitor, which does not defer, our excess would
   * be its 429s: 1 + competitor 8/s). Above `largeCrowd` consumers it shrinks as largeCrowd / consumers, reaching
   * `overaskLeast` of it at largeCrowd / overaskLeast consumers (half at 16) and staying there: each of many small copies
   * reads Remaining less often, so its forecast errs more and the excess comes back as 429s. The
   * change is gentle, so that copies whose estimates of the crowd differ still aim nearly alike. All four: 16 copies
   * whole-second (Jain, 429s) moves most; `crowd` also 16 copies continuous, fixed work.
   */
  overask: 0.1,
  crowd: 4,
  largeCrowd: 8,
  overaskLeast: 0.5,
  /** A consumer left a whole-second budget: a projection this far under the recent mean, a share or leftSd deviations if more (4 copies whole-second; "its room is taken back in one decision"). */
  leftMin: 0.1,
  leftSd: 2,
  /** ... and our rate grows at most this-fold at once (4 copies whole-second, fixed work). */
  leftMaxFactor: 2,
  /** The pace never falls under max(minRate, limit / minRateDivisor) requests per second: a copy cut again and again still probes. Not in the model (never reached). */
  minRate: 0.05,
  minRateDivisor: 200,

  // --- Deferral within the server second (fair-share.ts) ---
  /** A projection this far above the aim defers the rest of our second, whatever the other estimates say (4 copies continuous: Jain). */
  deferExcess: 0.1,
  /** For this long after others show up the mean use is still a guess: the others' forecast is at least this second's use so far (8 copies continuous: Jain). */
  settlingMs: 5_000,
  /** A request is deferred unless Remaining covers the others' requests until it goes plus this many sqrt of their count (8 copies whole-second, fixed work: 429s). */
  othersSpread: 0.25,
  /** A deferred request goes this long after the server second surely changed, plus its spread (16 copies whole-second: Jain). */
  nextSecondGuardMs: 10,
  /**
   * Our next request's round trip is taken as the latest answer's, but at most the quickest of the recent ones and
   * this much: one slow answer says little of the next one's way out. Above the model's spread of round trips at 2-8
   * and 40-60 ms, so those runs are as without it; not asserted there: "one slow answer ... lands after the turn".
   */
  slowTripMs: 20,
  /** The golden ratio's fraction: spreads deferred requests over our interval, deterministic and different per copy, so copies that wait do not all come at once (16 copies, fixed work). */
  spreadStep: 0.618_033_988_75,
  /**
   * A whole-second budget's leftover, forecast from Remaining, is filled between these phases of the server
   * second (late: the forecast of the others' requests errs least; before its end: our estimate of the
   * boundary may be some tens of ms off), keeping `fillKeep` slots for the others' forecast error (8 copies
   * whole-second short catalog: the tail, as copies finish; 8 copies whole-second 60 s: Jain; 429s).
   */
  fillFromPhase: 0.8,
  fillToPhase: 0.95,
  fillKeep: 1,
  /**
   * ... by a copy whose part of it (in proportion to its rate) is at least this many requests (8 copies whole-second
   * short catalog: at 0.5, where the first seconds' 429s were gone, goals met in 75 and 76 of 112 runs over seeds
   * 20-35 and 40-55; at 0.25 in 81 and 82, goodput's mean up 0.01; at 0.1 more 429s).
   */
  fillPart: 0.25,
} as const;

export type FairShareParams = typeof FAIR_SHARE;

/** The least pace: a copy cut again and again still probes the budget. */
export function minRate(limit: number, p: FairShareParams = FAIR_SHARE): number {
  return Math.max(p.minRate, limit / p.minRateDivisor);
}
