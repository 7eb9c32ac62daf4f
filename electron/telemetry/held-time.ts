/**
 * The time a bucket was held back by the budget: the union of its requests' waits (each from the
 * moment it was queued to the moment it was sent), so that ten requests waiting through the same
 * 100 ms count 100 ms, not a second. Answers come back nearly in the order they were sent; a wait
 * that ends before one already counted adds only what it covers beyond it.
 */
import type { BudgetSample } from '../../shared/rate-limit';
import { aggregateKey, vendorOfKey } from './aggregate';

export class HeldTime {
  /** Per (vendor, endpoint): the end of the latest wait counted. */
  private readonly coveredUntil = new Map<string, number>();

  /** The held time this sample's wait adds (ms). */
  observe(sample: BudgetSample): number {
    if (!(sample.waitedMs > 0)) return 0;
    const key = aggregateKey(sample.vendor, sample.endpoint);
    const sent = sample.at - Math.max(0, sample.latencyMs);
    const queued = sent - sample.waitedMs;
    const covered = this.coveredUntil.get(key) ?? Number.NEGATIVE_INFINITY;
    this.coveredUntil.set(key, Math.max(covered, sent));
    return Math.max(0, sent - Math.max(queued, covered));
  }

  /** Forgets one vendor's waits (every vendor's when absent). */
  clear(vendor?: string): void {
    for (const key of this.coveredUntil.keys()) if (vendor === undefined || vendorOfKey(key) === vendor) this.coveredUntil.delete(key);
  }
}
