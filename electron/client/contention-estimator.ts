/**
 * Who else spends this budget, from the answers alone: the others' rate, how many consumers share it,
 * whether it comes back whole each second, and where it stood at the latest known point of a server
 * second. The AIMD controller (aimd-controller.ts) decides the pace from these.
 *
 * "Remaining if we were alone" is known from our own requests (the bucket computes it under both refill
 * models and gives the lower one, `aloneFloor`). Remaining below it means others spent the difference;
 * spread over the part of the server second gone by (from Date), that is the others' rate.
 * Consumers ≈ 1 + others' rate / our rate.
 *
 * Why pacing keeps its own estimate of others' use, beside header-model.ts's `noteForeign` and
 * telemetry/foreign-use.ts: the three answer different questions at different costs of a mistake.
 * Pacing needs a rate within the current second, at once and on every answer, and errs toward
 * "others are here" (a wrong guess costs a little pace for 15 s); header-model.ts only needs "someone else
 * spent within this server second" to hold one slot back; telemetry reports a count to a person and
 * must never show our own traffic as someone else's, so it errs the other way and may wait seconds
 * for proof. One estimator tuned for either error would be wrong for the other.
 *
 * Pure: every method takes the local time.
 */
import type { FairShareParams } from './fair-share-params';
import { FAIR_SHARE } from './fair-share-params';

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
  /** Local ms from sending to this answer (absent: unknown, taken as 0); `phase` is at the midpoint. */
  roundTripMs?: number;
}

/** The latest readable answer with a phase: where the budget stood at a known point of a server second. */
export interface Reading {
  at: number;
  phase: number;
  remaining: number;
  /** The answer's round trip: `phase` is at its midpoint, half of it before `at`. */
  roundTripMs: number;
  /**
   * The quickest round trip of our recent answers: half of it is the soonest our next request can reach the
   * server (one slow answer, a busy server or a stalled process, says nothing of the next one's way out).
   */
  quickTripMs: number;
}

/** What one answer told the estimator, for the controller's decision on it. */
export interface Observation {
  /** Others were seen before this answer. */
  wasActive: boolean;
  /** Not refused, Remaining readable. */
  readable: boolean;
  /** Requests of others this answer shows (Remaining under what we alone would leave). */
  foreign: number;
  /** Our answers that went through in the second before this one. */
  got: number;
}

/** Timestamps kept for counting: enough for a few seconds at any limit the endpoints have. */
const HISTORY = 256;
/** Round trips kept for the quickest recent one. */
const TRIPS = 8;

function remember(list: number[], at: number): void {
  list.push(at);
  if (list.length > HISTORY) list.splice(0, HISTORY / 2);
}

export class ContentionEstimator {
  private othersRate = 0;
  private contendedAt = -Infinity;
  /** Active on one answer's evidence only, until a second one confirms or clears it. */
  private tentative = false;
  private lastRefusedAt = -Infinity;
  /** The previous readable answer showed others: two in a row are needed (one garbled Remaining is not a crowd). */
  private foreignBefore = false;
  private sends: number[] = [];
  /** Local times of our answers that were not refused, for the first guess of our share. */
  private oks: number[] = [];
  private reading: Reading | null = null;
  private trips: number[] = [];
  private highAt = -Infinity;
  /** Remaining rose more than a continuous refill could explain: the server's budget is whole-second. */
  private wholeAt = -Infinity;
  private lastRead: { at: number; remaining: number } | null = null;
  /** The latest readable answer that showed others' requests. */
  private foreignAt = -Infinity;
  /** The latest readable answer, and how many came in a row without others' requests. */
  private readAt = -Infinity;
  private cleanInRow = 0;

  constructor(
    private readonly limit: () => number,
    private readonly p: FairShareParams = FAIR_SHARE,
  ) {}

  /** Others were seen within the memory. */
  active(now: number): boolean {
    return now - this.contendedAt < this.p.contentionMemoryMs;
  }

  /** Several readable answers over the last `ms` and none showed others: they left (a departure's room is all ours). */
  othersGone(at: number, ms: number): boolean {
    return at - this.foreignAt >= ms && at - this.readAt < ms && this.cleanInRow >= this.p.goneAnswers;
  }

  /** Others taken as present from `at` (a budget store that counted them failed): we pace, for the memory's length unless answers confirm them. */
  assume(at: number): void {
    this.contendedAt = at;
    this.tentative = false;
  }

  /** Others seen on one answer only, not yet confirmed by a second. */
  isTentative(): boolean {
    return this.tentative;
  }

  /** Consumers sharing the bucket, us included (1 when nobody else was seen lately); `pace` stands for our rate when we sent too little to measure it. */
  consumers(now: number, pace: number): number {
    if (!this.active(now)) return 1;
    return Math.max(1, Math.min(this.p.maxConsumers, 1 + this.othersRate / Math.max(this.ownRate(now, pace), this.p.ownRateFloor)));
  }

  sent(now: number): void {
    remember(this.sends, now);
  }

  /** Where the budget stood at the latest known point of a server second. */
  latestReading(): Reading | null {
    return this.reading;
  }

  /** Remaining of at least half the limit seen lately: the budget comes back whole each second (where deferring acts). */
  wholeSecondLikely(at: number): boolean {
    return at - this.highAt < this.p.wholeSecondMemoryMs;
  }

  /** A rise of Remaining across a second's start was seen lately: a whole-second budget for sure (a departure shows as a drop). */
  wholeSecondSeen(at: number): boolean {
    return at - this.wholeAt < this.p.wholeSecondMemoryMs;
  }

  /** Reads one answer: the others' rate, the evidence of others, the budget's shape. */
  observe(a: ShareAnswer): Observation {
    const wasActive = this.active(a.at);
    const limit = this.limit();
    const readable = a.remaining !== null && !a.refused;
    const foreign = readable && a.aloneFloor !== null ? Math.max(0, a.aloneFloor - a.remaining!) : 0;
    const seen = foreign >= 1 && this.foreignBefore;
    if (readable) {
      this.noteReadable(a, a.remaining!, foreign, limit);
      this.readAt = a.at;
      this.cleanInRow = foreign >= 1 ? 0 : this.cleanInRow + 1;
    }
    if (foreign >= 1) this.foreignAt = a.at;
    this.noteOthersRate(a, foreign, seen, wasActive, readable, limit);
    const got = this.oks.filter((t) => t > a.at - 1000).length;
    // A 429 just after some of ours went through, fewer than the limit: others spent the rest (a
    // strong signal at once, no need for a second one).
    const crowded = a.refused && (this.foreignBefore || (got > 0 && got < limit) || a.at - this.lastRefusedAt < this.p.contentionMemoryMs);
    this.noteEvidence(a, readable, foreign, seen || crowded, wasActive, limit);
    if (a.refused) this.lastRefusedAt = a.at;
    else remember(this.oks, a.at);
    return { wasActive, readable, foreign, got };
  }

  private noteReadable(a: ShareAnswer, remaining: number, foreign: number, limit: number): void {
    const { at, phase } = a;
    this.noteRise(at, remaining, phase, limit);
    const roundTripMs = a.roundTripMs ?? 0;
    this.trips.push(roundTripMs);
    if (this.trips.length > TRIPS) this.trips.shift();
    if (phase !== null) this.reading = { at, phase, remaining, roundTripMs, quickTripMs: Math.min(...this.trips) };
    if (remaining >= limit * this.p.highShare) this.highAt = at;
    this.foreignBefore = foreign >= 1;
  }

  private noteOthersRate(a: ShareAnswer, foreign: number, seen: boolean, wasActive: boolean, readable: boolean, limit: number): void {
    if (seen) {
      // Others cannot spend more than the limit in a second.
      const sample = Math.min(limit, a.phase === null ? foreign : foreign / Math.max(a.phase, this.p.minPhase));
      this.othersRate = wasActive ? this.othersRate * (1 - this.p.othersEwma) + sample * this.p.othersEwma : sample;
    } else if (wasActive && readable) {
      this.othersRate *= 1 - this.p.othersEwma;
    }
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
    if (newSecond && remaining <= limit && remaining - p.remaining > (limit * (at - p.at)) / 1000 + this.p.wholeRise) this.wholeAt = at;
    this.lastRead = { at, remaining };
  }

  /** Our own requests per second over the last few seconds (our pace while we have work). */
  private ownRate(now: number, pace: number): number {
    const from = now - this.p.ownRateWindowMs;
    const recent = this.sends.filter((t) => t > from);
    if (recent.length < 2) return pace;
    return (recent.length * 1000) / Math.max(1000 / this.limit(), now - recent[0]!);
  }

  /**
   * Others' requests per one of ours in the answer's server second (without Date: all the others'):
   * each copy of a fleet that starts together sends several requests before it sees the others, so
   * its first answers show several per copy, not one consumer each.
   */
  othersPerOurs(foreign: number, a: ShareAnswer): number {
    if (a.phase === null) return foreign;
    return foreign / Math.max(1, this.oursThisSecond(a));
  }

  /** Our requests sent in the answer's server second (0 without Date). */
  oursThisSecond(a: ShareAnswer): number {
    if (a.phase === null) return 0;
    const secondStart = a.at - a.phase * 1000 - this.p.sendSlackMs;
    return this.sends.filter((t) => t >= secondStart).length;
  }

  /** What others leave of the limit at their rate so far this second (0 without Date, or when the budget does not come back whole). */
  leftBy(foreign: number, phase: number | null, at: number): number {
    if (phase === null || at - this.highAt >= 1000) return 0;
    return this.limit() * this.p.firstFill - foreign / Math.max(phase, this.p.minPhase);
  }
}
