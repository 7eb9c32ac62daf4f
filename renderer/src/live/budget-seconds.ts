/**
 * Live budget figures second by second, bounded: one ring of seconds per (vendor, endpoint), kept
 * outside react-query's cache. Aggregates from the `budget` event (and the budgetHistory backfill)
 * are each one second of the server's (from = its start) and are summed into that second,
 * so charts read at most 3,600 points per endpoint (an hour) however fast traffic flows.
 *
 * Joining history and live events: events are numbered; the history answer says the last event it
 * includes. The history replaces what the store held from the second it starts at, and only later
 * events are applied, so a page that opens (or reconnects) in the middle of traffic neither loses
 * nor counts twice the second at which it joined.
 */
import type { z } from 'zod';
import type { budgetAggregateSchema } from '../../../shared/bridge/schemas';
import type { EndpointId } from '../../../shared/endpoints';
import { SecondRing, emptySecond } from './second-ring';
import type { SecondFigures } from './second-ring';

export type { SecondFigures } from './second-ring';

export type BudgetAggregate = z.output<typeof budgetAggregateSchema>;

/** What budgetHistory answered, and what it was asked. */
export interface BudgetBackfill {
  aggregates: readonly BudgetAggregate[];
  /** The last budget event the aggregates include. */
  seq: number;
  /** The sinceMs of the call: the history is complete from the start of that second. */
  sinceMs: number;
}

interface HeldEvent {
  seq: number;
  aggregates: readonly BudgetAggregate[];
}

export const SECOND_MS = 1000;
export const SECONDS_KEPT = 3600;

export class BudgetSeconds {
  private readonly series = new Map<string, Map<EndpointId, SecondRing>>();
  private readonly cursor = emptySecond();
  private readonly listeners = new Set<() => void>();
  private newest = 0;
  private held: HeldEvent[] | null = null;
  /** Events up to this one are in the store through the history. */
  private joinedSeq = 0;
  version = 0;

  constructor(private readonly capacity = SECONDS_KEPT) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Live aggregates (the `budget` event, numbered `seq`). Held back while a backfill is under way. */
  ingest(aggregates: readonly BudgetAggregate[], seq = 0): void {
    if (this.held) {
      this.held.push({ seq, aggregates });
      return;
    }
    if (seq > 0 && seq <= this.joinedSeq) return; // already in the history
    for (const a of aggregates) this.add(a);
    this.changed();
  }

  /** Call before asking budgetHistory; live aggregates wait until `endBackfill`. */
  beginBackfill(): void {
    this.held ??= [];
  }

  /**
   * Folds history in without counting anything twice: from the second the history starts at, it
   * replaces what the store held; held events it already includes are dropped. null: the call failed,
   * the held events are applied as they are.
   */
  endBackfill(history: BudgetBackfill | null): void {
    const held = this.held ?? [];
    this.held = null;
    if (history) {
      const from = secondOf(history.sinceMs);
      for (const byEndpoint of this.series.values()) for (const ring of byEndpoint.values()) ring.truncateFrom(from);
      const sorted = [...history.aggregates].sort((a, b) => a.from - b.from);
      for (const a of sorted) if (a.from >= from) this.add(a);
      this.joinedSeq = history.seq; // not max: a restarted main numbers its events from 1 again
    }
    for (const e of held) if (e.seq === 0 || e.seq > this.joinedSeq) for (const a of e.aggregates) this.add(a);
    this.changed();
  }

  /** Start of the newest second held (epoch ms): where a backfill after a reconnect begins; 0 when empty. */
  get latest(): number {
    return this.newest;
  }

  vendors(): string[] {
    return [...this.series.keys()];
  }

  /** The latest second of an endpoint, or null. */
  last(vendor: string, endpoint: EndpointId): SecondFigures | null {
    const ring = this.series.get(vendor)?.get(endpoint);
    return ring && ring.size > 0 ? ring.read(ring.size - 1) : null;
  }

  /** The oldest second held for any endpoint of a vendor, or null. */
  firstSecond(vendor: string): number | null {
    let first: number | null = null;
    for (const ring of this.series.get(vendor)?.values() ?? []) if (ring.size > 0) first = first === null ? ring.t(0) : Math.min(first, ring.t(0));
    return first;
  }

  /** Slots another consumer took per endpoint of a vendor since `ms` (endpoints with none left out). */
  foreignUseSince(vendor: string, ms: number): { endpoint: EndpointId; slots: number }[] {
    const out: { endpoint: EndpointId; slots: number }[] = [];
    for (const [endpoint, ring] of this.series.get(vendor) ?? []) {
      let slots = 0;
      for (let i = ring.lowerBound(ms); i < ring.size; i++) slots += ring.read(i, this.cursor).foreignUse;
      if (slots > 0) out.push({ endpoint, slots });
    }
    return out;
  }

  /** Whether any second held is older than `ms`. */
  hasBefore(vendor: string, endpoint: EndpointId, ms: number): boolean {
    const ring = this.series.get(vendor)?.get(endpoint);
    return !!ring && ring.size > 0 && ring.t(0) < ms;
  }

  /**
   * Calls `visit` for each second with fromMs <= t < toMs, oldest first. The figures object is reused
   * between calls (no allocation per second of data): read it, do not keep it.
   */
  forEach(vendor: string, endpoint: EndpointId, fromMs: number, toMs: number, visit: (b: Readonly<SecondFigures>) => void): void {
    const ring = this.series.get(vendor)?.get(endpoint);
    if (!ring) return;
    for (let i = ring.lowerBound(fromMs); i < ring.size; i++) {
      if (ring.t(i) >= toMs) break;
      visit(ring.read(i, this.cursor));
    }
  }

  clear(): void {
    this.series.clear();
    this.newest = 0;
    this.changed();
  }

  private add(a: BudgetAggregate): void {
    let byEndpoint = this.series.get(a.vendor);
    if (!byEndpoint) this.series.set(a.vendor, (byEndpoint = new Map()));
    let ring = byEndpoint.get(a.endpoint);
    if (!ring) byEndpoint.set(a.endpoint, (ring = new SecondRing(this.capacity)));
    const second = secondOf(a.from);
    ring.add(second, a);
    this.newest = Math.max(this.newest, second);
  }

  private changed(): void {
    this.version++;
    for (const listener of [...this.listeners]) listener();
  }
}

function secondOf(ms: number): number {
  return Math.floor(ms / SECOND_MS) * SECOND_MS;
}
