/**
 * Where the server's whole seconds fall on our clock, learnt from Date headers.
 *
 * The whole-second limiter refills when the server's second changes, and its Date header carries
 * that second. Let d = server time - local time. A response with Date second S, sent at local
 * `sentAt` and received at `receivedAt`, was processed at some local p in [sentAt, receivedAt] with
 * S <= p + d < S + 1000, hence  S - receivedAt <= d < S + 1000 - sentAt.  Intersecting these
 * intervals over many responses pins d down to a few ms.
 *
 * Only the lower bound matters for safety: the server has surely entered second W at local time
 * W*1000 - dLow (any larger true d makes it earlier). Both bounds are widened by a drift allowance
 * as time passes, and a sample that contradicts them (a clock step on either side) restarts them.
 */
const DRIFT_PER_MS = 1e-4; // 100 ppm: far above real crystal drift
const CONTRADICTION_MS = 50;
/** A server clock this far from ours is believed only once several answers agree on it. */
export const MAX_UNCONFIRMED_SKEW_MS = 2_000;
/** Offsets read from Date agree when this close (Date has whole seconds, so ±500 ms is noise). */
const AGREE_MS = 1_500;
/** How many answers must agree before a large skew, or a change of skew, is believed. */
const CONFIRMATIONS = 3;
const HISTORY = 5;
/**
 * Bounds wider than this say little (the first seconds, before an answer came close to a second's
 * turn): the guess leans toward agreed clocks. 8 copies, a short catalog started 50 ms after a whole
 * second (the fleet model, seeds 20-43): goals met in 4 -> 15 of 24 seeds; 500 rather than 300-400
 * keeps a server whose clock is 300 ms off as good as with the middle (17 -> 19).
 */
export const WIDE_BOUNDS_MS = 500;

export class ServerClock {
  private low: number | null = null;
  private high: number | null = null;
  private updatedAt = 0;
  /** Rough offsets (server - local) of the latest answers, believed or not. */
  private recent: number[] = [];

  /**
   * Whether one answer's Date may be used (it is then observed). A Date far from our clock, or far
   * from what the latest answers agree on, is one garbled or hostile header until CONFIRMATIONS
   * answers agree with it: one skewed Date must not stall an endpoint (issue 11, item 1). A Date
   * far from the clock already believed must be the only clock of the last CONFIRMATIONS answers:
   * two clocks taking turns (backends behind a load balancer) would otherwise restart the bounds on
   * each other at every answer, and the off one's seconds are then taken as answers without Date.
   */
  believe(sentAt: number, receivedAt: number, dateMs: number): boolean {
    if (!Number.isFinite(dateMs)) return false;
    const offset = Math.floor(dateMs / 1000) * 1000 + 500 - (sentAt + receivedAt) / 2;
    this.recent.push(offset);
    if (this.recent.length > HISTORY) this.recent.shift();
    const agrees = (o: number): boolean => Math.abs(o - offset) <= AGREE_MS;
    const current = this.offsetGuess();
    let believed: boolean;
    if (current !== null && !agrees(current)) {
      believed = this.recent.length >= CONFIRMATIONS && this.recent.slice(-CONFIRMATIONS).every(agrees);
    } else {
      const agreeing = this.recent.filter(agrees).length;
      const settledElsewhere = this.recent.some((o) => !agrees(o) && this.recent.filter((p) => Math.abs(p - o) <= AGREE_MS).length >= CONFIRMATIONS);
      believed = agreeing >= CONFIRMATIONS || (Math.abs(offset) <= MAX_UNCONFIRMED_SKEW_MS && !settledElsewhere);
    }
    if (believed) this.observe(sentAt, receivedAt, dateMs);
    return believed;
  }

  /** Records one response's Date second (epoch ms of its whole second). */
  observe(sentAt: number, receivedAt: number, dateMs: number): void {
    const second = Math.floor(dateMs / 1000) * 1000;
    const lo = second - receivedAt;
    const hi = second + 1000 - sentAt;
    this.widen(receivedAt);
    if (this.low === null || this.high === null || hi < this.low - CONTRADICTION_MS || lo > this.high + CONTRADICTION_MS) {
      this.low = lo;
      this.high = Math.max(lo, hi);
    } else {
      this.low = Math.max(this.low, lo);
      // A Date that lags its budget second (a cached header) can push high under low: keep low, the safe side.
      this.high = Math.max(this.low, Math.min(this.high, hi));
    }
    this.updatedAt = receivedAt;
  }

  private widen(now: number): void {
    if (this.low === null || this.high === null) return;
    const drift = Math.max(0, now - this.updatedAt) * DRIFT_PER_MS;
    this.low -= drift;
    this.high += drift;
    this.updatedAt = Math.max(this.updatedAt, now);
  }

  get known(): boolean {
    return this.low !== null;
  }

  /** Lower bound of server time - local time at local time `now`, or null before any Date. */
  offsetLow(now: number): number | null {
    if (this.low === null) return null;
    return this.low - Math.max(0, now - this.updatedAt) * DRIFT_PER_MS;
  }

  /** Local time by which the server's clock has surely reached the whole second `secondMs`. */
  surelyReached(secondMs: number, now: number): number | null {
    const low = this.offsetLow(now);
    return low === null ? null : secondMs - low;
  }

  /**
   * Best guess of server time - local time, or null before any Date. Narrow bounds: their middle.
   * Wide bounds: the point of their middle half nearest to agreed clocks (offset 0). Servers and desks
   * mostly keep network time, and where they start together just after a whole second (a scheduler,
   * a fleet started at once), the middle of wide bounds puts the next second up to half a second
   * early: every copy's deferred request then lands in the spent second (429s). Keeping to the middle
   * half bounds the error where the clocks do differ, and a request deferred on the guess then lands
   * at least a quarter of the bounds nearer the real turn, so the bounds still narrow.
   */
  offsetGuess(): number | null {
    if (this.low === null || this.high === null) return null;
    const mid = (this.low + this.high) / 2;
    const width = this.high - this.low;
    if (width <= WIDE_BOUNDS_MS) return mid;
    return Math.min(mid + width / 4, Math.max(mid - width / 4, 0));
  }

  /** How far into the server second `secondMs` local time `at` falls, as a fraction in [0, 1] (best guess), or null before any Date. */
  phaseOf(secondMs: number, at: number): number | null {
    const offset = this.offsetGuess();
    return offset === null ? null : Math.min(1, Math.max(0, (at + offset - secondMs) / 1000));
  }

  /** Local time at which the server's current second surely ends, or null when unknown. */
  nextSecondAt(now: number): number | null {
    const low = this.offsetLow(now);
    if (low === null || this.high === null) return null;
    // The latest the current server second can be (upper bound of d) decides the next boundary.
    const high = this.high + Math.max(0, now - this.updatedAt) * DRIFT_PER_MS;
    const serverNow = now + high;
    return (Math.floor(serverNow / 1000) + 1) * 1000 - low;
  }
}
