/**
 * A LOWER BOUND of another consumer's use of the same budget, from the Remaining figures of our own
 * responses: what the display estimate (foreign-use.ts) falls back to where the server's refill model
 * is not known, since only a bound holds in both models.
 *
 * Between two trustworthy responses `a` (earlier) and `cur` of one (vendor, endpoint) bucket, with no
 * other consumer, Remaining can fall by at most the slots our own requests took in between:
 *
 *     cur.remaining >= base - used(cur) - own
 *
 * where `base` is the least the budget can hold after refilling from a.remaining, `used(cur)` is 1
 * (0 for a 429, which takes no slot) and `own` is an upper bound on our requests the server may have
 * counted in between. What Remaining falls below that bound is foreign use in between.
 *
 * At the limit, Remaining stays near 0 and consecutive answers show nothing: the other consumer takes
 * the *refill*. So `cur` is compared with every anchor of the last two seconds, not only the previous
 * one (the latest, the latest of an earlier server second, the latest a whole second before), and the
 * findings are chained: each anchor keeps a lower bound of the foreign use up to it, and `cur`'s bound
 * is the best of (anchor's bound + foreign use between the anchor and `cur`). What the bound grows by
 * is reported, so nothing is counted twice.
 *
 * Conservative on every count, so that our own traffic never raises a false alarm:
 * - `own` counts every request of ours whose [sent, answered] span overlaps [a sent, cur answered],
 *   plus every request still in flight (the client tells), plus failures with no answer as if the
 *   server might count them long after we gave up;
 * - refill is the least the model allows: a whole second between the two refills the budget in both
 *   models; with a known whole-second model and the answers' Date seconds, a later Date second means
 *   the budget came back whole, and then only our requests of that second count as own; the
 *   continuous model adds N*dt (used only when the model is known to be continuous), less one slot of
 *   slack for the fractional allowance, capped at N unless our answers in between show that the
 *   allowance never came near the cap;
 * - a refused request (429) takes no slot only where the model is known; with an unknown model it
 *   counts as own (it may re-stamp the allowance);
 * - a response with unreadable headers, a changed limit or no limit is not used as an anchor.
 */
import type { EndpointId } from '../../shared/endpoints';
import type { BudgetSample } from '../../shared/rate-limit';
import { aggregateKey, vendorOfKey, secondOf } from './aggregate';

export type RefillModelHint = 'whole-second' | 'continuous';

export interface ForeignUseOptions {
  /** Our requests to the bucket that are sent and not answered yet (our clients of that vendor, at `server` when known). */
  inFlight?: (vendor: string, endpoint: EndpointId, server: string | null) => number;
  /**
   * The server (base URL) that answered a sample: each server of a vendor keeps its own budget, so each
   * gets its own estimate. Absent or null: one estimate per vendor.
   */
  serverOf?: (sample: BudgetSample) => string | null;
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
  /** Refused (429): took no slot. */
  refused: boolean;
  /** The server second it was counted in, when its answer said (Date); null: unknown. */
  second: number | null;
}

interface Anchor {
  seq: number;
  sent: number;
  at: number;
  limit: number;
  remaining: number;
  second: number | null;
  /** A 429 (Remaining 0, took no slot). */
  refused: boolean;
  /** Lower bound of the foreign use up to this answer (chained over anchors). */
  foreignUpTo: number;
}

interface BucketState {
  /** Anchors of the last LOOKBACK_MS, oldest first. */
  anchors: Anchor[];
  /** Our requests that may have been counted after the oldest anchor, oldest first. */
  spans: Span[];
  /** Foreign use reported so far (the best chained bound). */
  reported: number;
}

/** Anchors this far back are compared with each answer: a little over one refill of the budget. */
const LOOKBACK_MS = 2000;
const MAX_ANCHORS = 256;
const MAX_SPANS = 10_000;

export class ForeignUseBound {
  private readonly buckets = new Map<string, BucketState>();
  private readonly graceMs: number;
  private seq = 0;

  constructor(private readonly options: ForeignUseOptions = {}) {
    this.graceMs = options.unansweredGraceMs ?? 30_000;
  }

  /** Feeds one of our samples (in arrival order); returns the slots another consumer took that were not reported yet. */
  observe(sample: BudgetSample): number {
    const server = this.options.serverOf?.(sample) ?? null;
    const key = `${aggregateKey(sample.vendor, sample.endpoint)}\u0000${server ?? ''}`;
    let state = this.buckets.get(key);
    if (!state) {
      state = { anchors: [], spans: [], reported: 0 };
      this.buckets.set(key, state);
    }
    const seq = ++this.seq;
    const sent = sample.at - Math.max(0, sample.latencyMs);
    const answered = sample.status !== 0;
    const span: Span = {
      seq,
      sent,
      countedBy: answered ? sample.at : sample.at + this.graceMs,
      refused: sample.status === 429,
      second: answered && sample.serverSecond != null ? secondOf(sample) : null,
    };
    const cur = toAnchor(sample, seq, sent, span.second);
    if (!cur) {
      // Not comparable, but it is still our request: it counts as own use for the next pairs.
      this.addSpan(state, span);
      return 0;
    }
    const model = this.options.refillModel?.(sample.vendor) ?? null;
    const inFlight = Math.max(0, this.options.inFlight?.(sample.vendor, sample.endpoint, server) ?? 0);
    let best = 0;
    for (const a of candidates(state.anchors, cur)) best = Math.max(best, a.foreignUpTo + this.between(state, a, cur, model, inFlight));
    cur.foreignUpTo = best;
    const found = Math.max(0, best - state.reported);
    state.reported = Math.max(state.reported, best);
    this.addSpan(state, span);
    state.anchors.push(cur);
    const horizon = cur.at - LOOKBACK_MS;
    const keepFrom = state.anchors.findIndex((x) => x.at >= horizon);
    state.anchors.splice(0, keepFrom < 0 ? state.anchors.length : Math.max(keepFrom, state.anchors.length - MAX_ANCHORS));
    const oldest = state.anchors[0];
    if (oldest) state.spans = state.spans.filter((s) => s.countedBy >= oldest.sent);
    return found;
  }

  /** Forgets the anchors of one vendor (every vendor when absent). */
  reset(vendor?: string): void {
    for (const key of this.buckets.keys()) if (vendor === undefined || vendorOfKey(key) === vendor) this.buckets.delete(key);
  }

  /** Slots another consumer surely took between anchor `a` and `cur` (cur's span not yet added). */
  private between(state: BucketState, a: Anchor, cur: Anchor, model: RefillModelHint | null, inFlight: number): number {
    const limit = cur.limit;
    const used = cur.refused ? 0 : 1;
    const refusalsFree = model !== null;
    // Whole-second model with Dates: a later second began with the whole budget; only that second's requests count.
    if (model === 'whole-second' && a.second !== null && cur.second !== null && a.second < cur.second) {
      let own = 0;
      for (const s of state.spans) {
        if (s.refused) continue;
        if (s.second === null ? s.countedBy >= cur.second - 1000 && s.sent <= cur.at : s.second === cur.second) own += 1;
      }
      return Math.max(0, limit - used - own - inFlight - cur.remaining);
    }
    let own = inFlight;
    for (const s of state.spans) {
      if (s.seq === a.seq || (refusalsFree && s.refused)) continue;
      if (s.countedBy >= a.sent && s.sent <= cur.at) own += 1;
    }
    const base = this.leastBudgetAfterRefill(model, a, cur, state.anchors);
    return Math.max(0, base - used - own - cur.remaining);
  }

  private leastBudgetAfterRefill(model: RefillModelHint | null, a: Anchor, cur: Anchor, anchors: readonly Anchor[]): number {
    const limit = cur.limit;
    // The server counted a at or before a.at, and cur at or after cur.sent.
    const dt = Math.max(0, cur.sent - a.at);
    if (model === 'continuous') {
      const refill = Math.floor((limit * dt) / 1000);
      // The refill is all there when the allowance cannot have reached the cap in between (it would waste the rest).
      if (refill > 1) return neverFull(a, cur, anchors) ? a.remaining + refill - 1 : Math.min(limit, a.remaining + refill - 1);
    }
    if (dt >= 1000) return limit; // both models: a whole second refills the budget completely
    return a.remaining;
  }

  private addSpan(state: BucketState, span: Span): void {
    state.spans.push(span);
    if (state.spans.length > MAX_SPANS) state.spans.splice(0, state.spans.length - MAX_SPANS);
  }
}

/**
 * The anchors worth comparing with cur (a few, so that the cost per answer stays small): the latest,
 * the latest of an earlier server second, and the latest a whole second before. Only anchors the
 * server surely counted before cur (answered before cur was sent) and of the same limit.
 */
function candidates(anchors: readonly Anchor[], cur: Anchor): Anchor[] {
  let latest: Anchor | undefined;
  let earlierSecond: Anchor | undefined;
  let secondBefore: Anchor | undefined;
  for (let i = anchors.length - 1; i >= 0 && !(latest && earlierSecond && secondBefore); i--) {
    const a = anchors[i]!;
    if (a.limit !== cur.limit || a.at > cur.sent) continue;
    latest ??= a;
    if (!earlierSecond && a.second !== null && cur.second !== null && a.second < cur.second) earlierSecond = a;
    if (!secondBefore && a.at <= cur.sent - 1000) secondBefore = a;
  }
  return [latest, earlierSecond, secondBefore].filter((a): a is Anchor => a !== undefined);
}

/**
 * Continuous model: whether the allowance surely stayed under the cap from a to cur, judged from our
 * answers in between: after each, it held under Remaining + 1 and could gain at most N per second
 * until the next was counted.
 */
function neverFull(a: Anchor, cur: Anchor, anchors: readonly Anchor[]): boolean {
  const limit = cur.limit;
  let prev = a;
  const chain = [...anchors.filter((x) => x.at > a.at && x.sent >= a.at && x.at <= cur.sent), cur];
  for (const next of chain) {
    const gain = (limit * Math.max(0, next.at - prev.sent)) / 1000;
    if (prev.remaining + 1 + gain >= limit) return false;
    prev = next;
  }
  return true;
}

function toAnchor(sample: BudgetSample, seq: number, sent: number, second: number | null): Anchor | null {
  if (sample.status === 0 || sample.limit === null || sample.remaining === null) return null;
  if (sample.headerProblems.length > 0 || sample.limit <= 0) return null;
  return { seq, sent, at: sample.at, limit: sample.limit, remaining: sample.remaining, second, foreignUpTo: 0, refused: sample.status === 429 };
}
