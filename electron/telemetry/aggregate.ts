/**
 * Budget samples summed per (vendor, endpoint, second): nothing dropped, only added up. The second is
 * the server's (the answer's Date), where it can be believed: that is the second the server counted
 * the request in, whenever the answer arrived here.
 */
import type { z } from 'zod';
import type { budgetAggregateSchema } from '../../shared/bridge/schemas';
import type { EndpointId } from '../../shared/endpoints';
import type { BudgetSample } from '../../shared/rate-limit';
import { BINS_FIELDS, KEYS_FIELDS, SECOND_FIELD_NAMES, SECOND_FIELDS, isErrorStatus, isNullableMerge, zeroPerKey } from '../../shared/second-fields';
import type { FieldSpec, SampleFindings, SecondFigureValues } from '../../shared/second-fields';
import { waitBinOf } from '../../shared/wait-bins';
import { addWaitCauses, emptyWaitCauses } from '../../shared/wait-causes';

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

/**
 * Adds one sample and its findings into the aggregate of its second, in place. Once per request, so
 * each figure is written by name (a loop over the table's names cost several times more); each merges
 * as its row of the table says (tests/unit/second-fields.test.ts checks both).
 */
export function addSample(agg: BudgetAggregate, sample: BudgetSample, findings: SampleFindings): void {
  agg.requests += 1;
  if (sample.status === 429) agg.rateLimited += 1;
  if (isErrorStatus(sample.status)) agg.errors += 1;
  if (sample.status === 0) agg.unanswered += 1;
  if (sample.limit !== null) agg.limit = sample.limit;
  if (sample.remaining !== null) {
    agg.remaining = sample.remaining;
    agg.minRemaining = agg.minRemaining === null ? sample.remaining : Math.min(agg.minRemaining, sample.remaining);
  }
  if (sample.reset !== null) agg.reset = sample.reset;
  agg.waitedMs += sample.waitedMs;
  agg.latencyMsSum += sample.latencyMs;
  agg.latencyMsMax = Math.max(agg.latencyMsMax, sample.latencyMs);
  agg.foreignUse += findings.foreignUse;
  const bin = waitBinOf(sample.waitedMs);
  agg.waitBins[bin] = (agg.waitBins[bin] ?? 0) + 1;
  agg.heldMs += findings.heldMs;
  if (sample.waitCauses) addWaitCauses((agg.waitCauses ??= emptyWaitCauses()), sample.waitCauses);
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
