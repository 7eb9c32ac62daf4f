/**
 * The alert write queue while the store refuses every write (read-only, not a lock): a rule that keeps
 * firing and clearing keeps the queue bounded, the failure is logged once, and once the store takes
 * writes again what was kept is written once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { AlertWrites } from '../../electron/alerts/alert-writes';
import { AlertStore, LocalStore, STORE_FILE_NAME } from '../../electron/store';
import type { AlertView } from '../../shared/bridge/alert-schemas';

let dir: string;
let db: Sqlite.Database;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'alert-queue-'));
  new LocalStore(dir).close(); // the schema
  db = new Sqlite(join(dir, STORE_FILE_NAME));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const start = (at: number) => ({
  ruleId: 1,
  profileId: 'demo',
  vendor: 'demo',
  kind: 'throttled' as const,
  endpoint: null,
  message: 'Throttled',
  startedAt: at,
});

it('a flapping rule against a store that refuses writes: bounded queue, one failure line, each kept alert written once after', () => {
  const errors: string[] = [];
  const fired: AlertView[] = [];
  const cleared: (AlertView | null)[] = [];
  const writes = new AlertWrites(new AlertStore(db), { onError: (e) => errors.push(e instanceof Error ? e.message : String(e)), maxPending: 10 });
  db.pragma('query_only = ON'); // every write fails with SQLITE_READONLY
  for (let i = 0; i < 100; i++) {
    writes.fire('rule-1', start(i * 10), (a) => fired.push(a));
    writes.end('rule-1', i * 10 + 5, (a) => cleared.push(a));
    writes.drain(); // a tick
    expect(writes.pending).toBeLessThanOrEqual(10);
  }
  expect(errors.filter((e) => e.startsWith('Could not store'))).toHaveLength(1);
  expect(errors.filter((e) => e.includes('dropped'))).toHaveLength(1);
  expect(errors).toHaveLength(2);

  db.pragma('query_only = OFF');
  expect(writes.drain()).toBe('stored');
  writes.drain();
  const rows = db.prepare('SELECT started_at, ended_at FROM alert ORDER BY started_at').all() as { started_at: number; ended_at: number }[];
  // The newest ten flaps, each one row, already ended.
  expect(rows).toEqual(Array.from({ length: 10 }, (_, k) => ({ started_at: (90 + k) * 10, ended_at: (90 + k) * 10 + 5 })));
  expect(fired).toHaveLength(10);
  expect(cleared.map((a) => a?.endedAt)).toEqual(rows.map((r) => r.ended_at));
});
