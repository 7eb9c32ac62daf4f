/**
 * Another consumer of the same budget (another program using the vendor's tokens), inferred from
 * the Remaining figures of our own responses.
 *
 * Between two consecutive trustworthy responses `prev` and `cur` of one (vendor, endpoint) bucket,
 * with no other consumer, Remaining can fall by at most the slots our own requests took in between:
 *
 *     cur.remaining >= base - used(cur) - own
 *
 * where `base` is the least the budget can hold after refilling from prev.remaining, `used(cur)` is 1
 * (0 for a 429, which takes no slot) and `own` is an upper bound on our requests the server may have
 * counted in between. What Remaining falls below that bound is `foreignUse`.
 *
 * Conservative on every count, so that our own traffic never raises a false alarm:
 * - `own` counts every request of ours whose [sent, answered] span overlaps [prev sent, cur answered],
 *   plus every request still in flight (the client tells), plus failures with no answer as if the
 *   server might count them long after we gave up;
 * - refill is the least either model allows: whole-second refills only at a boundary (certain only
 *   once a full second separates the two, then the budget is full again); the continuous model adds
 *   N*dt (used only when the refill model is known to be continuous), less one slot of slack for the
 *   fractional allowance and for re-stamped refused requests;
 * - a response with unreadable headers, a changed limit or no limit is not used as an anchor.
 */
import type { EndpointId } from '../../shared/endpoints';
import type { BudgetSample } from '../../shared/rate-limit';
import { aggregateKey } from './aggregate';

export type RefillModelHint = 'whole-second' | 'continuous';

export interface ForeignUseOptions {
  /** Our requests to the bucket that are sent and not answered yet (all our clients of that vendor). */
  inFlight?: (vendor: string, endpoint: EndpointId) => number;
  /** The server's refill model where it is known (the embedded simulator); null: unknown, assume the stricter. */
  refillModel?: (vendor: string) => RefillModelHint | null;
  /** How long after giving up a request with no answer the server might still count it. */
  unansweredGraceMs?: number;
}

interface Span {
  seq: number;
  sent: number;
  /** Latest time the server may have counted it. */
  countedBy: number;
}

interface Anchor {
  seq: number;
  sent: number;
  at: number;
  limit: number;
  remaining: number;
}

interface BucketState {
  anchor: Anchor | null;
  /** Our requests answered since (or overlapping) the anchor, oldest first. */
  spans: Span[];
}

const MAX_SPANS = 10_000;

export class ForeignUseDetector {
  private readonly buckets = new Map<string, BucketState>();
  private readonly graceMs: number;
  private seq = 0;

  constructor(private readonly options: ForeignUseOptions = {}) {
    this.graceMs = options.unansweredGraceMs ?? 30_000;
  }

  /** Feeds one of our samples (in arrival order); returns the slots another consumer took since the previous anchor. */
  observe(sample: BudgetSample): number {
    const key = aggregateKey(sample.vendor, sample.endpoint);
    let state = this.buckets.get(key);
    if (!state) {
      state = { anchor: null, spans: [] };
      this.buckets.set(key, state);
    }
    const seq = ++this.seq;
    const sent = sample.at - Math.max(0, sample.latencyMs);
    const span: Span = { seq, sent, countedBy: sample.status === 0 ? sample.at + this.graceMs : sample.at };
    const anchor = toAnchor(sample, seq, sent);
    if (!anchor) {
      // Not comparable, but it is still our request: it counts as own use for the next pair.
      this.addSpan(state, span);
      return 0;
    }
    const prev = state.anchor;
    let foreign = 0;
    if (prev && prev.limit === anchor.limit) {
      const own = this.ownBetween(state, prev, sample.at) + Math.max(0, this.options.inFlight?.(sample.vendor, sample.endpoint) ?? 0);
      const base = this.leastBudgetAfterRefill(sample.vendor, prev, anchor);
      const used = sample.status === 429 ? 0 : 1;
      foreign = Math.max(0, base - used - own - anchor.remaining);
    }
    // Even an anchor may have been counted by the server after the next one (answers can overtake).
    this.addSpan(state, span);
    state.anchor = anchor;
    // Only requests that may have been counted after this anchor matter for the next pair.
    state.spans = state.spans.filter((s) => s.countedBy >= anchor.sent);
    return foreign;
  }

  reset(): void {
    this.buckets.clear();
  }

  private addSpan(state: BucketState, span: Span): void {
    state.spans.push(span);
    if (state.spans.length > MAX_SPANS) state.spans.splice(0, state.spans.length - MAX_SPANS);
  }

  private ownBetween(state: BucketState, prev: Anchor, curAt: number): number {
    let n = 0;
    for (const span of state.spans) if (span.seq !== prev.seq && span.countedBy >= prev.sent && span.sent <= curAt) n += 1;
    return n;
  }

  private leastBudgetAfterRefill(vendor: string, prev: Anchor, cur: Anchor): number {
    const limit = cur.limit;
    // The server counted prev at or before prev.at, and cur at or after cur.sent.
    const dt = Math.max(0, cur.sent - prev.at);
    if (dt >= 1000) return limit; // both models: a whole second refills the budget completely
    if (this.options.refillModel?.(vendor) === 'continuous') {
      const refill = Math.floor((limit * dt) / 1000);
      if (refill > 1) return Math.min(limit, prev.remaining + refill - 1);
    }
    return prev.remaining;
  }
}

function toAnchor(sample: BudgetSample, seq: number, sent: number): Anchor | null {
  if (sample.status === 0 || sample.limit === null || sample.remaining === null) return null;
  if (sample.headerProblems.length > 0 || sample.limit <= 0) return null;
  return { seq, sent, at: sample.at, limit: sample.limit, remaining: sample.remaining };
}
