/**
 * Demo-like usage as ready aggregates, for the history benchmark (14 days written in seconds) and the
 * end-to-end seed (yesterday's traffic with a spike): what `seconds` of traffic at `share` of an
 * endpoint's limit add up to, as the store would have aggregated the samples.
 */
import type { EndpointSpec } from '../../shared/endpoints';
import type { UsageAggregate } from '../store';
import { emptyAggregate } from '../store/usage-aggregate';

export interface SyntheticTraffic {
  /** Share of the limit used (0..1). */
  share: number;
  /** 429s among the requests. */
  throttled?: number;
  /** Requests of other consumers inferred. */
  foreign?: number;
}

/** Latency spread of the demo (ms bins 20..200): a realistic histogram, so rows have their real size. */
const LATENCY_SPREAD = [0, 0, 0.05, 0.2, 0.3, 0.2, 0.12, 0.08, 0.05] as const;

export function syntheticAggregate(spec: EndpointSpec, seconds: number, traffic: SyntheticTraffic): UsageAggregate {
  const agg = emptyAggregate();
  const requests = Math.round(spec.limit * traffic.share * seconds);
  if (requests === 0) return agg;
  const peak = Math.min(1, traffic.share + 0.1);
  agg.requests = requests;
  agg.throttled = Math.min(requests, traffic.throttled ?? 0);
  agg.lowestRemaining = Math.max(0, Math.round(spec.limit * (1 - peak)));
  // Spread evenly over every second: each served `share` of the limit (429s took none).
  agg.activeSeconds = seconds;
  agg.useSeconds = (requests - agg.throttled) / spec.limit;
  agg.usePeak = peak;
  agg.waitedMs = requests * 3 * traffic.share;
  agg.foreignRequests = traffic.foreign ?? 0;
  let left = requests;
  LATENCY_SPREAD.forEach((w, i) => {
    const n = i === LATENCY_SPREAD.length - 1 ? left : Math.min(left, Math.round(requests * w));
    agg.latency[i] = n;
    left -= n;
  });
  return agg;
}
