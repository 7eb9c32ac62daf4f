/**
 * Others' use of a budget (other programs on the vendor's tokens), as the Budget view, the Overview,
 * the CSV, the usage history and the alerts show it: estimated per (vendor, endpoint) bucket from the
 * Remaining and Date of our own answers.
 *
 * This DISPLAY estimate differs from the pacing estimators (electron/client/bucket.ts, fair-share.ts)
 * on purpose: pacing must never send more than the budget allows, so it reads others' use on the safe
 * side, answer by answer; a chart must read what was taken, so this one uses every answer of a
 * stretch at once (a running balance, or each server second's whole count) and may be corrected by
 * later answers. Both agree that our own traffic alone shows no other consumer.
 *
 * Where the server's refill model is known (the embedded simulator) it is estimated in that model
 * (foreign-whole-second.ts, foreign-continuous.ts): within a few percent of what the server counted
 * while we use the budget steadily. Where it is not, only a lower bound holds in both models
 * (foreign-use-bound.ts).
 */
import type { BudgetSample } from '../../shared/rate-limit';
import { aggregateKey, vendorOfKey, secondOf } from './aggregate';
import { ContinuousForeignUse } from './foreign-continuous';
import { ForeignUseBound } from './foreign-use-bound';
import type { ForeignUseOptions, RefillModelHint } from './foreign-use-bound';
import { WholeSecondForeignUse } from './foreign-whole-second';

export type { ForeignUseOptions, RefillModelHint };

/** A Date this far from where the server's clock stood by its earlier answers is not filed under its own second. */
const FAR_FROM_SERVER_CLOCK_MS = 60_000;

interface BucketEstimate {
  model: RefillModelHint;
  estimate: WholeSecondForeignUse | ContinuousForeignUse;
}

export class ForeignUseDetector {
  private readonly bound: ForeignUseBound;
  private readonly buckets = new Map<string, BucketEstimate>();
  /** The server's clock less ours, per vendor and server, learnt from the Dates. */
  private readonly offsets = new Map<string, ServerOffset>();

  constructor(private readonly options: ForeignUseOptions = {}) {
    this.bound = new ForeignUseBound(options);
  }

  /** Feeds one of our samples (in arrival order); returns the slots others took that were not reported yet. */
  observe(sample: BudgetSample): number {
    const model = this.options.refillModel?.(sample.vendor) ?? null;
    // The bound keeps its anchors whatever the model, so that it is ready should the model become unknown.
    const bound = this.bound.observe(sample);
    if (model === null) return bound;
    // Per server of the vendor: two servers of one vendor have two budgets.
    const server = this.options.serverOf?.(sample) ?? null;
    const key = `${aggregateKey(sample.vendor, sample.endpoint)}\u0000${server ?? ''}`;
    let bucket = this.buckets.get(key);
    if (!bucket || bucket.model !== model) {
      bucket = { model, estimate: model === 'continuous' ? new ContinuousForeignUse() : new WholeSecondForeignUse() };
      this.buckets.set(key, bucket);
    }
    const inFlight = Math.max(0, this.options.inFlight?.(sample.vendor, sample.endpoint, server) ?? 0);
    if (bucket.estimate instanceof ContinuousForeignUse) return bucket.estimate.observe(sample, slotsOf(sample), inFlight);
    const clockKey = `${sample.vendor}\u0000${server ?? ''}`;
    let offset = this.offsets.get(clockKey);
    if (!offset) this.offsets.set(clockKey, (offset = new ServerOffset()));
    // The Date's own second even when the answer came late (a busy process): that is the second the server counted it in.
    const second = sample.serverSecond != null && Number.isFinite(sample.serverSecond) ? Math.floor(sample.serverSecond / 1000) * 1000 : secondOf(sample);
    const before = offset.estimate();
    if (sample.status !== 0 && sample.serverSecond != null) {
      // A Date far from the server's clock so far (one answer from a far future, say) is not filed under its second, nor
      // moves the clock, unless the next answer confirms the step: its flight says when it was counted.
      const far = before !== null && Math.abs(second - (sample.at + before)) > FAR_FROM_SERVER_CLOCK_MS;
      if (far && !offset.confirmsStep(sample)) return bucket.estimate.unplaced(sample, before);
      if (!far) offset.observe(sample);
    }
    return bucket.estimate.observe(sample, second, offset.estimate(), inFlight);
  }

  /** Forgets what was inferred about one vendor's buckets (every vendor when absent). */
  reset(vendor?: string): void {
    this.bound.reset(vendor);
    for (const key of this.buckets.keys()) if (vendor === undefined || vendorOfKey(key) === vendor) this.buckets.delete(key);
    for (const key of this.offsets.keys()) if (vendor === undefined || vendorOfKey(key) === vendor) this.offsets.delete(key);
  }
}

/** Slots one of our requests took: none for a 429; one for any other request the limiter saw or may have seen. */
function slotsOf(sample: BudgetSample): number {
  if (sample.status === 429) return 0;
  if (sample.status === 0) return 1; // no answer: the server may have counted it
  return sample.limit !== null ? 1 : 0; // answered without the headers: refused before the limiter (e.g. a 401)
}

/**
 * The server's clock less ours: an answer with Date second S, sent at `sent` and received at `at`, was
 * counted at a time p with S <= p + d < S + 1000, so S - at <= d < S + 1000 - sent. The intersection
 * over the latest answers; a contradiction (a clock step) starts again.
 */
class ServerOffset {
  private low = -Infinity;
  private high = Infinity;
  /** A far step one answer showed, until the next confirms it. */
  private step: { lo: number; hi: number } | null = null;

  observe(sample: BudgetSample): void {
    const { lo, hi } = span(sample);
    this.step = null;
    if (lo > this.high + 50 || hi < this.low - 50) {
      this.low = lo;
      this.high = hi;
      return;
    }
    this.low = Math.max(this.low, lo);
    this.high = Math.max(this.low, Math.min(this.high, hi));
  }

  /** A far step is taken when two answers in a row show it; true when this one confirms the one before. */
  confirmsStep(sample: BudgetSample): boolean {
    const { lo, hi } = span(sample);
    const before = this.step;
    if (before && lo <= before.hi + 50 && hi >= before.lo - 50) {
      this.step = null;
      this.low = Math.max(lo, before.lo);
      this.high = Math.max(this.low, Math.min(hi, before.hi));
      return true;
    }
    this.step = { lo, hi };
    return false;
  }

  estimate(): number | null {
    return Number.isFinite(this.low) && Number.isFinite(this.high) ? (this.low + this.high) / 2 : null;
  }
}

/** The offsets an answer allows: S - at <= d < S + 1000 - sent. */
function span(sample: BudgetSample): { lo: number; hi: number } {
  const second = sample.serverSecond!;
  return { lo: second - sample.at, hi: second + 1000 - (sample.at - Math.max(0, sample.latencyMs)) };
}
