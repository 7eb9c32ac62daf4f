/**
 * "Mean use" in the Usage report and the history means how much of the budget was used: per second with
 * requests, the share of the limit the server served (answered, not 429), as the Budget view's
 * utilisation, averaged over those seconds. The older measure (1 - Remaining/Limit per answer) read
 * about 50% for an endpoint running flat out, as Remaining falls from 19 to 0 in every second. On a
 * real SQLite file: samples written in flushes that split seconds, rolled up, read back by the report
 * and by the history; rows stored before the measure are flagged, not mixed in.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, openDatabase, UsageStore } from '../../electron/store';
import { usageReportFrom } from '../../electron/reports/usage-report-source';
import { readHistory } from '../../electron/usage/history-query';
import { DEFAULT_USAGE_RETENTION } from '../../electron/store';
import type { Clock } from '../../shared/clock';
import type { EndpointId } from '../../shared/endpoints';
import type { BudgetSample } from '../../shared/rate-limit';
import { summarize } from '../../shared/usage-history-model';

const T0 = Date.UTC(2026, 10, 20, 10, 0, 0);
const MIN = 60_000;
const HOUR = 3_600_000;
/** Timers never fire: the test flushes and rolls up itself, at the moments it chooses. */
const clock: Clock = { now: () => T0 + HOUR, setTimeout: () => 0, clearTimeout: () => undefined };

let dir: string;
let db: Database;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'usage-mean-use-'));
});
afterEach(() => {
  if (db?.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

function sample(endpoint: EndpointId, at: number, over: Partial<BudgetSample> = {}): BudgetSample {
  return {
    vendor: 'acme',
    endpoint,
    at,
    serverSecond: Math.floor(at / 1000) * 1000,
    status: 200,
    limit: 20,
    remaining: 0,
    reset: 1,
    latencyMs: 40,
    waitedMs: 0,
    attempt: 1,
    headerProblems: [],
    ...over,
  };
}

/**
 * `minutes` of traffic, second by second, flushed at the middle of every second (each second is written
 * in two parts): listAssets drains its 20 each second (Remaining 19 → 0) and gets 5 × 429 on top;
 * searchAssets uses half of its 20; assetHistory sends one request every other second (limit 10).
 */
function traffic(store: UsageStore, minutes: number): void {
  for (let s = T0; s < T0 + minutes * MIN; s += 1000) {
    for (let i = 0; i < 20; i++) {
      store.record('prof', sample('listAssets', s + i * 40, { remaining: 19 - i }));
      if (i === 10) store.flush();
    }
    for (let i = 0; i < 5; i++) store.record('prof', sample('listAssets', s + 900 + i, { status: 429, remaining: 0 }));
    for (let i = 0; i < 10; i++) store.record('prof', sample('searchAssets', s + i * 80, { remaining: 19 - i }));
    if ((s / 1000) % 2 === 0) store.record('prof', sample('assetHistory', s + 500, { limit: 10, remaining: 9 }));
    store.flush();
  }
}

function openStore(migrations = MIGRATIONS): UsageStore {
  db = openDatabase(dir, { migrations }).db!;
  return new UsageStore(db, { clock });
}

function report(store: UsageStore) {
  return usageReportFrom(
    { rows: (q) => store.read(q), now: clock.now(), minuteRetentionMs: DEFAULT_USAGE_RETENTION.minuteMs },
    { profileId: 'prof', profileName: null, vendor: 'acme', fromMs: T0 - 10 * HOUR, toMs: T0 + 10 * HOUR, timeZone: 'UTC' },
  );
}

/** 20 × 1/20 in floating point. */
const ONE = expect.closeTo(1, 9);
const dayOf = (r: ReturnType<typeof report>, endpoint: string) => r.days.find((d) => d.endpoint === endpoint)!;

describe('mean use of the limit', () => {
  it('reads an endpoint drained every second as 100% used, half its limit as 50%, per second with requests', () => {
    const store = openStore();
    traffic(store, 3);
    store.close();
    const r = report(store);
    // The older measure read these as 0.475 and 0.225.
    expect(dayOf(r, 'listAssets')).toMatchObject({ meanUse: ONE, meanUseOlder: false, peakUse: 1, throttled: 3 * 60 * 5 });
    expect(dayOf(r, 'searchAssets').meanUse).toBeCloseTo(0.5, 10);
    // One request in every other second: 10% of the limit in the seconds it ran.
    expect(dayOf(r, 'assetHistory').meanUse).toBeCloseTo(0.1, 10);
    expect(r.heatMap.find((c) => c.endpoint === 'listAssets' && c.hour === 10)).toMatchObject({ meanUse: ONE, meanUseOlder: false });
    // The per-second rows too: each second counted once although written in two flushes.
    const seconds = store.read({ level: 'second', fromMs: 0, toMs: Number.MAX_SAFE_INTEGER, endpoint: 'listAssets' });
    expect(seconds).toHaveLength(3 * 60);
    expect(seconds.every((row) => row.activeSeconds === 1 && Math.abs(row.useSeconds - 1) < 1e-9)).toBe(true);
  });

  it('gives the history (the Budget view over hours) the same figure, and the seconds it covers', () => {
    const store = openStore();
    traffic(store, 3);
    store.close();
    const history = readHistory(store, { profileId: 'prof', vendor: 'acme', fromMs: T0 - 5 * HOUR, toMs: T0 + HOUR }, clock.now(), DEFAULT_USAGE_RETENTION);
    const list = summarize({ ...history, profileId: 'prof', vendor: 'acme', problem: null }).find((row) => row.endpoint === 'listAssets')!;
    expect(list).toMatchObject({ meanUse: ONE, meanUseOlder: false, activeSeconds: 180 });
    const sparse = summarize({ ...history, profileId: 'prof', vendor: 'acme', problem: null }).find((row) => row.endpoint === 'assetHistory')!;
    expect(sparse.meanUse).toBeCloseTo(0.1, 10);
    expect(sparse.activeSeconds).toBe(90);
  });

  it('counts a second once when a late part of it reaches a minute already rolled up', () => {
    const store = openStore();
    traffic(store, 1);
    store.downsample(T0 + 2 * MIN);
    // A late answer in the first second, which the minute row holds already: its request counts, the second not again.
    store.record('prof', sample('listAssets', T0 + 999, { serverSecond: undefined }));
    store.flush();
    const [minute] = store.read({ level: 'minute', fromMs: 0, toMs: Number.MAX_SAFE_INTEGER, endpoint: 'listAssets' });
    expect(minute).toMatchObject({ requests: 60 * 25 + 1, activeSeconds: 60, useSeconds: expect.closeTo(60, 9), meanUse: ONE });
  });

  it('says which figures are the older per-answer measure of rows stored before it, and never mixes the two', () => {
    // A database as the previous version left it: one minute stored with the per-answer measure only.
    const old = openDatabase(dir, { migrations: MIGRATIONS.filter((m) => m.version <= 4) }).db!;
    old
      .prepare(
        `INSERT INTO usage_minute (profile_id, vendor, endpoint, start_ms, requests, throttled, failures, lowest_remaining, use_sum, use_count, use_peak, waited_ms, foreign_requests, latency)
         VALUES ('prof', 'acme', 'listAssets', ?, 1200, 0, 0, 0, 570, 1200, 1, 0, 0, '[]')`,
      )
      .run(T0 - 2 * HOUR);
    old.close();
    const store = openStore();
    traffic(store, 1);
    store.close();
    const r = report(store);
    const older = r.heatMap.find((c) => c.endpoint === 'listAssets' && c.hour === 8)!;
    expect(older).toMatchObject({ meanUseOlder: true });
    expect(older.meanUse).toBeCloseTo(0.475, 10);
    expect(r.heatMap.find((c) => c.endpoint === 'listAssets' && c.hour === 10)).toMatchObject({ meanUse: ONE, meanUseOlder: false });
    // The day holds both: its figure is the per-second one, over the seconds that have it.
    expect(dayOf(r, 'listAssets')).toMatchObject({ meanUse: ONE, meanUseOlder: false, requests: 1200 + 60 * 25 });
  });
});
