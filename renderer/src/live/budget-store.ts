/**
 * Live budget samples, bounded: one ring buffer of one-second buckets per (vendor, endpoint), kept
 * outside react-query's cache. Aggregates from the `budget` event (and the budgetHistory backfill)
 * are summed into the bucket of the second they end in, so charts read at most 3,600 points per
 * endpoint (an hour) however fast traffic flows.
 */
import type { z } from 'zod';
import type { budgetAggregateSchema } from '../../../shared/bridge/schemas';
import type { EndpointId } from '../../../shared/endpoints';
import { RingBuffer } from '../lib/ring-buffer';

export type BudgetAggregate = z.output<typeof budgetAggregateSchema>;

export interface SecondBucket {
  /** Start of the second, epoch ms. */
  t: number;
  requests: number;
  rateLimited: number;
  errors: number;
  limit: number | null;
  /** Last Remaining reported in the second. */
  remaining: number | null;
  minRemaining: number | null;
  reset: number | null;
  waitedMs: number;
  latencyMsSum: number;
  latencyMsMax: number;
  foreignUse: number;
  /** The latest aggregate end folded in, to keep "last remaining" right. */
  lastTo: number;
}

export const BUCKET_MS = 1000;
export const BUCKETS_KEPT = 3600;

export class BudgetStore {
  private readonly series = new Map<string, Map<EndpointId, RingBuffer<SecondBucket>>>();
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

  buffer(vendor: string, endpoint: EndpointId): RingBuffer<SecondBucket> | undefined {
    return this.series.get(vendor)?.get(endpoint);
  }

  /** Buckets with fromMs <= t < toMs, oldest first. */
  range(vendor: string, endpoint: EndpointId, fromMs: number, toMs = Infinity): SecondBucket[] {
    const ring = this.buffer(vendor, endpoint);
    if (!ring) return [];
    const out: SecondBucket[] = [];
    for (let i = ring.lowerBound((b) => b.t >= fromMs); i < ring.size; i++) {
      const b = ring.at(i)!;
      if (b.t >= toMs) break;
      out.push(b);
    }
    return out;
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
    if (!ring) byEndpoint.set(a.endpoint, (ring = new RingBuffer<SecondBucket>(this.capacity)));
    const t = Math.floor(a.to / BUCKET_MS) * BUCKET_MS;
    const last = ring.last();
    let bucket: SecondBucket | undefined;
    if (!last || last.t < t) {
      bucket = emptyBucket(t);
      ring.push(bucket);
    } else if (last.t === t) {
      bucket = last;
    } else {
      // Late arrival: find its second among the recent ones; older than the buffer is dropped.
      const i = ring.lowerBound((b) => b.t >= t);
      const found = ring.at(i);
      if (found?.t === t) bucket = found;
    }
    if (bucket) merge(bucket, a);
    this.lastTo = Math.max(this.lastTo, a.to);
  }

  private changed(): void {
    this.version++;
    for (const listener of [...this.listeners]) listener();
  }
}

function emptyBucket(t: number): SecondBucket {
  return {
    t,
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
    lastTo: 0,
  };
}

function merge(b: SecondBucket, a: BudgetAggregate): void {
  b.requests += a.requests;
  b.rateLimited += a.rateLimited;
  b.errors += a.errors;
  b.waitedMs += a.waitedMs;
  b.latencyMsSum += a.latencyMsSum;
  b.latencyMsMax = Math.max(b.latencyMsMax, a.latencyMsMax);
  b.foreignUse += a.foreignUse;
  if (a.limit !== null) b.limit = a.limit;
  if (a.minRemaining !== null) b.minRemaining = b.minRemaining === null ? a.minRemaining : Math.min(b.minRemaining, a.minRemaining);
  if (a.to >= b.lastTo) {
    if (a.remaining !== null) b.remaining = a.remaining;
    if (a.reset !== null) b.reset = a.reset;
    b.lastTo = a.to;
  }
}
