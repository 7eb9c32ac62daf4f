/**
 * The alert list reads its page off an index in its own order (no sort of the whole table), and
 * pruning removes only alerts that ended longer ago than the retention (never a firing one).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { alertListSql } from '../../electron/store/alert-store';
import { ALERT_PRUNE_BATCH, ALERT_RETENTION_MS, AlertStore, DEFAULT_USAGE_RETENTION, openDatabase } from '../../electron/store';

let dir: string;
let db: Database;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'alert-list-'));
  db = openDatabase(dir).db!;
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function plan(sql: string, ...args: unknown[]): string {
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((r) => r.detail).join('\n');
}

function add(store: AlertStore, profileId: string, startedAt: number, endedAt: number | null): number {
  const alert = store.start({ ruleId: 1, profileId, vendor: 'demo', kind: 'throttled', endpoint: 'listAssets', message: 'm', startedAt });
  if (endedAt !== null) store.end(alert.id, endedAt);
  return alert.id;
}

describe('alert list and retention', () => {
  it('lists all profiles and one profile off an index, in order, without a sort', () => {
    db.exec('ANALYZE');
    const all = plan(alertListSql(false), 500);
    const one = plan(alertListSql(true), 'demo', 500);
    expect(all).toMatch(/USING INDEX alert_list\b/);
    expect(one).toMatch(/USING INDEX alert_list_profile\b/);
    expect(`${all}\n${one}`).not.toMatch(/TEMP B-TREE/);

    const store = new AlertStore(db);
    const ended = add(store, 'demo', 100, 200);
    const newerEnded = add(store, 'other', 300, 400);
    const firing = add(store, 'demo', 50, null);
    expect(store.list().map((a) => a.id)).toEqual([firing, newerEnded, ended]);
    expect(store.list({ profileId: 'demo' }).map((a) => a.id)).toEqual([firing, ended]);
  });

  it('prunes only ended alerts older than the retention (the usage history hour rows: 400 days)', () => {
    expect(ALERT_RETENTION_MS).toBe(DEFAULT_USAGE_RETENTION.hourMs);
    const store = new AlertStore(db);
    const now = 1_000 * 86_400_000;
    const cutoff = now - ALERT_RETENTION_MS;
    add(store, 'demo', cutoff - 5000, cutoff - 1); // ended before the cutoff: pruned
    const firingOld = add(store, 'demo', cutoff - 5000, null);
    const endedAtCutoff = add(store, 'demo', cutoff - 5000, cutoff);
    const recent = add(store, 'demo', now - 1000, now - 10);
    expect(store.prune(cutoff)).toBe(1);
    expect(
      store
        .list()
        .map((a) => a.id)
        .sort(),
    ).toEqual([firingOld, endedAtCutoff, recent].sort());
  });

  it('prunes a backlog a batch at a time', () => {
    const store = new AlertStore(db);
    db.transaction(() => {
      for (let i = 0; i < ALERT_PRUNE_BATCH + 5; i++) add(store, 'demo', i, i + 1);
    })();
    expect(store.prune(1e9)).toBe(ALERT_PRUNE_BATCH);
    expect(store.prune(1e9)).toBe(5);
  });
});
