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
import { ServerOffset } from './foreign-server-clock';
import { WholeSecondForeignUse } from './foreign-whole-second';

export type { ForeignUseOptions, RefillModelHint };

interface BucketEstimate {
  model: RefillModelHint;
  estimate: WholeSecondForeignUse | ContinuousForeignUse;
  /** The server clock's steps this estimate has retired its seconds for, and the offset it last used. */
  steps: number;
  offsetMs: number | null;
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
      bucket = { model, estimate: model === 'continuous' ? new ContinuousForeignUse() : new WholeSecondForeignUse(), steps: 0, offsetMs: null };
      this.buckets.set(key, bucket);
    }
    const inFlight = Math.max(0, this.options.inFlight?.(sample.vendor, sample.endpoint, server) ?? 0);
    const estimate = bucket.estimate;
    if (estimate instanceof ContinuousForeignUse) return estimate.observe(sample, slotsOf(sample), inFlight);
    const clockKey = `${sample.vendor}\u0000${server ?? ''}`;
    let offset = this.offsets.get(clockKey);
    if (!offset) this.offsets.set(clockKey, (offset = new ServerOffset()));
    if (bucket.offsetMs === null) bucket.steps = offset.steps;
    // The Date's own second even when the answer came late (a busy process): that is the second the server counted it in.
    const second = sample.serverSecond != null && Number.isFinite(sample.serverSecond) ? Math.floor(sample.serverSecond / 1000) * 1000 : secondOf(sample);
    const before = offset.estimate();
    // A Date no flight explains is not filed under its second until enough answers show the clock stepped: ours where its flight overlaps.
    const placement = sample.status !== 0 && sample.serverSecond != null ? offset.place(sample) : 'placed';
    let found = 0;
    if (bucket.steps !== offset.steps) {
      // The clock stepped (seen on this or another endpoint): the seconds held are of the old clock.
      found += estimate.stepped((offset.estimate() ?? 0) - (bucket.offsetMs ?? offset.estimate() ?? 0), sample.at, inFlight);
      bucket.steps = offset.steps;
    }
    if (placement === 'unplaced') {
      bucket.offsetMs = before;
      return found + estimate.unplaced(sample, before);
    }
    bucket.offsetMs = offset.estimate();
    return found + estimate.observe(sample, second, bucket.offsetMs, inFlight);
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
