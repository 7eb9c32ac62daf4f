import { describe, expect, expectTypeOf, it } from 'vitest';
import { budgetAggregateSchema } from '../../shared/bridge/schemas';
import type { BudgetSample } from '../../shared/rate-limit';
import { BINS_FIELDS, KEYS_FIELDS, SCALAR_FIELDS, SECOND_FIELDS, SECOND_FIELD_NAMES, isNullableMerge, mergeFigure } from '../../shared/second-fields';
import { addSample, emptyAggregate } from '../../electron/telemetry/aggregate';
import type { BudgetAggregate } from '../../electron/telemetry/aggregate';
import type { WaitCauses } from '../../shared/wait-causes';

const IDENTITY = ['vendor', 'endpoint', 'from', 'to'];

function sample(over: Partial<BudgetSample>): BudgetSample {
  return {
    vendor: 'acme',
    endpoint: 'listAssets',
    at: 5_400,
    serverSecond: 5_000,
    status: 200,
    limit: 20,
    remaining: 7,
    reset: 1,
    latencyMs: 12,
    waitedMs: 30,
    attempt: 1,
    headerProblems: [],
    waitCauses: { others: 10, window: 0, budget: 5, pause: 0, store: 0, inFlight: 15 },
    ...over,
  };
}

/** A figure with something in it: not 0, not null, not all zeros. */
function isSet(v: unknown): boolean {
  if (v === null || v === undefined) return false;
  if (typeof v === 'number') return v !== 0;
  if (ArrayLike(v)) return Array.from(v).some((x) => x !== 0);
  return Object.values(v as Record<string, number>).some((x) => x !== 0);
}

function ArrayLike(v: unknown): v is ArrayLike<number> {
  return Array.isArray(v) || v instanceof Float64Array;
}

describe('the per-second figure table', () => {
  it('is the one list of figures: the bridge schema and the aggregation hold exactly its fields (the ring: renderer/second-ring-fields.test.ts)', () => {
    expect(Object.keys(budgetAggregateSchema.shape)).toEqual([...IDENTITY, ...SECOND_FIELD_NAMES]);
    expect(Object.keys(emptyAggregate('acme', 'listAssets', 5_000))).toEqual([...IDENTITY, ...SECOND_FIELD_NAMES]);
  });

  it('a schema takes null exactly for the figures whose merge keeps null for "none known"', () => {
    for (const f of SECOND_FIELD_NAMES) {
      expect({ f, nullable: SECOND_FIELDS[f].schema.safeParse(null).success }).toEqual({ f, nullable: isNullableMerge(SECOND_FIELDS[f].merge) });
    }
  });

  it('every figure is aggregated from samples and crosses the bridge schema unchanged', () => {
    const agg = emptyAggregate('acme', 'listAssets', 5_000);
    addSample(agg, sample({}), { foreignUse: 2, heldMs: 25 });
    addSample(agg, sample({ status: 429, remaining: 2, latencyMs: 40 }), { foreignUse: 0, heldMs: 5 });
    addSample(agg, sample({ status: 0, limit: null, remaining: null, reset: null, latencyMs: 3000, waitedMs: 0, waitCauses: undefined }), {
      foreignUse: 0,
      heldMs: 0,
    });
    addSample(agg, sample({ status: 503, remaining: 4, waitedMs: 700 }), { foreignUse: 1, heldMs: 0 });
    // Each figure got something, so a figure the aggregation skips shows here.
    for (const f of SECOND_FIELD_NAMES) expect({ f, set: isSet(agg[f]) }).toEqual({ f, set: true });

    expect(budgetAggregateSchema.parse(JSON.parse(JSON.stringify(agg)))).toEqual(agg);
    // No answer is an error too (the Budget table's Errors column, the CSV's errors = errors - no_answer).
    expect(agg).toMatchObject({ requests: 4, rateLimited: 1, errors: 2, unanswered: 1, limit: 20, remaining: 4, minRemaining: 2, latencyMsMax: 3000 });
  });

  it("adding samples one after another merges each figure as its row's merge says (what one sample adds: the aggregate of it alone)", () => {
    const findings = [
      { foreignUse: 2, heldMs: 25 },
      { foreignUse: 0, heldMs: 0 },
      { foreignUse: 1, heldMs: 7 },
    ];
    const samples = [
      sample({}),
      sample({ status: 429, limit: 25, remaining: 2, reset: 3, latencyMs: 40, waitedMs: 700 }),
      sample({ status: 0, limit: null, remaining: null, reset: null, latencyMs: 3000, waitedMs: 0, waitCauses: undefined }),
      sample({ status: 503, remaining: 11, reset: 0.5, latencyMs: 1, waitedMs: 6 }),
    ];
    const alone = (i: number): BudgetAggregate => {
      const agg = emptyAggregate('acme', 'listAssets', 5_000);
      addSample(agg, samples[i]!, findings[i % findings.length]!);
      return agg;
    };
    for (let a = 0; a < samples.length; a++) {
      for (let b = 0; b < samples.length; b++) {
        if (a === b) continue;
        const both = alone(a);
        addSample(both, samples[b]!, findings[b % findings.length]!);
        const [x, y] = [alone(a), alone(b)];
        for (const f of SCALAR_FIELDS) {
          expect({ a, b, f, value: both[f] }).toEqual({ a, b, f, value: mergeFigure(SECOND_FIELDS[f].merge, x[f], y[f], true) });
        }
        for (const f of BINS_FIELDS) expect({ a, b, f, value: both[f] }).toEqual({ a, b, f, value: x[f].map((v, k) => v + y[f][k]!) });
        for (const f of KEYS_FIELDS) {
          const keys = SECOND_FIELDS[f].keys;
          const sum = Object.fromEntries(keys.map((k) => [k, (x[f]?.[k] ?? 0) + (y[f]?.[k] ?? 0)]));
          expect({ a, b, f, value: both[f] }).toEqual({ a, b, f, value: sum });
        }
      }
    }
  });

  it('the aggregate type made from the table stays precise (checked by tsc)', () => {
    expectTypeOf<BudgetAggregate['requests']>().toEqualTypeOf<number>();
    expectTypeOf<BudgetAggregate['limit']>().toEqualTypeOf<number | null>();
    expectTypeOf<BudgetAggregate['waitBins']>().toEqualTypeOf<number[]>();
    expectTypeOf<BudgetAggregate['waitCauses']>().toEqualTypeOf<WaitCauses | undefined>();
    expectTypeOf<BudgetAggregate>().not.toHaveProperty('retries');
  });
});
