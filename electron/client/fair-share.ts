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
 * leaves the others with 429s). Once a second (the same pace of decisions for every copy):
 * - the use of the budget, projected over the whole server second from the latest answer of the
 *   second (Remaining at a known phase), says whether together we ask for too much: at or above
 *   the target, a multiplicative cut; just under it, hold; well under it, an additive increase
 *   plus our part of the room left. The target is the limit less a margin that grows with how much
 *   the projected use varies from second to second (many small consumers send in uneven counts per
 *   second and need room for that, while one steady competitor needs almost none), plus a little
 *   more than the limit where a crowd shares a whole-second budget (OVERASK): copies like us defer
 *   what would not fit the second, so the AIMD's sawtooth then runs around the limit, not under it;
 * - a 429 cuts harder;
 * - under a whole-second budget (Remaining comes back at a second's start by more than a continuous
 *   refill could add), a projection far under the recent mean means a consumer left: our part of
 *   its room at once, not over several seconds (the fleet's tail, as downloads finish one by one).
 * Within the second, a request that would probably find the budget gone (Remaining, less what the
 * others spend until we would send and a margin for how that count varies, is under one) waits for
 * the next server second, at a point spread over our own interval so that the copies that wait do
 * not all come at once. Deferring is what fills each second to its end when the fleet asks for more.
 * A projection well above the target still defers the rest of our second.
 * Nobody seen for a while: the rate is the whole limit again (a lone copy is never slowed).
 *
 * Pure: every method takes the local time.
 */
export const CONTENTION_MEMORY_MS = 15_000;
/** Multiplicative decrease on a 429 (a strong signal: AWS adaptive retry uses 0.7), and on a congested second. */
const BETA_REFUSED = 0.5;
const BETA_CONGESTED = 0.93;
/** One pacing decision per this long: the same pace of decisions for every copy makes AIMD fair. */
const DECISION_MS = 1_000;
/**
 * Additive increase per second: GROWTH * sqrt(limit * rate). Slower copies gain more relative to
 * their rate (so copies converge to equal shares, as with a constant step), but the fleet's total
 * grows with the square root of the copies, not their number (16 small copies do not overshoot).
 */
const GROWTH = 0.015;
/** Weight of a new sample in the others' rate average, and in the projected use's mean and variance. */
const EWMA = 0.2;
const USE_EWMA = 0.1;
/** A phase this early says too little about a whole second's use. */
const MIN_PHASE = 0.2;
/** Projections of a whole second's use only from this phase on (earlier, a few requests swing them). */
const PROJECT_FROM_PHASE = 0.5;
/** Margin under the limit: this many standard deviations of the projected use. */
const USE_SPREAD = 0.6;
/** Under the target by less than this share of the limit: hold (more would only bring 429s). */
const NEAR_GAP = 0.02;
const MAX_CALM = 2;
/** Just after others first show up (this long, this many answers), the pace never exceeds the share their requests so far suggest. */
const STARTUP_MS = 2_000;
const STARTUP_ANSWERS = 4;
/** First guess when others' requests are spread over the second: what they leave of this share of the limit. */
const FIRST_FILL = 0.95;
/**
 * Where a crowd shares a whole-second budget (4 or more consumers; less in proportion down to 1), the
 * target of the projected use is this much above the limit. Each second's excess is deferred by the
 * copies to the next, so what the fleet gets is the limit, where a target under it left 1-2 of 20
 * slots unused per second. Beside one steady consumer the target stays near the limit: that consumer does not
 * defer, and our excess would be its 429s. Half of it from LARGE_CROWD consumers on: each of many
 * small copies reads Remaining less often, so its forecast errs more and the excess comes back as
 * 429s (16 copies: over 2%). The change is gentle, so that copies whose estimates of the crowd differ
 * still aim nearly alike (fairness).
 */
const OVERASK = 0.1;
const CROWD = 4;
const LARGE_CROWD = 8;
/** A projection this far above the target defers the rest of our second, whatever the other estimates say. */
const DEFER_EXCESS = 0.1;
/**
 * For this long after others show up, the mean use is still a guess: the forecast of the others'
 * requests is at least what this second's use so far suggests (copies that start together ask for
 * more than the limit until they have found each other).
 */
const SETTLING_MS = 5_000;
/**
 * A request is deferred unless Remaining covers the others' requests until it would go, plus this
 * many standard deviations of their count (about its square root: they come from many copies).
 */
const OTHERS_SPREAD = 0.25;
/** Remaining at least half the limit seen this recently: the budget comes back whole each second. */
const WHOLE_SECOND_MEMORY_MS = 3_000;
/** A rise of Remaining across a server second's start by more than this beyond what a continuous refill adds: the budget came back whole. */
const WHOLE_RISE = 3;
/**
 * A projection this far under the recent mean (LEFT_MIN of the limit, or LEFT_SD standard
 * deviations if more) says a consumer left; our rate grows at most LEFT_MAX_FACTOR-fold at once.
 */
const LEFT_MIN = 0.1;
const LEFT_SD = 2;
const LEFT_MAX_FACTOR = 2;
/** A deferred request goes this long after the server second surely changed, plus its spread. */
const NEXT_SECOND_GUARD_MS = 10;
const OWN_RATE_WINDOW_MS = 5_000;
/** Our sends this long before a server second's start may be processed in it. */
const SEND_SLACK_MS = 5;
/** The golden ratio's fraction: spreads deferred requests from their arrival times (deterministic, differs per copy). */
const SPREAD_STEP = 0.618_033_988_75;

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

/** The latest readable answer with a phase: where the budget stood at a known point of a server second. */
interface Reading {
  at: number;
  phase: number;
  remaining: number;
}

export class FairShare {
  private rateNow: number;
  private othersRate = 0;
  private contendedAt = -Infinity;
  private lastRefusedAt = -Infinity;
  private lastCutAt = -Infinity;
  private lastDecisionAt: number;
  private congested = false;
  /** A second of this decision period was projected close to the target. */
  private near = false;
  private lastSendAt = -Infinity;
  private foreignBefore = false;
  private sends: number[] = [];
  /** Local times of our answers that were not refused, for the first guess of our share. */
  private oks: number[] = [];
  /** Uncongested decisions in a row. */
  private calm = 0;
  /** Active on one answer's evidence only, until a second one confirms or clears it. */
  private tentative = false;
  private activeSince = -Infinity;
  private startupLeft = 0;
  /** The projection of this decision period from the answer latest in its server second. */
  private bestPhase = 0;
  private bestUse = 0;
  /** Mean and variance of the projected use over recent decisions (share of the limit). */
  private useMean = 1;
  private useVar = 0;
  private reading: Reading | null = null;
  private highAt = -Infinity;
  /** Remaining rose more than a continuous refill could explain: the server's budget is whole-second. */
  private wholeAt = -Infinity;
  private lastRead: { at: number; remaining: number } | null = null;
  private spreadFor = NaN;
  private spreadMs = 0;

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

  /** Earliest time the pacing lets the next request go: spaced evenly while shared, in a second with budget left. */
  earliest(now: number): number {
    if (!this.active(now)) return now;
    const paced = Math.max(now, this.lastSendAt + 1000 / this.rate(now));
    const r = this.reading;
    if (r === null) return paced;
    const secondEnds = r.at + (1 - r.phase) * 1000;
    if (paced >= secondEnds) return paced;
    const limit = this.limit();
    // Whole-second budget (a continuous one never shows half the limit while shared): what the
    // others spend until we would send leaves none. Between our reading and our next request only
    // the others send, so our own rate is not part of the forecast (counting it kept one slot of
    // every copy's last interval unused).
    const others = this.othersForecast(r, paced, now);
    const expected = r.remaining - others - OTHERS_SPREAD * Math.sqrt(others);
    if (this.wholeSecondLikely(r.at) && expected < 1) return secondEnds + NEXT_SECOND_GUARD_MS + this.spread(r.at);
    if (r.phase >= PROJECT_FROM_PHASE && (limit - r.remaining - 1) / r.phase >= limit * (this.aim(now) + DEFER_EXCESS)) return secondEnds + NEXT_SECOND_GUARD_MS;
    return paced;
  }

  /** The others' requests expected between reading `r` and `at`: the fleet's mean use less our own pace (while settling, at least this second's use so far). */
  private othersForecast(r: Reading, at: number, now: number): number {
    const limit = this.limit();
    let fleet = this.useMean * limit;
    if (now - this.activeSince < SETTLING_MS && r.phase >= MIN_PHASE) fleet = Math.max(fleet, (limit - r.remaining) / r.phase);
    return (Math.max(0, fleet - this.rate(now)) * (at - r.at)) / 1000;
  }

  /** Where in our own interval a deferred request goes: the same for one reading, different per copy. */
  private spread(key: number): number {
    if (key !== this.spreadFor) {
      this.spreadFor = key;
      this.spreadMs = ((key * SPREAD_STEP) % 1) * (1000 / this.rateNow);
    }
    return this.spreadMs;
  }

  answered(a: ShareAnswer): void {
    const wasActive = this.active(a.at);
    const limit = this.limit();
    const readable = a.remaining !== null && !a.refused;
    const foreign = readable && a.aloneFloor !== null ? Math.max(0, a.aloneFloor - a.remaining!) : 0;
    const seen = foreign >= 1 && this.foreignBefore;
    if (readable) this.noteRise(a.at, a.remaining!, a.phase, limit);
    if (readable && a.phase !== null) this.reading = { at: a.at, phase: a.phase, remaining: a.remaining! };
    if (readable && a.remaining! >= limit / 2) this.highAt = a.at;
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
    this.noteEvidence(a, readable, foreign, seen || crowded, wasActive, limit);
    if (a.refused) this.lastRefusedAt = a.at;
    else this.noteOk(a.at);
    if (!this.active(a.at)) {
      this.rateNow = limit;
      return;
    }
    if (!wasActive) {
      // Newly shared: start at the fair share the estimate suggests, counting the others' requests per
      // one of ours so far as consumers (a fleet that starts together), never at the whole limit; where
      // others' requests are spread over the second, what they leave. A 429 first: what we got
      // through in the second before it is about our share of the limit.
      const guess = Math.max(this.consumers(a.at), 1 + this.othersPerOurs(foreign, a), a.refused ? Math.max(2, got > 0 ? limit / got : 2) : 1);
      this.rateNow = Math.max(minRate(limit), limit / guess, a.refused ? 0 : this.leftBy(foreign, a.phase, a.at));
      this.activeSince = a.at;
      this.startupLeft = STARTUP_ANSWERS;
      this.lastDecisionAt = a.at;
      this.congested = false;
      this.calm = 0;
      return;
    }
    if (readable && foreign >= 1 && (a.phase === null || a.phase >= MIN_PHASE) && a.at - this.activeSince < STARTUP_MS && this.startupLeft > 0) {
      // Copies that start together find each other over their first answers: the later ones see more
      // (others' requests per one of ours: counting each as one consumer took 4 copies that had sent
      // 5 each for 16, and the fleet's second second ran at half the limit).
      // (Not from the start of a second, where a continuous budget still low looks like many others.)
      this.startupLeft--;
      this.rateNow = Math.max(minRate(limit), Math.min(this.rateNow, Math.max(limit / (1 + this.othersPerOurs(foreign, a)), this.leftBy(foreign, a.phase, a.at))));
    }
    if (a.refused && a.at - this.lastCutAt >= DECISION_MS) {
      this.cut(BETA_REFUSED, a.at);
      return;
    }
    const margin = USE_SPREAD * Math.sqrt(this.useVar);
    const aim = this.aim(a.at);
    // Without Date (no phase): the budget nearly gone is all we can tell.
    if (readable && (a.remaining === 0 || (a.phase === null && a.remaining! <= Math.max(1, Math.ceil(limit * 0.1))))) this.congested = true;
    // The answer latest in its server second projects the whole second best.
    if (readable && a.phase !== null && a.phase >= PROJECT_FROM_PHASE && a.phase > this.bestPhase) {
      this.bestPhase = a.phase;
      this.bestUse = (limit - a.remaining! - 1) / (limit * a.phase);
    }
    if (this.bestUse >= aim - margin) this.congested = true;
    if (this.bestUse >= aim - margin - NEAR_GAP) this.near = true;
    if (a.at - this.lastDecisionAt < DECISION_MS) return;
    let left = false;
    if (this.bestPhase > 0) {
      const d = Math.min(this.bestUse, 2) - this.useMean;
      left = a.at - this.wholeAt < WHOLE_SECOND_MEMORY_MS && this.bestUse >= LEFT_MIN && -d > Math.max(LEFT_MIN, LEFT_SD * Math.sqrt(this.useVar));
      this.useMean += USE_EWMA * d;
      this.useVar = (1 - USE_EWMA) * (this.useVar + USE_EWMA * d * d);
    }
    if (this.congested && a.at - this.lastCutAt >= DECISION_MS) this.cut(BETA_CONGESTED, a.at);
    else if (this.near) this.calm = 0;
    else if (!this.congested) {
      // Additive, growing with each calm decision in a row; where the projection leaves room under
      // the target, our part of it (in proportion to our rate; a use under half the limit is taken
      // as half, so that one quiet second does not multiply the pace) at once. A consumer that left a
      // whole-second budget (its download finished): all of our part of its room at once, since every
      // copy sees the same fall (the projections of a continuous budget are too noisy for that).
      this.calm = Math.min(MAX_CALM, this.calm + 1);
      const target = aim - margin - NEAR_GAP;
      const room = this.bestPhase > 0 ? ((target - this.bestUse) * this.rateNow) / Math.max(this.bestUse, 0.5) / 2 : 0;
      const regained = left ? this.rateNow * (target / Math.max(this.bestUse, target / LEFT_MAX_FACTOR) - 1) : 0;
      const step = Math.max(GROWTH * Math.sqrt(limit * this.rateNow) * this.calm, room, regained) * Math.min(1, (a.at - this.lastDecisionAt) / 1000);
      this.rateNow = Math.min(limit, this.rateNow + step);
    }
    this.endDecision(a.at);
  }

  /**
   * Who else is there. Two answers in a row must show others (one garbled Remaining is not a
   * crowd), or a 429 after some of ours went through; one answer alone (with Date, some budget
   * left: not an obviously garbled one) makes us pace tentatively (copies that start together must
   * not spend a second burst on each other), until an answer that shows nobody else after one of
   * ours in the same window clears it.
   */
  private noteEvidence(a: ShareAnswer, readable: boolean, foreign: number, confirmed: boolean, wasActive: boolean, limit: number): void {
    if (confirmed) {
      this.contendedAt = a.at;
      this.tentative = false;
    } else if (readable && foreign >= 1 && a.remaining! > 0 && a.phase !== null && !wasActive) {
      this.tentative = true;
      this.contendedAt = a.at;
    } else if (readable && foreign < 1 && this.tentative && a.remaining! < limit - 1) {
      this.tentative = false;
      this.contendedAt = -Infinity;
    }
  }

  /**
   * A rise of Remaining across a server second's start that no continuous refill explains (our
   * answers come back within a few places of their order): a whole-second budget.
   */
  private noteRise(at: number, remaining: number, phase: number | null, limit: number): void {
    const p = this.lastRead;
    const newSecond = p !== null && phase !== null && at - p.at > phase * 1000;
    if (newSecond && remaining <= limit && remaining - p.remaining > (limit * (at - p.at)) / 1000 + WHOLE_RISE) this.wholeAt = at;
    this.lastRead = { at, remaining };
  }

  /** Remaining of at least half the limit seen lately: the budget comes back whole each second (where deferring acts). */
  private wholeSecondLikely(at: number): boolean {
    return at - this.highAt < WHOLE_SECOND_MEMORY_MS;
  }

  /**
   * Others' requests per one of ours in the answer's server second (without Date: all the others'):
   * each copy of a fleet that starts together sends several requests before it sees the others, so
   * its first answers show several per copy. Only the start needs it, not every answer.
   */
  private othersPerOurs(foreign: number, a: ShareAnswer): number {
    if (a.phase === null) return foreign;
    const secondStart = a.at - a.phase * 1000 - SEND_SLACK_MS;
    return foreign / Math.max(1, this.sends.filter((t) => t >= secondStart).length);
  }

  /**
   * Projected use we aim at, as a share of the limit: a little above it where a crowd shares a
   * whole-second budget (OVERASK), where deferring takes the excess to the next second.
   */
  private aim(now: number): number {
    if (!this.wholeSecondLikely(now)) return 1;
    const c = this.consumers(now);
    return 1 + OVERASK * Math.min(1, (c - 1) / (CROWD - 1)) * (c <= LARGE_CROWD ? 1 : Math.max(0.5, LARGE_CROWD / c));
  }

  /** What others leave of the limit at their rate so far this second (0 without Date, or when the budget does not come back whole). */
  private leftBy(foreign: number, phase: number | null, at: number): number {
    if (phase === null || at - this.highAt >= 1000) return 0;
    return this.limit() * FIRST_FILL - foreign / Math.max(phase, MIN_PHASE);
  }

  private cut(beta: number, at: number): void {
    this.rateNow = Math.max(minRate(this.limit()), this.rateNow * beta);
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

function minRate(limit: number): number {
  return Math.max(0.05, limit / 200);
}
