/** The Overview's cells: use over the last minute from the live buckets, colour bands, 429s, alert marks and the fleet's figures. */
import { describe, expect, it } from 'vitest';
import type { AlertView } from '../../../shared/bridge/alert-schemas';
import { ENDPOINTS } from '../../../shared/endpoints';
import { BudgetSeconds } from '../../../renderer/src/live/budget-seconds';
import type { BudgetAggregate } from '../../../renderer/src/live/budget-seconds';
import type { FleetUse } from '../../../renderer/src/views/overview/overview-model';
import { bandOf, cellName, cellText, fleetFigures, overviewCell, profileLabel, shareLabel, totalOf } from '../../../renderer/src/views/overview/overview-model';

const S = 1_700_000_040_000; // a whole minute
/** A moment at which the 60 seconds S .. S+59 s are complete (settled), and the second under way is not. */
const NOW = S + 60_000 + 700;

function second(t: number, over: Partial<BudgetAggregate> = {}): BudgetAggregate {
  return {
    vendor: 'acme',
    endpoint: 'listAssets',
    from: t,
    to: t + 1000,
    requests: 10,
    rateLimited: 0,
    errors: 0,
    limit: 20,
    remaining: 10,
    minRemaining: 10,
    reset: 1,
    waitedMs: 0,
    latencyMsSum: 100,
    latencyMsMax: 10,
    foreignUse: 0,
    waitBins: [10],
    heldMs: 0,
    unanswered: 0,
    ...over,
  };
}

function alert(over: Partial<AlertView>): AlertView {
  return {
    id: 1,
    ruleId: 1,
    profileId: 'demo-acme',
    vendor: 'acme',
    kind: 'use',
    endpoint: 'listAssets',
    message: '/assets/list above 80%',
    startedAt: S,
    endedAt: null,
    acknowledgedAt: null,
    ...over,
  } as AlertView;
}

const cell = (store: BudgetSeconds, over: { alerts?: AlertView[]; fleet?: FleetUse | null; now?: number; spec?: keyof typeof ENDPOINTS } = {}) =>
  overviewCell({
    store,
    vendor: 'acme',
    spec: ENDPOINTS[over.spec ?? 'listAssets'],
    now: over.now ?? NOW,
    alerts: over.alerts ?? [],
    fleet: over.fleet ?? null,
  });

describe('Overview cell: use of the limit over the last minute', () => {
  it('is the mean share served over the 60 complete seconds; the second under way and older seconds do not count', () => {
    const store = new BudgetSeconds();
    const seconds = Array.from({ length: 60 }, (_, i) => second(S + i * 1000, { requests: i < 30 ? 20 : 0 }));
    store.ingest([second(S - 1000, { requests: 20 }), ...seconds, second(S + 60_000, { requests: 20 })], 1);
    const c = cell(store);
    expect(c.seconds).toBe(60);
    expect(c.use).toBeCloseTo(0.5); // 30 full seconds of 60
    expect(c.peak).toBe(1);
    expect(c.requests).toBe(600);
    expect(c.spark).toHaveLength(60);
    expect(c.spark[0]!.share).toBe(1);
    expect(c.spark[59]!.share).toBe(0);
    expect(c.band).toBe('mid');
  });

  it('never counts more than the limit per second without a 429, so use stays at most 100%', () => {
    const store = new BudgetSeconds();
    store.ingest(
      Array.from({ length: 60 }, (_, i) => second(S + i * 1000, { requests: 27 })),
      1,
    );
    const c = cell(store);
    expect(c.use).toBe(1);
    expect(c.peak).toBe(1);
    expect(c.band).toBe('limit');
    expect(c.n429).toBe(0);
  });

  it('counts 429s of the minute, refused requests not as served, and marks their seconds on the sparkline', () => {
    const store = new BudgetSeconds();
    store.ingest(
      Array.from({ length: 60 }, (_, i) => second(S + i * 1000, i === 10 ? { requests: 25, rateLimited: 5 } : { requests: 10 })),
      1,
    );
    const c = cell(store);
    expect(c.n429).toBe(5);
    expect(c.spark[10]).toEqual({ share: 1, others: 0, n429: 5 });
    expect(c.spark[11]).toEqual({ share: 0.5, others: 0, n429: 0 });
    expect(c.use).toBeCloseTo((59 * 10 + 20) / 60 / 20);
  });

  it('divides by the seconds the app has data for, not a whole minute, just after it started', () => {
    const store = new BudgetSeconds();
    // Data from S+50 s on only: 10 complete seconds at 10 of 20.
    store.ingest(
      Array.from({ length: 10 }, (_, i) => second(S + 50_000 + i * 1000)),
      1,
    );
    const c = cell(store);
    expect(c.seconds).toBe(10);
    expect(c.use).toBeCloseTo(0.5);
    expect(c.spark.slice(0, 50).every((p) => p.share === null)).toBe(true);
    expect(c.spark[55]!.share).toBe(0.5);
  });

  it('an endpoint without requests in the minute is idle (neutral), even while another endpoint of the vendor runs', () => {
    const store = new BudgetSeconds();
    store.ingest(
      Array.from({ length: 60 }, (_, i) => second(S + i * 1000)),
      1,
    );
    const idle = cell(store, { spec: 'purchaseInfo' });
    expect(idle.band).toBe('idle');
    expect(idle.use).toBe(0);
    expect(idle.spark.every((p) => p.share === 0)).toBe(true); // the app had data: zero, not unknown
    expect(cellName('acme', idle)).toBe('idle: acme, /purchase/info: no requests in the last minute');
    // Two profiles on vendor acme: their cells are told apart by the profile's name (one aria-label each).
    expect(cellName(profileLabel('Built-in demo service: acme', 'acme'), idle)).toBe(
      'idle: Built-in demo service: acme (acme), /purchase/info: no requests in the last minute',
    );
    expect(cellName(profileLabel('אקמה בדיקות', 'acme'), idle)).toBe('idle: אקמה בדיקות (acme), /purchase/info: no requests in the last minute');
    expect(profileLabel('acme', 'acme')).toBe('acme');
    // A vendor the store has never seen.
    const none = overviewCell({ store, vendor: 'other', spec: ENDPOINTS.listAssets, now: NOW, alerts: [], fleet: null });
    expect(none.band).toBe('idle');
    expect(none.seconds).toBe(0);
  });

  it('shows a trickle as <1%, never as 0% while requests flow', () => {
    const store = new BudgetSeconds();
    store.ingest([second(S + 30_000, { requests: 2 })], 1);
    const c = cell(store);
    expect(c.band).toBe('low');
    expect(shareLabel(c)).toBe('<1%');
    expect(cellName('acme', c)).toBe('<1%: acme, /assets/list: <1% of limit used, this app <1% in the last minute');
    // Requests that got no answer took no budget: 0%, not a trickle.
    const offline = new BudgetSeconds();
    offline.ingest([second(S + 30_000, { requests: 3, unanswered: 3, errors: 3 })], 1);
    expect(shareLabel(cell(offline))).toBe('0%');
  });

  it('uses the limit the service reported for that second', () => {
    const store = new BudgetSeconds();
    store.ingest(
      Array.from({ length: 60 }, (_, i) => second(S + i * 1000, { limit: 40, requests: 30 })),
      1,
    );
    const c = cell(store);
    expect(c.limit).toBe(40);
    expect(c.use).toBeCloseTo(0.75);
  });

  it('adds the slots another consumer took', () => {
    const store = new BudgetSeconds();
    store.ingest(
      Array.from({ length: 60 }, (_, i) => second(S + i * 1000, { foreignUse: i % 2 })),
      1,
    );
    expect(cell(store).foreignUse).toBe(30);
  });
});

describe('Overview colour bands', () => {
  it('follow the Budget view: warning from 80%, the limit at 100%, and agree with the rounded label', () => {
    expect(bandOf(0, 0)).toBe('idle');
    expect(bandOf(5, 0)).toBe('low');
    expect(bandOf(5, 0.494)).toBe('low');
    expect(bandOf(5, 0.5)).toBe('mid');
    expect(bandOf(5, 0.794)).toBe('mid');
    expect(bandOf(5, 0.795)).toBe('warn'); // shown as 80%
    expect(bandOf(5, 0.994)).toBe('warn');
    expect(bandOf(5, 0.996)).toBe('limit'); // shown as 100%
    expect(bandOf(5, 1)).toBe('limit');
  });
});

describe('Overview colour: a 429 in the window', () => {
  it('puts the cell at the limit however calm the mean, and only while the 429 is inside the minute', () => {
    const store = new BudgetSeconds();
    // 2 requests a second (10% of 20/s), one of them refused 20 s before the end of the window.
    store.ingest(
      Array.from({ length: 60 }, (_, i) => second(S + i * 1000, i === 40 ? { requests: 2, rateLimited: 1 } : { requests: 2 })),
      1,
    );
    const c = cell(store);
    expect(c.total).toBeLessThan(0.5);
    expect(c.n429).toBe(1);
    expect(c.band).toBe('limit');
    // 41 s later the 429 has left the window: the colour is the mean's again.
    expect(cell(store, { now: NOW + 41_000 }).band).toBe('low');
    expect(bandOf(5, 0.1, 1)).toBe('limit');
    expect(bandOf(0, 0, 0)).toBe('idle');
  });
});

describe("Overview figure and colour: the whole budget's use, ours beside it", () => {
  it("is ours + the others' estimated use against the limit, at most the whole limit", () => {
    expect(totalOf({ use: 0.2, othersUse: 0.5 })).toBeCloseTo(0.7);
    expect(totalOf({ use: 0.6, othersUse: 0.7 })).toBe(1);
  });

  it("prints the figure the colour is banded by: 6% ours beside another consumer's 90% reads 96%, ours 6%", () => {
    const store = new BudgetSeconds();
    // The reviewer's squeeze: this app served 1.2 of 20/s while another consumer takes 18/s.
    store.ingest(
      Array.from({ length: 60 }, (_, i) => second(S + i * 1000, { requests: i % 5 === 0 ? 2 : 1, foreignUse: 18 })),
      1,
    );
    const c = cell(store);
    expect(c.use).toBeCloseTo(0.06);
    expect(c.othersUse).toBeCloseTo(0.9);
    expect(c.total).toBeCloseTo(0.96);
    expect(shareLabel(c)).toBe('96%');
    expect(c.band).toBe(bandOf(c.requests, 0.96));
    expect(c.band).toBe('warn');
    expect(cellText(c)).toBe('96% ours 6%');
    expect(cellName('acme', c)).toBe('96% ours 6%: acme, /assets/list: 96% of limit used, this app 6% in the last minute');
    // The sparkline stacks the others' share on ours, second by second.
    expect(c.spark[1]).toEqual({ share: 0.05, others: 0.9, n429: 0 });
  });

  it('leaves "ours" out where this app is alone: the figure is ours then', () => {
    const store = new BudgetSeconds();
    store.ingest(
      Array.from({ length: 60 }, (_, i) => second(S + i * 1000, { requests: 12 })),
      1,
    );
    const c = cell(store);
    expect(c.total).toBeCloseTo(0.6);
    expect(cellText(c)).toBe('60%');
    expect(c.band).toBe('mid');
  });

  it('colours a cell with low use but held back 96-100% of the time at least as a warning, and says so on the cell', () => {
    const store = new BudgetSeconds();
    // 2 requests a second (10% of 20/s), each second held back for 980 ms by the budget.
    store.ingest(
      Array.from({ length: 60 }, (_, i) => second(S + i * 1000, { requests: 2, heldMs: 980, waitedMs: 1960 })),
      1,
    );
    const c = cell(store);
    expect(c.total).toBeCloseTo(0.1);
    expect(c.heldShare).toBeCloseTo(0.98);
    expect(c.band).toBe('warn'); // not the palest green
    expect(cellText(c)).toBe('10% held 98%');
    expect(cellName('acme', c)).toBe('10% held 98%: acme, /assets/list: 10% of limit used, this app 10%, held back 98% of the time in the last minute');
    // Busy and held back (pacing at the limit): the figure says it all, no "held" beside it.
    const busy = new BudgetSeconds();
    busy.ingest(
      Array.from({ length: 60 }, (_, i) => second(S + i * 1000, { requests: 18, heldMs: 980 })),
      1,
    );
    expect(cellText(cell(busy))).toBe('90%');
  });
});

describe('Overview alert marks and names', () => {
  it("keeps the firing alerts of the cell's endpoint only, and names them", () => {
    const store = new BudgetSeconds();
    store.ingest(
      Array.from({ length: 60 }, (_, i) => second(S + i * 1000, { requests: i < 2 ? 25 : 13, rateLimited: i < 2 ? 1 : 0 })),
      1,
    );
    const alerts = [alert({ id: 1 }), alert({ id: 2, endpoint: 'searchAssets' }), alert({ id: 3, endpoint: null, kind: 'down' })];
    const c = cell(store, { alerts });
    expect(c.alerts.map((a) => a.id)).toEqual([1]);
    expect(cellName('acme', c)).toBe('66% 2×429: acme, /assets/list: 66% of limit used, this app 66%, 2 x 429 in the last minute; 1 alert firing');
    expect(cell(store, { spec: 'searchAssets', alerts }).alerts.map((a) => a.id)).toEqual([2]);
  });
});

describe('Overview fleet figures', () => {
  const fleet = (over: Partial<FleetUse> = {}): FleetUse => ({
    profileId: 'demo-acme',
    vendor: 'acme',
    store: { kind: 'redis', url: 'redis://127.0.0.1:6379', state: 'connected', message: null },
    fromMs: S,
    endpoints: [{ endpoint: 'listAssets', limit: 20, granted: [20, 10, 0, 30] }],
    ...over,
  });

  it("are the store's grants as a share of the limit, beside this app's own", () => {
    const f = fleetFigures(fleet(), 'listAssets')!;
    expect(f.use).toBeCloseTo(60 / 80);
    expect(f.peak).toBe(1); // 30 granted in a second of 20 is shown as the whole limit
    expect(f.seconds).toBe(4);
    expect(f.state).toBe('connected');
    const store = new BudgetSeconds();
    store.ingest(
      Array.from({ length: 60 }, (_, i) => second(S + i * 1000)),
      1,
    );
    expect(cell(store, { fleet: fleet() }).fleet?.use).toBeCloseTo(0.75);
  });

  it("cover the same last seconds as this app's own figures (just after the app started)", () => {
    expect(fleetFigures(fleet(), 'listAssets', 2)).toMatchObject({ use: 0.75, peak: 1, seconds: 2 }); // [0, 30] of 20
    const store = new BudgetSeconds();
    store.ingest([second(S + 58_000), second(S + 59_000)], 1); // the app has data for the last 2 s only
    expect(cell(store, { fleet: fleet() }).fleet).toMatchObject({ use: 0.75, seconds: 2 });
  });

  it("are drawn from this machine's store as from Redis", () => {
    const store = { kind: 'machine' as const, url: 'machine', state: 'connected' as const, message: null };
    expect(fleetFigures(fleet({ store }), 'listAssets')).toMatchObject({ use: 60 / 80, peak: 1, seconds: 4 });
  });

  it('are absent without a store', () => {
    expect(fleetFigures(null, 'listAssets')).toBeNull();
    expect(fleetFigures(fleet({ store: { kind: 'none', url: null, state: 'off', message: null }, endpoints: [] }), 'listAssets')).toBeNull();
  });

  it('have no figures (not zero) where the store has counted nothing for the endpoint yet, and say when it does not answer', () => {
    expect(fleetFigures(fleet(), 'searchAssets')).toMatchObject({ use: null, peak: null, seconds: 0 });
    const down = fleet({
      store: { kind: 'redis', url: 'redis://x', state: 'fallback', message: 'timeout' },
      endpoints: [{ endpoint: 'listAssets', limit: 20, granted: [] }],
    });
    expect(fleetFigures(down, 'listAssets')).toEqual({ use: null, peak: null, seconds: 0, state: 'fallback', message: 'timeout' });
  });
});
