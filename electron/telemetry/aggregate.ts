/**
 * Budget samples summed per (vendor, endpoint, second): nothing dropped, only added up. The second is
 * the server's (the answer's Date), where it can be believed: that is the second the server counted
 * the request in, whenever the answer arrived here.
 */
import type { z } from 'zod';
import type { budgetAggregateSchema } from '../../shared/bridge/schemas';
import type { EndpointId } from '../../shared/endpoints';
import type { BudgetSample } from '../../shared/rate-limit';
import {
  BINS_FIELDS,
  KEYS_FIELDS,
  SCALAR_FIELDS,
  SECOND_FIELD_NAMES,
  SECOND_FIELDS,
  isNullableMerge,
  mergeFigure,
  zeroPerKey,
} from '../../shared/second-fields';
import type { FieldSpec, OfSample, SampleFindings, ScalarField, SecondFigureValues } from '../../shared/second-fields';

export type BudgetAggregate = z.output<typeof budgetAggregateSchema>;

export const SECOND_MS = 1000;
/** A Date further than this from our clock is not believed for binning (a skewed server clock): arrival time is used. */
export const MAX_DATE_SKEW_MS = 2000;

/** The second (epoch ms) a sample counts in: the server's where its Date can be believed, else the arrival's. */
export function secondOf(sample: BudgetSample): number {
  const server = sample.serverSecond;
  if (typeof server === 'number' && Number.isFinite(server) && Math.abs(server - sample.at) <= MAX_DATE_SKEW_MS) {
    return Math.floor(server / SECOND_MS) * SECOND_MS;
  }
  return Math.floor(sample.at / SECOND_MS) * SECOND_MS;
}

/** An empty aggregate of one second. */
export function emptyAggregate(vendor: string, endpoint: EndpointId, second: number): BudgetAggregate {
  const figures: Record<string, unknown> = {};
  for (const f of SECOND_FIELD_NAMES) {
    const spec: FieldSpec = SECOND_FIELDS[f];
    if ('bins' in spec) figures[f] = new Array<number>(spec.bins).fill(0);
    else if ('keys' in spec) figures[f] = zeroPerKey(spec.keys);
    else figures[f] = isNullableMerge(spec.merge) ? null : 0;
  }
  return { vendor, endpoint, from: second, to: second + SECOND_MS, ...(figures as SecondFigureValues) };
}

/** Adds one sample and its findings into the aggregate of its second, in place: each figure as its row of the table says. */
export function addSample(agg: BudgetAggregate, sample: BudgetSample, findings: SampleFindings): void {
  const scalars = agg as Record<ScalarField, number | null>;
  for (const f of SCALAR_FIELDS) {
    const spec: FieldSpec = SECOND_FIELDS[f];
    const of = spec.ofSample as OfSample<number | null>;
    scalars[f] = mergeFigure(spec.merge, scalars[f], of(sample, findings), true);
  }
  for (const f of BINS_FIELDS) {
    const from = SECOND_FIELDS[f].ofSample(sample);
    const bins = agg[f];
    for (let k = 0; k < from.length; k++) bins[k] = (bins[k] ?? 0) + from[k]!;
  }
  for (const f of KEYS_FIELDS) {
    const { keys, ofSample } = SECOND_FIELDS[f];
    const from = ofSample(sample);
    if (!from) continue;
    const into = (agg[f] ??= zeroPerKey(keys));
    for (const k of keys) into[k] += from[k];
  }
}

/** A copy that shares no list or record with the original. */
export function copyAggregate(agg: BudgetAggregate): BudgetAggregate {
  const out = { ...agg };
  for (const f of BINS_FIELDS) out[f] = [...agg[f]];
  for (const f of KEYS_FIELDS) {
    const keyed = agg[f];
    if (keyed) out[f] = { ...keyed };
  }
  return out;
}

export function aggregateKey(vendor: string, endpoint: EndpointId): string {
  return `${vendor}\u0000${endpoint}`;
}

export function vendorOfKey(key: string): string {
  return key.slice(0, key.indexOf('\u0000'));
}
