/**
 * Others' use of one bucket in the WHOLE-SECOND refill model (Yii's: the budget is whole again when
 * the server's second changes), per server second S (the answers' Date):
 *
 * - Counted: within S every slot taken lowers Remaining by one, so our success with Remaining R,
 *   the k-th of ours in S by falling Remaining, shows N - R - k slots of others before it. Exact
 *   once every answer of ours in S is in; until then, our requests in flight may be among them.
 * - Exhausted: a 429 of ours in S (or our Remaining 0) means all N slots of S were taken: others
 *   took N less our successes.
 * - The rest of S, after our last counted request, leaves no trace (the next second starts whole):
 *   it is estimated at others' rate over the part of recent seconds we did see, never more than
 *   the slots left. This is the only guess, and it is 0 when nothing of others was ever seen.
 *
 * Where our clock stands against the server's seconds is learnt from the Dates (as the client's
 * ServerClock does), to place our last counted request within S. A request of ours that got no
 * answer may have been counted in any second its flight overlaps: it counts as ours in each.
 */
import type { BudgetSample } from '../../shared/rate-limit';

interface Second {
  start: number;
  limit: number;
  /** Remaining of each of our successes in S. */
  remaining: number[];
  /** Estimated server time of each of our successes, in the same order. */
  at: number[];
  /** Estimated server time of our counted request with the lowest Remaining. */
  lastAt: number;
  exhausted: boolean;
  /** Our requests in flight that may be counted in S before the answers we have. */
  inFlight: number;
  /** When S closed (our clock): a later answer sent before it was one of those in flight. */
  closedAt: number | null;
  /** What was reported for S so far. */
  reported: number;
}

/** Seconds kept for late answers; the rate of others is pooled over this many seconds. */
const KEEP_SECONDS = 3;
const UNANSWERED_GRACE_MS = 1000;
const MAX_UNANSWERED = 1000;
const RATE_SECONDS = 10;
/**
 * Our successes kept per second, whatever its limit says: more than the limit in one second means the
 * Date does not advance with the server's seconds (a frozen clock), and the rest of them say nothing.
 */
const MAX_ANSWERS_PER_SECOND = 1000;

export class WholeSecondForeignUse {
  private seconds: Second[] = [];
  /** Seconds let go: how others' count grew over the part of each that we saw (for the rate of the unseen rest). */
  private history: Slope[] = [];
  /** Reported beyond what late answers showed: paid back from the next findings. */
  private owed = 0;
  /** Our requests that got no answer (server time span they may have been counted in): they may be ours in any second they overlap. */
  private unanswered: { from: number; to: number }[] = [];

  /** A request of ours without a reading: it may be counted in any server second its flight (plus `graceMs`) overlaps. */
  private ours(sample: BudgetSample, offsetMs: number | null, graceMs: number): void {
    const sentAt = sample.at - Math.max(0, sample.latencyMs) + (offsetMs ?? 0);
    this.unanswered.push({ from: sentAt, to: sample.at + (offsetMs ?? 0) + graceMs });
    if (this.unanswered.length > MAX_UNANSWERED) this.unanswered.shift();
  }

  /** Answers, seconds and spans kept now: bounded whatever the Dates say. */
  get held(): number {
    return this.seconds.reduce((n, s) => n + s.remaining.length, 0) + this.unanswered.length + this.history.length;
  }

  /** An answer whose Date cannot be placed among the server's seconds (far from its clock): ours wherever its flight overlaps. */
  unplaced(sample: BudgetSample, offsetMs: number | null): number {
    this.ours(sample, offsetMs, 0);
    return 0;
  }

  /** Feeds one of our samples; `offsetMs` is the server's clock less ours (null: unknown). */
  observe(sample: BudgetSample, second: number, offsetMs: number | null, inFlight: number): number {
    if (sample.status === 0) {
      // Timed out or cut off: the server may have counted it (until a little after we gave up).
      this.ours(sample, offsetMs, UNANSWERED_GRACE_MS);
      return 0;
    }
    if (sample.limit === null || sample.remaining === null || sample.headerProblems.length > 0 || sample.limit <= 0) {
      // Answered, so counted, but with no Remaining to place it: ours wherever its flight overlaps, as an unanswered one.
      this.ours(sample, offsetMs, 0);
      return 0;
    }
    const sent = sample.at - Math.max(0, sample.latencyMs);
    for (const s of this.seconds) {
      // This answer was one of those in flight when S closed.
      if (s.closedAt !== null && sent <= s.closedAt && s.inFlight > 0) s.inFlight -= 1;
      // A later second closes the earlier ones: the requests in flight now may still be counted in them.
      if (s.closedAt === null && s.start < second) {
        s.closedAt = sample.at;
        s.inFlight = Math.max(0, inFlight);
      }
    }
    let s = this.seconds.find((x) => x.start === second);
    if (!s && (this.seconds.length === 0 || second > this.seconds[0]!.start)) {
      s = { start: second, limit: sample.limit, remaining: [], at: [], lastAt: second, exhausted: false, inFlight: 0, closedAt: null, reported: 0 };
      this.seconds.push(s);
      this.seconds.sort((x, y) => x.start - y.start);
    }
    // A second cannot count more of our successes than its limit: beyond it the Date is frozen, the answers unreadable.
    if (s && s.limit === sample.limit && s.remaining.length < Math.min(s.limit, MAX_ANSWERS_PER_SECOND)) {
      if (sample.status === 429) {
        s.exhausted = true;
      } else {
        const at = sample.at - Math.max(0, sample.latencyMs) / 2 + (offsetMs ?? 0);
        if (s.remaining.length === 0 || sample.remaining < lowest(s.remaining)) s.lastAt = at;
        s.remaining.push(sample.remaining);
        s.at.push(at);
        if (sample.remaining === 0) s.exhausted = true;
      }
      if (s.closedAt === null) s.inFlight = Math.max(0, inFlight);
    }
    while (this.seconds.length > KEEP_SECONDS) this.retire(this.seconds.shift()!);
    const oldest = this.seconds[0]?.start ?? -Infinity;
    if (this.unanswered.length > 0 && this.unanswered[0]!.to < oldest) this.unanswered = this.unanswered.filter((u) => u.to >= oldest);
    return this.settleAll();
  }

  /**
   * The server's clock stepped by `deltaMs`: the seconds held are of the old clock, and no later answer
   * will be filed under them; they close now (our requests in flight may still be counted in them) and
   * leave. Our answers not placed yet are moved onto the new clock.
   */
  stepped(deltaMs: number, at: number, inFlight: number): number {
    for (const s of this.seconds) {
      if (s.closedAt !== null) continue;
      s.closedAt = at;
      s.inFlight = Math.max(0, inFlight);
    }
    const found = this.settleAll();
    for (const s of this.seconds) this.retire(s);
    this.seconds = [];
    this.unanswered = this.unanswered.map((u) => ({ from: u.from + deltaMs, to: u.to + deltaMs }));
    return found;
  }

  /** A second let go: only how others' count grew along it stays, for the rate. */
  private retire(s: Second): void {
    this.history.push(slopeOf(s, this.unanswered));
    if (this.history.length > RATE_SECONDS) this.history.shift();
  }

  /** Every held second's estimate brought up to date; what is new, less what is owed back. */
  private settleAll(): number {
    let found = 0;
    const rate = this.rate();
    for (const x of this.seconds) found += this.settle(x, rate);
    const paid = Math.min(found, this.owed);
    this.owed -= paid;
    return found - paid;
  }

  /** Others' slots seen in S: before our last counted request, or all of them when S ran out. */
  private counted(s: Second): number {
    const ours = s.remaining.length + this.unanswered.filter((u) => u.from < s.start + 1000 && u.to >= s.start).length;
    if (s.exhausted) return Math.max(0, s.limit - ours - s.inFlight);
    const desc = [...s.remaining].sort((x, y) => y - x);
    let most = 0;
    desc.forEach((r, i) => (most = Math.max(most, s.limit - r - (i + 1))));
    return Math.max(0, most - s.inFlight - (ours - s.remaining.length));
  }

  /** Share of S before our last counted request (all of it when S ran out). */
  private shareSeen(s: Second): number {
    if (s.exhausted) return 1;
    if (s.remaining.length === 0) return 0;
    return Math.min(1, Math.max(0, (s.lastAt - s.start) / 1000));
  }

  /**
   * Others' slots per second: how their count grew along each recent second, as our answers in it
   * saw it (a least-squares slope pooled over the seconds). Unlike count / share seen, this does not
   * depend on where a steady consumer's slots happen to fall against our last request.
   */
  private rate(): number {
    let cov = 0;
    let variance = 0;
    for (const h of [...this.history, ...this.seconds.filter((s) => s.closedAt !== null).map((s) => slopeOf(s, this.unanswered))]) {
      cov += h.cov;
      variance += h.variance;
    }
    return variance > 0 ? Math.max(0, cov / variance) : 0;
  }

  /** S's estimate now, less what was reported for it; an estimate that fell is owed back. */
  private settle(s: Second, rate: number): number {
    let estimate = this.counted(s);
    if (s.closedAt !== null && !s.exhausted) {
      const left = s.remaining.length > 0 ? lowest(s.remaining) : s.limit;
      estimate += Math.min(left, rate * (1 - this.shareSeen(s)));
    }
    const change = estimate - s.reported;
    s.reported = estimate;
    if (change < 0) this.owed -= change;
    return Math.max(0, change);
  }
}

interface Slope {
  /** Sums over our answers in one second of (share - mean share) x (others seen - mean), and of (share - mean share)^2. */
  cov: number;
  variance: number;
}

/**
 * Others' count at each of our successes (by falling Remaining: N - R - rank, less our requests without
 * a reading sent in S before it, which may be among those counted) against its place in the second.
 */
function slopeOf(s: Second, unanswered: readonly { from: number; to: number }[]): Slope {
  const order = s.remaining.map((r, i) => ({ r, at: s.at[i]! })).sort((x, y) => y.r - x.r);
  const sentIn: number[] = [];
  for (const u of unanswered) if (u.from < s.start + 1000 && u.to >= s.start) sentIn.push(u.from);
  if (sentIn.length > 1) sentIn.sort((x, y) => x - y);
  const points = order.map((p, i) => ({ x: (p.at - s.start) / 1000, y: s.limit - p.r - (i + 1) - countBelow(sentIn, p.at) }));
  if (points.length < 2) return { cov: 0, variance: 0 };
  const mx = points.reduce((n, p) => n + p.x, 0) / points.length;
  const my = points.reduce((n, p) => n + p.y, 0) / points.length;
  let cov = 0;
  let variance = 0;
  for (const p of points) {
    cov += (p.x - mx) * (p.y - my);
    variance += (p.x - mx) ** 2;
  }
  return { cov, variance };
}

/** The least of a list, without spreading it into arguments (a long list would overflow the stack). */
function lowest(values: readonly number[]): number {
  let least = Infinity;
  for (const v of values) if (v < least) least = v;
  return least;
}

/** How many of the sorted values are below `limit`. */
function countBelow(sorted: readonly number[], limit: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < limit) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
