/**
 * Alerts while another process holds the store's write lock (a second connection here, as another
 * instance would): a write gives up at once and waits in memory ("pending") instead of holding the
 * main thread for the busy timeout; once the lock goes, each alert is stored exactly once, with its end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AlertService } from '../../electron/alerts/alert-service';
import { ManualClock } from '../../electron/client/testing/manual-clock';
import { LocalStore, STORE_FILE_NAME } from '../../electron/store';
import type { AlertEvent } from '../../shared/bridge/alert-schemas';
import type { BudgetSample } from '../../shared/rate-limit';
import { budgetSample } from '../helpers/budget-sample';

let dir: string;
let clock: ManualClock;
let events: AlertEvent[];
let errors: unknown[];
let local: LocalStore;
let service: AlertService;
let locker: Sqlite.Database;

function throttled(): BudgetSample {
  return budgetSample({ vendor: 'demo', at: clock.now(), status: 429, limit: 10, remaining: 0, reset: null });
}

function storedAlerts(): { ended_at: number | null }[] {
  return locker.prepare('SELECT ended_at FROM alert').all() as { ended_at: number | null }[];
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'alerts-locked-'));
  clock = new ManualClock();
  events = [];
  errors = [];
  local = new LocalStore(dir);
  service = new AlertService(local, { clock, quiet: () => true, emit: (e) => events.push(e), onError: (e) => errors.push(e) });
  service.watch([{ profileId: 'demo', vendor: 'demo', demo: true }]);
  locker = new Sqlite(join(dir, STORE_FILE_NAME));
});

afterEach(() => {
  if (locker.inTransaction) locker.exec('ROLLBACK');
  locker.close();
  service.dispose();
  local.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('alerts under a held lock', () => {
  it('a firing waits in memory (pending), not the busy timeout; it is stored once after the lock goes', async () => {
    locker.exec('BEGIN IMMEDIATE');
    service.sample(throttled(), 0);
    expect(service.pendingWrites).toBe(1);
    expect(events).toEqual([]);
    expect(errors).toHaveLength(1); // said once, not at every try
    await clock.advance(3000);
    expect(service.pendingWrites).toBe(1);
    expect(errors).toHaveLength(1);

    locker.exec('COMMIT');
    await clock.advance(1000);
    expect(service.pendingWrites).toBe(0);
    expect(storedAlerts()).toEqual([{ ended_at: null }]);
    expect(events.map((e) => e.change)).toEqual(['fired']);
    await clock.advance(3000);
    expect(storedAlerts()).toHaveLength(1);
  });

  it('an alert that fired and ended during the lock is stored once, ended', async () => {
    locker.exec('BEGIN IMMEDIATE');
    const firedAt = clock.now();
    service.sample(throttled(), 0);
    await clock.advance(500);
    service.watch([]); // the profile disconnects: its alert ends
    expect(service.pendingWrites).toBe(1); // the end joined its waiting fire: one row, stored ended

    locker.exec('COMMIT');
    await clock.advance(1000);
    expect(locker.prepare('SELECT started_at, ended_at FROM alert').all()).toEqual([{ started_at: firedAt, ended_at: firedAt + 500 }]);
    expect(events.map((e) => e.change)).toEqual(['fired', 'cleared']);
  });
});
