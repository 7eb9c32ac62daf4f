/**
 * The figures of one second of one budget (vendor, endpoint), one row per figure: how it crosses the
 * bridge (its zod schema) and how two parts of the same second combine. The bridge schema
 * (shared/bridge/schemas.ts), the aggregate's and the renderer's types, the empty aggregate and the
 * renderer ring's columns (renderer/src/live/second-ring.ts) are made from this table. The two hot
 * paths, adding a sample (electron/telemetry/aggregate.ts, once per request) and reading a second out
 * of the ring (every second of every chart, every redraw), write each figure by name instead, as a
 * loop over the table's names costs several times more there; tests/unit/second-fields.test.ts and
 * tests/unit/renderer/second-ring-fields.test.ts fail when a figure is missing from either, or merged
 * otherwise than its row says.
 *
 * How two parts of one second combine (`merge`):
 *   sum     added up
 *   max     the larger
 *   min     the lower of those known (null: none known)
 *   last    the last known one to arrive
 *   latest  the known one of the part that ends latest: a part that arrives late does not overwrite it
 * A figure with `bins` is a list of that length, summed element by element; with `keys`, a record
 * summed key by key.
 */
import { z } from 'zod';
import { WAIT_BIN_COUNT } from './wait-bins';
import { WAIT_CAUSES, waitCausesSchema } from './wait-causes';

/** What the telemetry found about a sample besides its own figures. */
export interface SampleFindings {
  /** Slots another consumer took (the foreign-use detector). */
  foreignUse: number;
  /** Time this sample's wait added to the time the bucket was held back (not already covered by another wait). */
  heldMs: number;
}

export type NullableMerge = 'min' | 'last' | 'latest';
export type Merge = 'sum' | 'max' | NullableMerge;

export type FieldSpec =
  | { merge: 'sum' | 'max'; schema: z.ZodType<number> }
  | { merge: NullableMerge; schema: z.ZodType<number | null> }
  | { merge: 'sum'; bins: number; schema: z.ZodType<number[]> }
  | { merge: 'sum'; keys: readonly string[]; schema: z.ZodType<Record<string, number> | undefined> };

/** A failure other than a 429: no answer at all (status 0) or a 4xx/5xx. */
export function isErrorStatus(status: number): boolean {
  return status === 0 || (status >= 400 && status !== 429);
}

export const SECOND_FIELDS = {
  /** Responses (and failures) in the second. */
  requests: { merge: 'sum', schema: z.number() },
  /** Answers 429. */
  rateLimited: { merge: 'sum', schema: z.number() },
  /** Answered 4xx other than 429, 5xx, and no answer (status 0, also in unanswered). */
  errors: { merge: 'sum', schema: z.number() },
  limit: { merge: 'last', schema: z.number().nullable() },
  /** Last and lowest Remaining seen in the second. */
  remaining: { merge: 'latest', schema: z.number().nullable() },
  minRemaining: { merge: 'min', schema: z.number().nullable() },
  reset: { merge: 'latest', schema: z.number().nullable() },
  waitedMs: { merge: 'sum', schema: z.number() },
  latencyMsSum: { merge: 'sum', schema: z.number() },
  latencyMsMax: { merge: 'max', schema: z.number() },
  /** Slots that Remaining fell by beyond what our own requests explain: another consumer. */
  foreignUse: { merge: 'sum', schema: z.number() },
  /** Requests per wait class (shared/wait-bins.ts): mean and p95 wait over any window. */
  waitBins: { merge: 'sum', bins: WAIT_BIN_COUNT, schema: z.array(z.number()).max(WAIT_BIN_COUNT).default([]) },
  /** Time within which at least one request was held back by the budget (overlapping waits counted once). */
  heldMs: { merge: 'sum', schema: z.number().default(0) },
  /** Attempts that got no answer (status 0; also in requests and errors): the server may not have counted them. */
  unanswered: { merge: 'sum', schema: z.number().default(0) },
  /** The waits (waitedMs) split by what held them (shared/wait-causes.ts), adding up to waitedMs; absent: not said. */
  waitCauses: { merge: 'sum', keys: WAIT_CAUSES, schema: waitCausesSchema.optional() },
} as const satisfies Record<string, FieldSpec>;

type Fields = typeof SECOND_FIELDS;
export type SecondField = keyof Fields;
/** Figures summed element by element over a list of fixed length. */
export type BinsField = { [K in SecondField]: Fields[K] extends { bins: number } ? K : never }[SecondField];
/** Figures summed key by key over a record. */
export type KeysField = { [K in SecondField]: Fields[K] extends { keys: readonly string[] } ? K : never }[SecondField];
/** Figures that are one number (or null). */
export type ScalarField = Exclude<SecondField, BinsField | KeysField>;

export const SECOND_FIELD_NAMES = Object.keys(SECOND_FIELDS) as SecondField[];
export const SCALAR_FIELDS = SECOND_FIELD_NAMES.filter((f): f is ScalarField => !('bins' in SECOND_FIELDS[f]) && !('keys' in SECOND_FIELDS[f]));
export const BINS_FIELDS = SECOND_FIELD_NAMES.filter((f): f is BinsField => 'bins' in SECOND_FIELDS[f]);
export const KEYS_FIELDS = SECOND_FIELD_NAMES.filter((f): f is KeysField => 'keys' in SECOND_FIELDS[f]);

/** The zod shape of the figures, spread into the bridge schema of the per-second aggregate. */
export const secondFieldsShape = Object.fromEntries(SECOND_FIELD_NAMES.map((f) => [f, SECOND_FIELDS[f].schema])) as {
  [K in keyof Fields]: Fields[K]['schema'];
};
/** The figures of one second as they cross the bridge. */
export type SecondFigureValues = z.output<z.ZodObject<typeof secondFieldsShape>>;

export function isNullableMerge(merge: Merge): merge is NullableMerge {
  return merge === 'min' || merge === 'last' || merge === 'latest';
}

/**
 * One figure of a second after another part of it: `newer` says whether that part ends at or after
 * the parts already in (only `latest` asks).
 */
export function mergeFigure(merge: Merge, into: number | null, from: number | null, newer: boolean): number | null {
  if (from === null) return into;
  switch (merge) {
    case 'sum':
      return (into ?? 0) + from;
    case 'max':
      return into === null ? from : Math.max(into, from);
    case 'min':
      return into === null ? from : Math.min(into, from);
    case 'last':
      return from;
    case 'latest':
      return newer ? from : into;
  }
}

/** Zero per key. */
export function zeroPerKey<K extends string>(keys: readonly K[]): Record<K, number> {
  return Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
}
