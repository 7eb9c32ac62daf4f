/** Usage history on a real SQLite file and a manual clock: batching, roll-ups that keep the sums, retention, restart. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalStore, openDatabase } from '../../electron/store';
import { MAX_PENDING_BUCKETS, UsageStore } from '../../electron/store';
import type { UsageLevel, UsageRow, UsageStoreOptions } from '../../electron/store';
import { emptyAggregate } from '../../electron/store/usage-aggregate';
import type { BudgetSample } from '../../shared/rate-limit';
import type { Clock } from '../../shared/clock';
import type { EndpointId } from '../../shared/endpoints';

const T0 = Date.UTC(2026, 0, 5, 10, 0, 0);
const MIN = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

/** The store is synchronous: a clock whose advance fires due timers in order, synchronously. */
class ManualClock implements Clock {
  private timers = new Map<number, { at: number; fn: () => void }>();
  private seq = 0;
  constructor(private t: number) {}
  now(): number {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number): unknown {
    this.timers.set(++this.seq, { at: this.t + ms, fn });
    return this.seq;
  }
  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }
  advance(ms: number): void {
    const target = this.t + ms;
    for (;;) {
      const due = [...this.timers].filter(([, t]) => t.at <= target).sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.t = Math.max(this.t, due[1].at);
      due[1].fn();
    }
    this.t = target;
  }
}

let dir: string;
const closers: (() => void)[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'usage-'));
});
afterEach(() => {
  for (const c of closers.splice(0).reverse()) c();
  rmSync(dir, { recursive: true, force: true });
});

function open(
  clock: ManualClock,
  retention?: { secondMs?: number; minuteMs?: number; hourMs?: number },
  downsampleEveryMs = MIN,
  options: Pick<UsageStoreOptions, 'onError' | 'maxPendingBuckets'> = {},
) {
  const db = openDatabase(dir).db!;
  db.pragma('synchronous = NORMAL'); // as LocalStore.openUsage gives it
  let writes = 0;
  // Counts write transactions: the store must batch.
  const original = db.transaction.bind(db);
  db.transaction = ((fn: (...a: never[]) => unknown) => {
    const tx = original(fn);
    return Object.assign((...a: never[]) => (writes++, tx(...a)), tx);
  }) as typeof db.transaction;
  const store = new UsageStore(db, { clock, retention, downsampleEveryMs, ...options });
  closers.push(
    () => db.close(),
    () => store.close(),
  );
  return { store, db, writes: () => writes };
}

function sample(endpoint: EndpointId, at: number, over: Partial<BudgetSample> = {}): BudgetSample {
  return { vendor: 'acme', endpoint, at, status: 200, limit: 20, remaining: 10, reset: 1, latencyMs: 40, waitedMs: 5, attempt: 1, headerProblems: [], ...over };
}

const sum = (rows: UsageRow[], field: 'requests' | 'throttled' | 'failures' | 'waitedMs' | 'foreignRequests') => rows.reduce((n, r) => n + r[field], 0);
const all = (store: UsageStore, level: UsageLevel) => store.read({ level, fromMs: 0, toMs: Number.MAX_SAFE_INTEGER });

/** Records a known stream: every 250 ms for `ms`, two endpoints, some 429s, failures and other consumers. */
function stream(store: UsageStore, clock: ManualClock, ms: number): void {
  for (let t = 0; t < ms; t += 250) {
    const at = clock.now();
    store.record('prof', sample('listAssets', at, { remaining: 20 - ((t / 250) % 20), latencyMs: 20 + (t % 700) }));
    if (t % 1000 === 0) store.record('prof', sample('purchaseInfo', at, { status: t % 3000 === 0 ? 429 : t % 5000 === 0 ? 0 : 200, remaining: 1 }), 2);
    clock.advance(250);
  }
}

describe('usage history', () => {
  it('writes at most one transaction a second, whatever the rate of samples', () => {
    const clock = new ManualClock(T0);
    const { store, writes } = open(clock);
    for (let i = 0; i < 1000; i++) store.record('prof', sample('categories', clock.now()));
    expect(writes()).toBe(0); // recording never touches the disk
    clock.advance(1_000);
    expect(writes()).toBe(1);
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j < 50; j++) store.record('prof', sample('categories', clock.now()));
      clock.advance(100);
    }
    expect(writes()).toBe(2);
    clock.advance(1_000);
    expect(writes()).toBe(2); // nothing new: no write
    expect(sum(all(store, 'second'), 'requests')).toBe(1500);
  });

  it('rolls seconds into minutes and minutes into hours on schedule, with the same sums at every level', () => {
    const clock = new ManualClock(T0);
    const { store } = open(clock);
    // Two hours and five minutes of traffic, the schedule (every minute) running as time goes by.
    for (let m = 0; m < 125; m++) {
      stream(store, clock, MIN / 6); // 10 s of samples in each minute
      clock.advance(MIN - MIN / 6);
    }
    store.downsample();
    const seconds = all(store, 'second');
    const minutes = all(store, 'minute');
    const hours = all(store, 'hour');
    // Seconds are kept an hour, minutes 14 days: compare every level over what all of them still hold (hours 0 and 1 complete).
    const hoursDone = hours.filter((h) => h.startMs < T0 + 2 * HOUR);
    const minutesIn = minutes.filter((m) => m.startMs < T0 + 2 * HOUR);
    for (const field of ['requests', 'throttled', 'failures', 'waitedMs', 'foreignRequests'] as const) {
      expect(sum(hoursDone, field)).toBeCloseTo(sum(minutesIn, field), 6);
    }
    expect(sum(hoursDone, 'requests')).toBe(120 * (40 + 10));
    expect(sum(hoursDone, 'throttled')).toBe(120 * 4);
    // The seconds still kept agree with the minutes rolled up from them (whole minutes only).
    const from = Math.ceil(seconds[0]!.startMs / MIN) * MIN;
    const to = Math.max(...minutes.map((m) => m.startMs)) + MIN;
    const secondsIn = seconds.filter((r) => r.startMs >= from && r.startMs < to);
    expect(sum(secondsIn, 'requests')).toBeGreaterThan(0);
    expect(sum(secondsIn, 'requests')).toBe(
      sum(
        minutes.filter((m) => m.startMs >= from),
        'requests',
      ),
    );
    // Per endpoint: lowest Remaining is the min, the peak the max; the mean use is per second: 4 served of 20 in each.
    const info = hoursDone.filter((h) => h.endpoint === 'purchaseInfo');
    expect(info.every((h) => h.lowestRemaining === 1 && h.usePeak === 0.95)).toBe(true);
    const list = hoursDone.find((h) => h.endpoint === 'listAssets')!;
    expect(list.lowestRemaining).toBe(1);
    expect(list.usePeak).toBe(0.95);
    expect(list.meanUse).toBeCloseTo(0.2, 6);
    expect(list.latencyP50).toBeGreaterThan(list.latencyP95! / 10);
    expect(list.latencyP95).toBeLessThanOrEqual(750);
  });

  it('keeps the sums when a late sample lands in a second already rolled up', () => {
    const clock = new ManualClock(T0);
    const { store } = open(clock);
    stream(store, clock, 5_000);
    clock.advance(2 * HOUR);
    store.downsample();
    store.record('prof', sample('listAssets', T0 + 1_000)); // very late
    store.flush();
    const requests = (level: UsageLevel) => sum(all(store, level), 'requests');
    expect(requests('minute')).toBe(requests('hour'));
    expect(requests('hour')).toBe(20 + 5 + 1);
  });

  it('drops each level after its retention, never a row not yet rolled up', () => {
    const clock = new ManualClock(T0);
    const { store } = open(clock, { secondMs: HOUR, minuteMs: 14 * DAY, hourMs: 400 * DAY }, 30 * DAY);
    stream(store, clock, 3_000);
    clock.advance(30 * MIN);
    store.downsample();
    expect(all(store, 'second').length).toBeGreaterThan(0); // within the hour
    clock.advance(HOUR);
    store.downsample();
    expect(all(store, 'second')).toEqual([]);
    expect(sum(all(store, 'minute'), 'requests')).toBe(15);
    clock.advance(15 * DAY);
    store.downsample();
    expect(all(store, 'minute')).toEqual([]);
    expect(sum(all(store, 'hour'), 'requests')).toBe(15);
    clock.advance(400 * DAY);
    store.downsample();
    expect(all(store, 'hour')).toEqual([]);
  });

  it('keeps the history across a restart (a real file)', () => {
    const clock = new ManualClock(T0);
    const first = open(clock);
    stream(first.store, clock, 4_000);
    first.store.close();
    first.db.close();
    const again = open(clock);
    expect(sum(all(again.store, 'second'), 'requests')).toBe(16 + 4);
  });

  it('runs on a connection of its own beside the ledger, closed with the store', () => {
    const clock = new ManualClock(T0);
    const local = new LocalStore(dir);
    const usage = local.openUsage({ clock })!;
    usage.record('prof', sample('categories', T0));
    local.close(); // flushes the usage history first
    const reopened = open(clock);
    expect(sum(all(reopened.store, 'second'), 'requests')).toBe(1);
  });

  it('files a sample whose Date is 3 years off at its arrival, and keeps the requests an earlier version filed years ahead', () => {
    const clock = new ManualClock(T0);
    const { store } = open(clock);
    const ahead = T0 + 3 * 365 * DAY;
    store.record('prof', sample('categories', T0 + 200, { serverSecond: ahead }));
    // As an earlier version left it: traffic filed three years ahead.
    store.recordAggregate({ profileId: 'prof', vendor: 'acme', endpoint: 'categories' }, ahead, { ...emptyAggregate(), requests: 5 });
    clock.advance(1_000);
    expect(all(store, 'second').map((r) => [r.startMs, r.requests])).toEqual([
      [T0, 1],
      [ahead, 5],
    ]);
    clock.advance(2 * MIN); // roll-up and retention ran
    // Requests the service counted are never deleted for their time: they expire once the clock passes them.
    expect(
      all(store, 'second')
        .filter((r) => r.startMs > T0 + DAY)
        .map((r) => [r.startMs, r.requests]),
    ).toEqual([[ahead, 5]]);
    expect(sum(all(store, 'minute'), 'requests')).toBe(1);
  });
});

describe('writes that fail for hours (a full disk)', () => {
  /** Fails every write of a second's row for real, from a second connection to the file (as another writer would). */
  function failWrites(): () => void {
    const other = openDatabase(dir).db!;
    closers.push(() => other.close());
    other.exec(`CREATE TRIGGER failing BEFORE INSERT ON usage_second BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`);
    return () => other.exec('DROP TRIGGER failing');
  }
  const seconds = (store: UsageStore) => all(store, 'second').map((r) => (r.startMs - T0) / 1000);

  it('keeps at most the cap of buckets, the oldest dropped first, and says so once per outage, not at every flush', () => {
    const clock = new ManualClock(T0);
    const errors: string[] = [];
    const { store } = open(clock, undefined, MIN, { maxPendingBuckets: 5, onError: (e) => errors.push((e as Error).message) });
    const writesWork = failWrites();
    for (let s = 0; s < 8; s++) {
      store.record('prof', sample('categories', clock.now()));
      clock.advance(1000); // a flush, failing: 8 in all
    }
    expect(errors).toEqual([
      expect.stringMatching(/^Usage history could not be written \(database or disk is full\); the samples are kept in memory \(at most 5 per-second buckets/),
      'Usage history is still not written: 5 per-second buckets are held in memory, and the oldest are dropped from now on.',
    ]);

    writesWork();
    store.record('prof', sample('categories', clock.now()));
    clock.advance(1000);
    expect(seconds(store)).toEqual([3, 4, 5, 6, 7, 8]);
    expect(errors.slice(2)).toEqual([
      `Usage history is written again after 8 failed writes since ${new Date(T0 + 1000).toISOString()}; 3 per-second buckets of samples were dropped.`,
    ]);

    // The next outage is said again.
    failWrites();
    store.record('prof', sample('categories', clock.now()));
    clock.advance(1000);
    expect(errors).toHaveLength(4);
  });

  it(`holds MAX_PENDING_BUCKETS (${MAX_PENDING_BUCKETS}) by default`, () => {
    const clock = new ManualClock(T0);
    const { store } = open(clock);
    const writesWork = failWrites();
    const agg = { ...emptyAggregate(), requests: 1 };
    for (let s = 0; s < MAX_PENDING_BUCKETS + 3; s++) store.recordAggregate({ profileId: 'prof', vendor: 'acme', endpoint: 'categories' }, T0 + s * 1000, agg);
    expect(store.flush()).toBe(0);
    writesWork();
    expect(store.flush()).toBe(MAX_PENDING_BUCKETS);
    expect(seconds(store).slice(0, 2)).toEqual([3, 4]);
  });
});
