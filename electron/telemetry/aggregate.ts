/**
 * Budget samples summed per (vendor, endpoint, second): nothing dropped, only added up. The second is
 * the server's (the answer's Date), where it can be believed: that is the second the server counted
 * the request in, whenever the answer arrived here.
 */
import type { z } from 'zod';
import type { budgetAggregateSchema } from '../../shared/bridge/schemas';
import type { EndpointId } from '../../shared/endpoints';
import type { BudgetSample } from '../../shared/rate-limit';
import { emptyWaitBins, waitBinOf } from '../../shared/wait-bins';
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
  return {
    vendor,
    endpoint,
    from: second,
    to: second + SECOND_MS,
    requests: 0,
    rateLimited: 0,
    errors: 0,
    limit: null,
    remaining: null,
    minRemaining: null,
    reset: null,
    waitedMs: 0,
    latencyMsSum: 0,
    latencyMsMax: 0,
    foreignUse: 0,
    waitBins: emptyWaitBins(),
    heldMs: 0,
    unanswered: 0,
    waitCauses: emptyWaitCauses(),
  };
}

/** A failure other than a 429: no answer at all (status 0) or a 4xx/5xx. */
export function isErrorStatus(status: number): boolean {
  return status === 0 || (status >= 400 && status !== 429);
}

/** What the telemetry found about a sample besides its own figures. */
export interface SampleFindings {
  /** Slots another consumer took (the foreign-use detector). */
  foreignUse: number;
  /** Time this sample's wait added to the time the bucket was held back (not already covered by another wait). */
  heldMs: number;
}

/** Adds one sample and its findings into the aggregate of its second, in place. */
export function addSample(agg: BudgetAggregate, sample: BudgetSample, findings: SampleFindings): void {
  agg.requests += 1;
  if (sample.status === 429) agg.rateLimited += 1;
  if (sample.status === 0) agg.unanswered += 1;
  else if (isErrorStatus(sample.status)) agg.errors += 1;
  if (sample.limit !== null) agg.limit = sample.limit;
  if (sample.remaining !== null) {
    agg.remaining = sample.remaining;
    agg.minRemaining = agg.minRemaining === null ? sample.remaining : Math.min(agg.minRemaining, sample.remaining);
  }
  if (sample.reset !== null) agg.reset = sample.reset;
  agg.waitedMs += sample.waitedMs;
  const bin = waitBinOf(sample.waitedMs);
  agg.waitBins[bin] = (agg.waitBins[bin] ?? 0) + 1;
  agg.heldMs += findings.heldMs;
  if (sample.waitCauses) addWaitCauses((agg.waitCauses ??= emptyWaitCauses()), sample.waitCauses);
  agg.latencyMsSum += sample.latencyMs;
  agg.latencyMsMax = Math.max(agg.latencyMsMax, sample.latencyMs);
  agg.foreignUse += findings.foreignUse;
}

export function aggregateKey(vendor: string, endpoint: EndpointId): string {
  return `${vendor}\u0000${endpoint}`;
}

export function vendorOfKey(key: string): string {
  return key.slice(0, key.indexOf('\u0000'));
}
