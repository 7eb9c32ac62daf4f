/**
 * A ring of one-second budget figures stored column-wise in preallocated typed arrays: its memory is
 * fixed from the first sample (no object per second, nothing for the GC to chase), however long the
 * dashboard stays open. Nullable figures are stored as NaN. The columns and how parts of a second
 * combine come from the figure table (shared/second-fields.ts).
 */
import { BINS_FIELDS, KEYS_FIELDS, SCALAR_FIELDS, SECOND_FIELDS, isNullableMerge, mergeFigure, zeroPerKey } from '../../../shared/second-fields';
import type { BinsField, KeysField, NullableMerge, ScalarField, SecondFigureValues } from '../../../shared/second-fields';
import type { WaitCause, WaitCauses } from '../../../shared/wait-causes';

type Fields = typeof SECOND_FIELDS;
type FigureOf<S> = S extends { keys: readonly (infer K extends string)[] }
  ? Record<K, number>
  : S extends { bins: number }
    ? Float64Array
    : S extends { merge: NullableMerge }
      ? number | null
      : number;
type Figures = { -readonly [K in keyof Fields]: FigureOf<Fields[K]> };

/** One second's figures as the ring reads them out. */
export interface SecondFigures extends Figures {
  /** Start of the second, epoch ms. */
  t: number;
  /** The latest aggregate end folded in, to keep "last remaining" right. */
  lastTo: number;
}

/** A part of one second to add: an aggregate's figures and when the aggregate ends. */
export type SecondDelta = { readonly to: number } & Readonly<SecondFigureValues>;

type Column = ScalarField | 't' | 'lastTo';
type VectorField = BinsField | KeysField;

// Module-local copies of the table's lists, looked up once: read() runs for every second of every chart.
const SCALARS: readonly ScalarField[] = [...SCALAR_FIELDS];
const MERGE_AT = SCALARS.map((f) => SECOND_FIELDS[f].merge);
/** Per scalar figure, in SCALARS order: whether it is stored as NaN for null. */
const NULLABLE_AT = MERGE_AT.map(isNullableMerge);
const BINS: readonly BinsField[] = [...BINS_FIELDS];
const KEYED: readonly KeysField[] = [...KEYS_FIELDS];
const VECTORS: readonly VectorField[] = [...BINS, ...KEYED];
const COLUMNS: readonly Column[] = ['t', ...SCALARS, 'lastTo'];
/** Numbers per slot of each list or record figure. */
const WIDTH = Object.fromEntries([...BINS.map((f) => [f, SECOND_FIELDS[f].bins]), ...KEYED.map((f) => [f, SECOND_FIELDS[f].keys.length])]) as Record<
  VectorField,
  number
>;

const nullable = (v: number): number | null => (Number.isNaN(v) ? null : v);
const CAUSE_KEYS = SECOND_FIELDS.waitCauses.keys;
/** Each cause's place within a slot of the waitCauses column. */
const CAUSE_AT = Object.fromEntries(CAUSE_KEYS.map((k, i) => [k, i])) as Record<WaitCause, number>;

/** Slot s of a column of w numbers per slot, into `into` (no subarray view made). */
function copySlot(from: Float64Array, s: number, w: number, into: Float64Array): void {
  const at = s * w;
  for (let k = 0; k < w; k++) into[k] = from[at + k]!;
}

/** One slot of the waitCauses column (starting at `at`) into a record, each cause by name. */
function copyCauses(from: Float64Array, at: number, into: WaitCauses): void {
  into.others = from[at + CAUSE_AT.others]!;
  into.window = from[at + CAUSE_AT.window]!;
  into.budget = from[at + CAUSE_AT.budget]!;
  into.pause = from[at + CAUSE_AT.pause]!;
  into.store = from[at + CAUSE_AT.store]!;
  into.inFlight = from[at + CAUSE_AT.inFlight]!;
}

export class SecondRing {
  private readonly cols: Record<Column, Float64Array>;
  /** The scalar figures' columns in SCALARS order, walked by index. */
  private readonly scalarCols: Float64Array[];
  /** WIDTH[field] numbers per slot (a record's in its `keys` order). */
  private readonly vectors: Record<VectorField, Float64Array>;
  private start = 0;
  private count = 0;

  constructor(readonly capacity: number) {
    this.cols = Object.fromEntries(COLUMNS.map((c) => [c, new Float64Array(capacity)])) as Record<Column, Float64Array>;
    this.scalarCols = SCALARS.map((f) => this.cols[f]);
    this.vectors = Object.fromEntries(VECTORS.map((f) => [f, new Float64Array(capacity * WIDTH[f])])) as Record<VectorField, Float64Array>;
  }

  get size(): number {
    return this.count;
  }

  /** Physical slot of the i-th oldest second. */
  private slot(i: number): number {
    return (this.start + i) % this.capacity;
  }

  t(i: number): number {
    return this.cols.t[this.slot(i)]!;
  }

  /**
   * Fills `into` with the i-th oldest second (0 <= i < size) and returns it. Runs for every second of
   * every chart on every redraw, so each figure is written by name (a store through a computed key
   * cost twice as much); tests/unit/renderer/second-ring-fields.test.ts fails when one is missing.
   */
  read(i: number, into: SecondFigures = emptySecond()): SecondFigures {
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
    into.latencyMsSum = c.latencyMsSum[s]!;
    into.latencyMsMax = c.latencyMsMax[s]!;
    into.foreignUse = c.foreignUse[s]!;
    into.heldMs = c.heldMs[s]!;
    into.unanswered = c.unanswered[s]!;
    into.lastTo = c.lastTo[s]!;
    copySlot(this.vectors.waitBins, s, WIDTH.waitBins, into.waitBins);
    copyCauses(this.vectors.waitCauses, s * CAUSE_KEYS.length, into.waitCauses);
    return into;
  }

  /** Index of the first second with t >= ms (binary search; seconds are in time order). */
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

  /** Forgets the seconds at or after `ms` (a backfill replaces them). */
  truncateFrom(ms: number): void {
    this.count = Math.min(this.count, this.lowerBound(ms));
  }

  /** Adds an aggregate to second `t`: a new one after the last, or a recent one; older is dropped. */
  add(t: number, d: SecondDelta): void {
    let i: number;
    if (this.count === 0 || this.t(this.count - 1) < t) {
      i = this.push(t);
    } else {
      i = this.lowerBound(t);
      if (i >= this.count || this.t(i) !== t) return;
    }
    const s = this.slot(i);
    const c = this.cols;
    const newer = d.to >= c.lastTo[s]!;
    for (let k = 0; k < SCALARS.length; k++) {
      const col = this.scalarCols[k]!;
      const held = NULLABLE_AT[k] ? nullable(col[s]!) : col[s]!;
      col[s] = mergeFigure(MERGE_AT[k]!, held, d[SCALARS[k]!], newer) ?? NaN;
    }
    for (const f of BINS) {
      const from = d[f];
      const v = this.vectors[f];
      const w = s * WIDTH[f];
      for (let k = 0; k < WIDTH[f] && k < from.length; k++) v[w + k]! += from[k] ?? 0;
    }
    for (const f of KEYED) {
      const from = d[f];
      if (!from) continue;
      const keys = SECOND_FIELDS[f].keys;
      const v = this.vectors[f];
      for (let k = 0; k < keys.length; k++) v[s * keys.length + k]! += from[keys[k]!] ?? 0;
    }
    if (newer) c.lastTo[s] = d.to;
  }

  private push(t: number): number {
    if (this.count === this.capacity) {
      this.start = (this.start + 1) % this.capacity;
      this.count--;
    }
    const s = this.slot(this.count);
    for (const col of COLUMNS) this.cols[col][s] = 0;
    for (let k = 0; k < SCALARS.length; k++) if (NULLABLE_AT[k]) this.scalarCols[k]![s] = NaN;
    for (const f of VECTORS) this.vectors[f].fill(0, s * WIDTH[f], (s + 1) * WIDTH[f]);
    this.cols.t[s] = t;
    this.count++;
    return this.count - 1;
  }
}

export function emptySecond(): SecondFigures {
  const figures: Record<string, unknown> = { t: 0 };
  SCALARS.forEach((f, k) => (figures[f] = NULLABLE_AT[k] ? null : 0));
  for (const f of BINS) figures[f] = new Float64Array(WIDTH[f]);
  for (const f of KEYED) figures[f] = zeroPerKey(SECOND_FIELDS[f].keys);
  figures.lastTo = 0;
  return figures as unknown as SecondFigures;
}
