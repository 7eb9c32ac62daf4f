/**
 * A ring of one-second budget buckets stored column-wise in preallocated typed arrays: its memory is
 * fixed from the first sample (no object per second, nothing for the GC to chase), however long the
 * dashboard stays open. Nullable figures are stored as NaN.
 */
import { WAIT_BIN_COUNT } from '../../../shared/wait-bins';
import type { WaitCauses } from '../../../shared/wait-causes';
import { WAIT_CAUSES, emptyWaitCauses } from '../../../shared/wait-causes';
export interface SecondBucket {
  /** Start of the second, epoch ms. */
  t: number;
  requests: number;
  rateLimited: number;
  errors: number;
  limit: number | null;
  /** Last Remaining reported in the second. */
  remaining: number | null;
  minRemaining: number | null;
  reset: number | null;
  waitedMs: number;
  /** Requests per wait class (shared/wait-bins.ts). */
  waitBins: Float64Array;
  /** Time at least one request was held back by the budget. */
  heldMs: number;
  /** Attempts with no answer (also in requests and errors). */
  unanswered: number;
  latencyMsSum: number;
  latencyMsMax: number;
  foreignUse: number;
  /** The latest aggregate end folded in, to keep "last remaining" right. */
  lastTo: number;
  /** waitedMs split by what held the requests (shared/wait-causes.ts). */
  waitCauses: WaitCauses;
}

export interface BucketDelta {
  to: number;
  requests: number;
  rateLimited: number;
  errors: number;
  limit: number | null;
  remaining: number | null;
  minRemaining: number | null;
  reset: number | null;
  waitedMs: number;
  waitBins: readonly number[];
  heldMs: number;
  unanswered: number;
  latencyMsSum: number;
  latencyMsMax: number;
  foreignUse: number;
  waitCauses?: Readonly<WaitCauses>;
}

const CAUSE_COUNT = WAIT_CAUSES.length;

const COLUMNS = [
  't',
  'requests',
  'rateLimited',
  'errors',
  'limit',
  'remaining',
  'minRemaining',
  'reset',
  'waitedMs',
  'heldMs',
  'unanswered',
  'latencyMsSum',
  'latencyMsMax',
  'foreignUse',
  'lastTo',
] as const;
type Column = (typeof COLUMNS)[number];

const nullable = (v: number): number | null => (Number.isNaN(v) ? null : v);

export class BucketRing {
  private readonly cols: Record<Column, Float64Array>;
  /** WAIT_BIN_COUNT counts per slot. */
  private readonly waits: Float64Array;
  /** CAUSE_COUNT milliseconds per slot, in WAIT_CAUSES order. */
  private readonly causes: Float64Array;
  private start = 0;
  private count = 0;

  constructor(readonly capacity: number) {
    this.cols = Object.fromEntries(COLUMNS.map((c) => [c, new Float64Array(capacity)])) as Record<Column, Float64Array>;
    this.waits = new Float64Array(capacity * WAIT_BIN_COUNT);
    this.causes = new Float64Array(capacity * CAUSE_COUNT);
  }

  get size(): number {
    return this.count;
  }

  /** Physical slot of the i-th oldest bucket. */
  private slot(i: number): number {
    return (this.start + i) % this.capacity;
  }

  t(i: number): number {
    return this.cols.t[this.slot(i)]!;
  }

  /** Fills `into` with the i-th oldest bucket (0 <= i < size) and returns it. */
  read(i: number, into: SecondBucket = emptyBucket()): SecondBucket {
    const s = this.slot(i);
    const c = this.cols;
    into.t = c.t[s]!;
    into.requests = c.requests[s]!;
    into.rateLimited = c.rateLimited[s]!;
    into.errors = c.errors[s]!;
    into.limit = nullable(c.limit[s]!);
    into.remaining = nullable(c.remaining[s]!);
    into.minRemaining = nullable(c.minRemaining[s]!);
    into.reset = nullable(c.reset[s]!);
    into.waitedMs = c.waitedMs[s]!;
    into.waitBins.set(this.waits.subarray(s * WAIT_BIN_COUNT, (s + 1) * WAIT_BIN_COUNT));
    into.heldMs = c.heldMs[s]!;
    into.unanswered = c.unanswered[s]!;
    into.latencyMsSum = c.latencyMsSum[s]!;
    into.latencyMsMax = c.latencyMsMax[s]!;
    into.foreignUse = c.foreignUse[s]!;
    into.lastTo = c.lastTo[s]!;
    for (let k = 0; k < CAUSE_COUNT; k++) into.waitCauses[WAIT_CAUSES[k]!] = this.causes[s * CAUSE_COUNT + k]!;
    return into;
  }

  /** Index of the first bucket with t >= ms (binary search; buckets are in time order). */
  lowerBound(ms: number): number {
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.t(mid) >= ms) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** Forgets the buckets at or after `ms` (a backfill replaces them). */
  truncateFrom(ms: number): void {
    this.count = Math.min(this.count, this.lowerBound(ms));
  }

  /** Adds an aggregate to the bucket of second `t`: a new one after the last, or a recent one; older is dropped. */
  add(t: number, d: BucketDelta): void {
    let i: number;
    if (this.count === 0 || this.t(this.count - 1) < t) {
      i = this.push(t);
    } else {
      i = this.lowerBound(t);
      if (i >= this.count || this.t(i) !== t) return;
    }
    const s = this.slot(i);
    const c = this.cols;
    c.requests[s]! += d.requests;
    c.rateLimited[s]! += d.rateLimited;
    c.errors[s]! += d.errors;
    c.waitedMs[s]! += d.waitedMs;
    c.heldMs[s]! += d.heldMs;
    c.unanswered[s]! += d.unanswered;
    const w = s * WAIT_BIN_COUNT;
    for (let k = 0; k < WAIT_BIN_COUNT && k < d.waitBins.length; k++) this.waits[w + k]! += d.waitBins[k] ?? 0;
    c.latencyMsSum[s]! += d.latencyMsSum;
    c.latencyMsMax[s] = Math.max(c.latencyMsMax[s]!, d.latencyMsMax);
    c.foreignUse[s]! += d.foreignUse;
    if (d.waitCauses) for (let k = 0; k < CAUSE_COUNT; k++) this.causes[s * CAUSE_COUNT + k]! += d.waitCauses[WAIT_CAUSES[k]!] ?? 0;
    if (d.limit !== null) c.limit[s] = d.limit;
    if (d.minRemaining !== null) c.minRemaining[s] = Number.isNaN(c.minRemaining[s]!) ? d.minRemaining : Math.min(c.minRemaining[s]!, d.minRemaining);
    if (d.to >= c.lastTo[s]!) {
      if (d.remaining !== null) c.remaining[s] = d.remaining;
      if (d.reset !== null) c.reset[s] = d.reset;
      c.lastTo[s] = d.to;
    }
  }

  private push(t: number): number {
    if (this.count === this.capacity) {
      this.start = (this.start + 1) % this.capacity;
      this.count--;
    }
    const s = this.slot(this.count);
    for (const col of COLUMNS) this.cols[col][s] = 0;
    this.waits.fill(0, s * WAIT_BIN_COUNT, (s + 1) * WAIT_BIN_COUNT);
    this.causes.fill(0, s * CAUSE_COUNT, (s + 1) * CAUSE_COUNT);
    this.cols.t[s] = t;
    this.cols.limit[s] = NaN;
    this.cols.remaining[s] = NaN;
    this.cols.minRemaining[s] = NaN;
    this.cols.reset[s] = NaN;
    this.count++;
    return this.count - 1;
  }
}

export function emptyBucket(): SecondBucket {
  return {
    t: 0,
    requests: 0,
    rateLimited: 0,
    errors: 0,
    limit: null,
    remaining: null,
    minRemaining: null,
    reset: null,
    waitedMs: 0,
    waitBins: new Float64Array(WAIT_BIN_COUNT),
    heldMs: 0,
    unanswered: 0,
    latencyMsSum: 0,
    latencyMsMax: 0,
    foreignUse: 0,
    lastTo: 0,
    waitCauses: emptyWaitCauses(),
  };
}
