/**
 * Live budget samples, bounded: one ring buffer of one-second buckets per (vendor, endpoint), kept
 * outside react-query's cache. Aggregates from the `budget` event (and the budgetHistory backfill)
 * are summed into the bucket of the second they end in, so charts read at most 3,600 points per
 * endpoint (an hour) however fast traffic flows.
 */
import type { z } from 'zod';
import type { budgetAggregateSchema } from '../../../shared/bridge/schemas';
import type { EndpointId } from '../../../shared/endpoints';
import { BucketRing, emptyBucket } from './bucket-ring';
import type { SecondBucket } from './bucket-ring';

export type { SecondBucket } from './bucket-ring';

export type BudgetAggregate = z.output<typeof budgetAggregateSchema>;

export const BUCKET_MS = 1000;
export const BUCKETS_KEPT = 3600;

export class BudgetStore {
  private readonly series = new Map<string, Map<EndpointId, BucketRing>>();
  private readonly cursor = emptyBucket();
  private readonly listeners = new Set<() => void>();
  private lastTo = 0;
  private held: BudgetAggregate[] | null = null;
  version = 0;

  constructor(private readonly capacity = BUCKETS_KEPT) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Live aggregates (the `budget` event). Held back while a backfill is under way. */
  ingest(aggregates: readonly BudgetAggregate[]): void {
    if (this.held) {
      this.held.push(...aggregates);
      return;
    }
    for (const a of aggregates) this.add(a);
    this.changed();
  }

  /** Call before asking budgetHistory; live aggregates wait until `endBackfill`. */
  beginBackfill(): void {
    this.held ??= [];
  }

  /**
   * Folds history in without counting anything twice: history older than what we already hold is
   * skipped, and live aggregates the history already covers are dropped.
   */
  endBackfill(history: readonly BudgetAggregate[] | null): void {
    const held = this.held ?? [];
    this.held = null;
    const known = this.lastTo;
    let cut = known;
    const sorted = [...(history ?? [])].sort((a, b) => a.to - b.to);
    for (const a of sorted) {
      if (a.to <= known) continue;
      this.add(a);
      cut = Math.max(cut, a.to);
    }
    for (const a of held) if (a.to > cut) this.add(a);
    this.changed();
  }

  /** Where the last aggregate ended (epoch ms); 0 when nothing arrived yet. */
  get latest(): number {
    return this.lastTo;
  }

  vendors(): string[] {
    return [...this.series.keys()];
  }

  /** The latest bucket of an endpoint, or null. */
  last(vendor: string, endpoint: EndpointId): SecondBucket | null {
    const ring = this.series.get(vendor)?.get(endpoint);
    return ring && ring.size > 0 ? ring.read(ring.size - 1) : null;
  }

  /** Whether any bucket is older than `ms`. */
  hasBefore(vendor: string, endpoint: EndpointId, ms: number): boolean {
    const ring = this.series.get(vendor)?.get(endpoint);
    return !!ring && ring.size > 0 && ring.t(0) < ms;
  }

  /**
   * Calls `visit` for each bucket with fromMs <= t < toMs, oldest first. The bucket object is reused
   * between calls (no allocation per second of data): read it, do not keep it.
   */
  forEach(vendor: string, endpoint: EndpointId, fromMs: number, toMs: number, visit: (b: Readonly<SecondBucket>) => void): void {
    const ring = this.series.get(vendor)?.get(endpoint);
    if (!ring) return;
    for (let i = ring.lowerBound(fromMs); i < ring.size; i++) {
      if (ring.t(i) >= toMs) break;
      visit(ring.read(i, this.cursor));
    }
  }

  clear(): void {
    this.series.clear();
    this.lastTo = 0;
    this.changed();
  }

  private add(a: BudgetAggregate): void {
    let byEndpoint = this.series.get(a.vendor);
    if (!byEndpoint) this.series.set(a.vendor, (byEndpoint = new Map()));
    let ring = byEndpoint.get(a.endpoint);
    if (!ring) byEndpoint.set(a.endpoint, (ring = new BucketRing(this.capacity)));
    ring.add(Math.floor(a.to / BUCKET_MS) * BUCKET_MS, a);
    this.lastTo = Math.max(this.lastTo, a.to);
  }

  private changed(): void {
    this.version++;
    for (const listener of [...this.listeners]) listener();
  }
}
