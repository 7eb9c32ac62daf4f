/**
 * The simulator's rate limiter: one bucket per (vendor, endpoint) at the endpoint's limit N,
 * shared by every token of the vendor. Two refill models, switchable at run time.
 *
 * 'whole-second' reproduces yii\filters\RateLimiter (2.0.x) exactly (see server-behaviour.md):
 *     current   = floor(clock / 1000)                       (PHP time(): whole seconds)
 *     allowance = stored + int((current - stored_ts) * N)   capped at N  (a new bucket starts full)
 *     allowance < 1 -> store (0, current), Remaining 0, Reset 1, 429   (a refusal re-stamps the time)
 *     otherwise     -> store (allowance - 1, current), Remaining allowance - 1,
 *                      Reset int((N - allowance + 1) / N)  (0 on every success but the one leaving 0)
 *   So the budget comes back whole when the clock's second changes: 2N requests pass within
 *   milliseconds across a boundary, and waiting 0.6 s inside the same second still gets 429.
 *   One deliberate difference: a clock that steps backwards adds nothing instead of draining the
 *   bucket (Yii would subtract).
 *
 * 'continuous' is a leaky bucket refilled continuously at N per second with millisecond precision,
 * capped at N (the other reading of the specification's words). The allowance is kept in integer
 * thousandths of a slot, so there is no floating-point drift:
 *     allowance = min(1000 N, stored + (now_ms - stored_ms) * N)
 *     allowance < 1000 -> store (allowance, now), Remaining 0, 429, Reset 1
 *     otherwise        -> take 1000; Remaining floor(allowance / 1000);
 *                         Reset = floor(seconds until full) = floor((1000 N - allowance) / (1000 N)),
 *                         i.e. 0 ("under a second") unless the bucket is exactly empty.
 *   A refusal's Reset is 1 in both models: with under one slot left, both "seconds until one slot"
 *   and "seconds until full" lie in (0, 1], rounded up to 1, as Yii says. A 429 never says 0.
 *   A refusal in this model re-stamps the time too, but loses nothing (the refill is kept).
 *
 * Switching the model at run time empties the book: every bucket starts full again.
 */

export type RefillModel = 'continuous' | 'whole-second';
export const REFILL_MODELS: readonly RefillModel[] = ['whole-second', 'continuous'];

/** What one check answers: the three headers' values and whether the request may proceed. */
export interface BudgetDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  reset: number;
}

/** A bucket as stored: the allowance and the time stamp, in the model's own units. */
export interface BucketState {
  allowance: number;
  stamp: number;
}

export interface CheckResult {
  state: BucketState;
  decision: BudgetDecision;
}

/** One check in the whole-second model. `state` undefined: a new bucket (full). Pure. */
export function checkWholeSecond(state: BucketState | undefined, limit: number, nowMs: number): CheckResult {
  const current = Math.floor(nowMs / 1000);
  let allowance = state ? state.allowance + Math.trunc(Math.max(0, current - state.stamp) * limit) : limit;
  if (allowance > limit) allowance = limit;
  if (allowance < 1) {
    return { state: { allowance: 0, stamp: current }, decision: { allowed: false, limit, remaining: 0, reset: 1 } };
  }
  return {
    state: { allowance: allowance - 1, stamp: current },
    decision: { allowed: true, limit, remaining: allowance - 1, reset: Math.trunc((limit - allowance + 1) / limit) },
  };
}

/** One check in the continuous model (allowance in thousandths of a slot, stamp in ms). Pure. */
export function checkContinuous(state: BucketState | undefined, limit: number, nowMs: number): CheckResult {
  const now = Math.floor(nowMs);
  const full = limit * 1000;
  let allowance = state ? state.allowance + Math.max(0, now - state.stamp) * limit : full;
  if (allowance > full) allowance = full;
  if (allowance < 1000) {
    return { state: { allowance, stamp: now }, decision: { allowed: false, limit, remaining: 0, reset: 1 } };
  }
  allowance -= 1000;
  return {
    state: { allowance, stamp: now },
    decision: { allowed: true, limit, remaining: Math.floor(allowance / 1000), reset: Math.floor((full - allowance) / full) },
  };
}

const CHECKS: Record<RefillModel, typeof checkWholeSecond> = {
  'whole-second': checkWholeSecond,
  continuous: checkContinuous,
};

/** Every bucket of one simulator. */
export class BudgetBook {
  private buckets = new Map<string, BucketState>();
  private modelName: RefillModel;

  constructor(model: RefillModel) {
    this.modelName = model;
  }

  get model(): RefillModel {
    return this.modelName;
  }

  /** Switching models empties the book (the two store different units). */
  setModel(model: RefillModel): void {
    if (model !== this.modelName) this.buckets.clear();
    this.modelName = model;
  }

  /** Take one slot of (vendor, endpoint) at nowMs, or be refused (which re-stamps the bucket). */
  take(vendor: string, endpoint: string, limit: number, nowMs: number): BudgetDecision {
    const key = `${vendor}\u0000${endpoint}`;
    const { state, decision } = CHECKS[this.modelName](this.buckets.get(key), limit, nowMs);
    this.buckets.set(key, state);
    return decision;
  }

  reset(): void {
    this.buckets.clear();
  }
}
