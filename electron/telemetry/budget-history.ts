/**
 * What charts that open late need: per (vendor, endpoint), one aggregate per second for the last
 * hour, plus the last raw samples. Bounded: at most `seconds` aggregates per bucket, `rawSamples` samples.
 */
import type { EndpointId } from '../../shared/endpoints';
import type { BudgetSample } from '../../shared/rate-limit';
import type { SampleFindings } from '../../shared/second-fields';
import type { BudgetAggregate } from './aggregate';
import { addSample, aggregateKey, copyAggregate, emptyAggregate, SECOND_MS, secondOf } from './aggregate';
import { RingBuffer } from '../../shared/ring-buffer';

export interface BudgetHistoryOptions {
  /** Seconds of per-second aggregates kept per bucket; default 3600. */
  seconds?: number;
  /** Raw samples kept (all buckets together); default 2000. */
  rawSamples?: number;
  /** Buckets kept at most (vendors x endpoints); the least recently used goes first. Default 200. */
  maxBuckets?: number;
}

/** How many seconds back an answer may arrive late and still be counted in its own second. */
const LATE_SECONDS = 3;

export class BudgetHistory {
  private readonly seconds: number;
  private readonly maxBuckets: number;
  private readonly perBucket = new Map<string, RingBuffer<BudgetAggregate>>();
  private readonly raw: RingBuffer<BudgetSample>;

  constructor(options: BudgetHistoryOptions = {}) {
    this.seconds = options.seconds ?? 3600;
    this.maxBuckets = options.maxBuckets ?? 200;
    this.raw = new RingBuffer(options.rawSamples ?? 2000);
  }

  add(sample: BudgetSample, findings: SampleFindings): void {
    this.raw.push(sample);
    const ring = this.bucket(sample.vendor, sample.endpoint);
    const from = secondOf(sample);
    let target: BudgetAggregate | undefined;
    // Samples arrive in time order almost always; a late one goes into its own second if still kept.
    ring.forEachNewest((agg) => {
      if (agg.from === from) target = agg;
      return agg.from > from;
    });
    if (!target) {
      const last = ring.last();
      if (last && last.from > from)
        target = last; // older than anything kept: count it in the newest rather than lose it
      else {
        // Seconds skipped just before are kept (empty) so that an answer that arrives late still finds its own second.
        const gapFrom = last ? Math.max(last.to, from - LATE_SECONDS * SECOND_MS) : from;
        for (let s = gapFrom; s < from; s += SECOND_MS) ring.push(emptyAggregate(sample.vendor, sample.endpoint, s));
        target = emptyAggregate(sample.vendor, sample.endpoint, from);
        ring.push(target);
      }
    }
    addSample(target, sample, findings);
  }

  /** Per-second aggregates that end after `sinceMs` (and within the kept hour), oldest first, copies. */
  since(sinceMs: number, now: number): BudgetAggregate[] {
    const horizon = Math.max(sinceMs, now - this.seconds * 1000);
    const out: BudgetAggregate[] = [];
    for (const ring of this.perBucket.values()) {
      ring.forEachNewest((agg) => {
        if (agg.to <= horizon) return false;
        if (agg.requests > 0 || agg.foreignUse > 0) out.push(copyAggregate(agg));
        return true;
      });
    }
    return out.sort((a, b) => a.from - b.from || a.vendor.localeCompare(b.vendor) || a.endpoint.localeCompare(b.endpoint));
  }

  recentSamples(): BudgetSample[] {
    return this.raw.toArray();
  }

  clear(): void {
    this.perBucket.clear();
    this.raw.clear();
  }

  private bucket(vendor: string, endpoint: EndpointId): RingBuffer<BudgetAggregate> {
    const key = aggregateKey(vendor, endpoint);
    let ring = this.perBucket.get(key);
    if (ring) {
      // Keep insertion order as recency order for the eviction below.
      this.perBucket.delete(key);
      this.perBucket.set(key, ring);
      return ring;
    }
    ring = new RingBuffer<BudgetAggregate>(this.seconds);
    this.perBucket.set(key, ring);
    while (this.perBucket.size > this.maxBuckets) {
      const oldest = this.perBucket.keys().next().value;
      if (oldest === undefined) break;
      this.perBucket.delete(oldest);
    }
    return ring;
  }
}
