/**
 * Requests recorded while the local clock ran ahead are real requests: once the clock is corrected
 * (NTP), the usage history still counts them, once, at every level. Real SQLite file, a settable clock.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { openDatabase, UsageStore } from '../../electron/store';
import type { UsageLevel } from '../../electron/store';
import type { Clock } from '../../shared/clock';
import type { BudgetSample } from '../../shared/rate-limit';
import { budgetSample } from '../helpers/budget-sample';

const T0 = Date.UTC(2026, 2, 10, 9, 0, 0);
const HOUR = 3_600_000;
const DAY = 86_400_000;

/** A wall clock set by hand; timers never fire (the test flushes and rolls up itself). */
const settableClock = (): Clock & { t: number } => ({
  t: 0,
  now() {
    return this.t;
  },
  setTimeout: () => 0,
  clearTimeout: () => undefined,
});

const sample = (at: number, serverSecond: number): BudgetSample => budgetSample({ at, serverSecond });

let dir: string;
let db: Database;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'usage-clock-'));
  db = openDatabase(dir).db!;
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const total = (store: UsageStore, level: UsageLevel): number =>
  store.read({ level, fromMs: 0, toMs: Number.MAX_SAFE_INTEGER }).reduce((n, r) => n + r.requests, 0);

describe('usage history after the local clock is corrected', () => {
  it('still counts, once, the requests recorded while the clock ran 2 days ahead', () => {
    const clock = settableClock();
    const store = new UsageStore(db, { clock });
    // 20 requests at T0 by the server's Date; our clock says 2 days later.
    for (let i = 0; i < 20; i++) {
      clock.t = T0 + 2 * DAY + i * 1_000;
      store.record('p1', sample(clock.t, T0 + i * 1_000));
    }
    // The schedule rolls them up past their hour, still on the skewed clock.
    clock.t += HOUR + 5 * 60_000;
    store.downsample();
    expect(total(store, 'minute')).toBe(20);
    expect(total(store, 'hour')).toBe(20);

    // NTP sets the clock back; 5 more requests, then the history's schedule runs on for two hours.
    for (let i = 0; i < 5; i++) {
      clock.t = T0 + 30_000 + i * 1_000;
      store.record('p1', sample(clock.t, clock.t));
    }
    for (let step = 1; step <= 8; step++) {
      clock.t = T0 + step * 15 * 60_000;
      store.downsample();
    }
    expect(total(store, 'minute')).toBe(25);
    expect(total(store, 'hour')).toBe(25);
    store.close();
  });
});
