/** Budget samples summed per (vendor, endpoint) over an interval: nothing dropped, only added up. */
import type { z } from 'zod';
import type { budgetAggregateSchema } from '../../shared/bridge/schemas';
import type { EndpointId } from '../../shared/endpoints';
import type { BudgetSample } from '../../shared/rate-limit';

export type BudgetAggregate = z.output<typeof budgetAggregateSchema>;

export function emptyAggregate(vendor: string, endpoint: EndpointId, from: number, to: number): BudgetAggregate {
  return {
    vendor,
    endpoint,
    from,
    to,
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
  };
}

/** A failure other than a 429: no answer at all (status 0) or a 4xx/5xx. */
export function isErrorStatus(status: number): boolean {
  return status === 0 || (status >= 400 && status !== 429);
}

/** Adds one sample (and the foreign use the detector attributed to it) into an aggregate, in place; from/to are the owner's. */
export function addSample(agg: BudgetAggregate, sample: BudgetSample, foreignUse: number): void {
  agg.requests += 1;
  if (sample.status === 429) agg.rateLimited += 1;
  else if (isErrorStatus(sample.status)) agg.errors += 1;
  if (sample.limit !== null) agg.limit = sample.limit;
  if (sample.remaining !== null) {
    agg.remaining = sample.remaining;
    agg.minRemaining = agg.minRemaining === null ? sample.remaining : Math.min(agg.minRemaining, sample.remaining);
  }
  if (sample.reset !== null) agg.reset = sample.reset;
  agg.waitedMs += sample.waitedMs;
  agg.latencyMsSum += sample.latencyMs;
  agg.latencyMsMax = Math.max(agg.latencyMsMax, sample.latencyMs);
  agg.foreignUse += foreignUse;
}

export function aggregateKey(vendor: string, endpoint: EndpointId): string {
  return `${vendor}\u0000${endpoint}`;
}
