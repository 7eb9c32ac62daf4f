import { describe, expect, expectTypeOf, it } from 'vitest';
import { budgetAggregateSchema } from '../../../shared/bridge/schemas';
import { SECOND_FIELDS, SECOND_FIELD_NAMES, isNullableMerge } from '../../../shared/second-fields';
import { SecondRing, emptySecond } from '../../../renderer/src/live/second-ring';
import type { SecondFigures } from '../../../renderer/src/live/second-ring';
import type { WaitCauses } from '../../../shared/wait-causes';

const RING_OWN = ['t', 'lastTo'];

/** An aggregate with a distinct non-zero value in every figure, made from the table alone. */
function fullAggregate(from: number): unknown {
  const agg: Record<string, unknown> = { vendor: 'acme', endpoint: 'listAssets', from, to: from + 1000 };
  SECOND_FIELD_NAMES.forEach((f, i) => {
    const spec = SECOND_FIELDS[f];
    if ('bins' in spec) agg[f] = Array.from({ length: spec.bins }, (_, k) => i + k + 1);
    else if ('keys' in spec) agg[f] = Object.fromEntries(spec.keys.map((key, k) => [key, i + k + 1]));
    else agg[f] = i + 1;
  });
  return agg;
}

/** Lists and typed arrays compared as plain lists. */
const plain = (v: unknown): unknown => (Array.isArray(v) || v instanceof Float64Array ? Array.from(v) : v);

describe('the per-second ring and the figure table', () => {
  it('the ring holds exactly the figures of the table (and its own t, lastTo)', () => {
    expect(Object.keys(emptySecond()).sort()).toEqual([...RING_OWN, ...SECOND_FIELD_NAMES].sort());
    const ring = new SecondRing(2);
    ring.add(5_000, budgetAggregateSchema.parse(fullAggregate(5_000)));
    expect(Object.keys(ring.read(0)).sort()).toEqual([...RING_OWN, ...SECOND_FIELD_NAMES].sort());
  });

  it('every figure of an aggregate from the bridge reaches the ring unchanged', () => {
    const wire = budgetAggregateSchema.parse(fullAggregate(5_000));
    const ring = new SecondRing(4);
    ring.add(wire.from, wire);
    const read = ring.read(0);
    for (const f of SECOND_FIELD_NAMES) expect({ f, value: plain(read[f]) }).toEqual({ f, value: plain(wire[f]) });
  });

  it('every figure the table lets be null reads back null when none is known, into a reused cursor too', () => {
    const full = budgetAggregateSchema.parse(fullAggregate(5_000));
    const unknown = { ...(fullAggregate(6_000) as Record<string, unknown>) };
    const nullable = SECOND_FIELD_NAMES.filter((f) => isNullableMerge(SECOND_FIELDS[f].merge));
    expect(nullable.length).toBeGreaterThan(0);
    for (const f of nullable) unknown[f] = null;
    const ring = new SecondRing(4);
    ring.add(5_000, full);
    ring.add(6_000, budgetAggregateSchema.parse(unknown));
    const cursor = ring.read(0, emptySecond());
    ring.read(1, cursor);
    for (const f of nullable) expect({ f, value: cursor[f] }).toEqual({ f, value: null });
    ring.read(0, cursor);
    for (const f of SECOND_FIELD_NAMES) expect({ f, value: plain(cursor[f]) }).toEqual({ f, value: plain(full[f]) });
  });

  it("the ring's figure type made from the table stays precise (checked by tsc)", () => {
    expectTypeOf<SecondFigures['requests']>().toEqualTypeOf<number>();
    expectTypeOf<SecondFigures['minRemaining']>().toEqualTypeOf<number | null>();
    expectTypeOf<SecondFigures['waitBins']>().toEqualTypeOf<Float64Array>();
    expectTypeOf<SecondFigures['waitCauses']>().toEqualTypeOf<WaitCauses>();
  });
});
