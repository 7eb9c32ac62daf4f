import { describe, expect, it, vi } from 'vitest';
import { BudgetSeconds } from '../../../renderer/src/live/budget-seconds';
import type { BudgetAggregate, SecondFigures } from '../../../renderer/src/live/budget-seconds';
import type { EndpointId } from '../../../shared/endpoints';

/** One second's aggregate (the server's second `second`), as main sends them. */
function agg(second: number, over: Partial<BudgetAggregate> = {}): BudgetAggregate {
  return {
    vendor: 'acme',
    endpoint: 'listAssets',
    from: second,
    to: second + 1000,
    requests: 1,
    rateLimited: 0,
    errors: 0,
    limit: 20,
    remaining: 10,
    minRemaining: 10,
    reset: 1,
    waitedMs: 0,
    latencyMsSum: 5,
    latencyMsMax: 5,
    foreignUse: 0,
    waitBins: [1],
    heldMs: 0,
    unanswered: 0,
    ...over,
  };
}

/** Copies of the buckets in [from, to): forEach reuses its object. */
function buckets(store: BudgetSeconds, from = 0, to = Infinity, vendor = 'acme', endpoint: EndpointId = 'listAssets'): SecondFigures[] {
  const out: SecondFigures[] = [];
  store.forEach(vendor, endpoint, from, to, (b) => out.push({ ...b, waitBins: b.waitBins.slice() }));
  return out;
}

const totalRequests = (store: BudgetSeconds, vendor = 'acme', endpoint: EndpointId = 'listAssets') =>
  buckets(store, 0, Infinity, vendor, endpoint).reduce((n, b) => n + b.requests, 0);

describe('BudgetSeconds live aggregates', () => {
  it('sums aggregates into the second they are of (not the next one, where their interval ends)', () => {
    const store = new BudgetSeconds();
    store.ingest([agg(10_000), agg(10_000, { requests: 2, remaining: 7, minRemaining: 7, waitBins: [0, 2], heldMs: 30 }), agg(11_000)], 1);
    const got = buckets(store);
    expect(got.map((b) => [b.t, b.requests])).toEqual([
      [10_000, 3],
      [11_000, 1],
    ]);
    expect(got[0]!.remaining).toBe(7);
    expect([...got[0]!.waitBins.slice(0, 2)]).toEqual([1, 2]);
    expect(got[0]!.heldMs).toBe(30);
    expect(store.latest).toBe(11_000);
  });

  it('keeps vendors and endpoints apart', () => {
    const store = new BudgetSeconds();
    store.ingest([agg(1000), agg(1000, { endpoint: 'registerPurchase', requests: 4 }), agg(1000, { vendor: 'other', requests: 9 })]);
    expect(store.vendors().sort()).toEqual(['acme', 'other']);
    expect(totalRequests(store)).toBe(1);
    expect(totalRequests(store, 'acme', 'registerPurchase')).toBe(4);
    expect(totalRequests(store, 'other')).toBe(9);
    expect(buckets(store, 0, Infinity, 'nobody')).toEqual([]);
    expect(store.last('nobody', 'listAssets')).toBeNull();
  });

  it('forEach visits only [from, to), oldest first; last and hasBefore read the ends', () => {
    const store = new BudgetSeconds();
    store.ingest([1000, 2000, 3000, 4000].map((t) => agg(t + 10, { requests: t / 1000 })));
    expect(buckets(store, 2000, 4000).map((b) => b.t)).toEqual([2000, 3000]);
    expect(store.last('acme', 'listAssets')?.requests).toBe(4);
    expect(store.hasBefore('acme', 'listAssets', 1000)).toBe(false);
    expect(store.hasBefore('acme', 'listAssets', 1001)).toBe(true);
  });

  it('stays bounded to its capacity in seconds', () => {
    const store = new BudgetSeconds(3);
    store.ingest([1, 2, 3, 4, 5].map((s) => agg(s * 1000)));
    expect(buckets(store).map((b) => b.t)).toEqual([3000, 4000, 5000]);
  });

  it('tells subscribers about every change, until they unsubscribe', () => {
    const store = new BudgetSeconds();
    const listener = vi.fn();
    const off = store.subscribe(listener);
    store.ingest([agg(1000)]);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.version).toBe(1);
    off();
    store.ingest([agg(2000)]);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('clear forgets every series and where the data ended', () => {
    const store = new BudgetSeconds();
    store.ingest([agg(1000)]);
    store.clear();
    expect(store.vendors()).toEqual([]);
    expect(store.latest).toBe(0);
  });
});

describe('BudgetSeconds history backfill', () => {
  it('holds live aggregates back while a backfill is under way', () => {
    const store = new BudgetSeconds();
    const listener = vi.fn();
    store.subscribe(listener);
    store.beginBackfill();
    store.ingest([agg(5000)]);
    expect(totalRequests(store)).toBe(0);
    expect(listener).not.toHaveBeenCalled();
    store.endBackfill({ aggregates: [], seq: 0, sinceMs: 0 });
    expect(totalRequests(store)).toBe(1);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('a page that joins in the middle of a second counts that second once: history up to event 7, then events 8 on', () => {
    const store = new BudgetSeconds();
    store.beginBackfill();
    // Second 3000 is split: 5 requests went out in event 7 (in the history), 4 more in event 8 (not in it).
    store.ingest([agg(3000, { requests: 5 })], 7);
    store.ingest([agg(3000, { requests: 4 }), agg(4000, { requests: 2 })], 8);
    store.endBackfill({ aggregates: [agg(1000, { requests: 1 }), agg(3000, { requests: 5 }), agg(2000, { requests: 2 })], seq: 7, sinceMs: 0 });
    expect(buckets(store).map((b) => [b.t, b.requests])).toEqual([
      [1000, 1],
      [2000, 2],
      [3000, 9],
      [4000, 2],
    ]);
    // An event the history included that arrives late is not applied twice.
    store.ingest([agg(3000, { requests: 5 })], 7);
    store.ingest([agg(4000, { requests: 1 })], 9);
    expect(buckets(store).map((b) => [b.t, b.requests])).toEqual([
      [1000, 1],
      [2000, 2],
      [3000, 9],
      [4000, 3],
    ]);
    expect(store.latest).toBe(4000);
  });

  it('after a reconnect, the history replaces the seconds from where it starts (no loss, nothing twice)', () => {
    const store = new BudgetSeconds();
    store.ingest([agg(1000, { requests: 1 }), agg(2000, { requests: 2 })], 3);
    store.beginBackfill();
    // The link dropped during second 2000: main's history from there holds all of it, and the gap after.
    store.endBackfill({ aggregates: [agg(2000, { requests: 6 }), agg(3000, { requests: 3 })], seq: 11, sinceMs: store.latest });
    expect(buckets(store).map((b) => [b.t, b.requests])).toEqual([
      [1000, 1],
      [2000, 6],
      [3000, 3],
    ]);
  });

  it('follows a restarted main, whose events are numbered from 1 again', () => {
    const store = new BudgetSeconds();
    store.beginBackfill();
    store.endBackfill({ aggregates: [], seq: 500, sinceMs: 0 });
    store.beginBackfill();
    store.endBackfill({ aggregates: [], seq: 0, sinceMs: 0 });
    store.ingest([agg(1000)], 1);
    expect(totalRequests(store)).toBe(1);
  });

  it('applies what it held when the history call failed', () => {
    const store = new BudgetSeconds();
    store.beginBackfill();
    store.ingest([agg(1000), agg(2000)]);
    store.endBackfill(null);
    expect(totalRequests(store)).toBe(2);
    // Live aggregates flow straight in again afterwards.
    store.ingest([agg(3000)]);
    expect(totalRequests(store)).toBe(3);
  });

  it('a second beginBackfill keeps what is already held, and a stray endBackfill is harmless', () => {
    const store = new BudgetSeconds();
    store.beginBackfill();
    store.ingest([agg(1000)]);
    store.beginBackfill();
    store.ingest([agg(2000)]);
    store.endBackfill(null);
    store.endBackfill(null);
    expect(totalRequests(store)).toBe(2);
  });
});
