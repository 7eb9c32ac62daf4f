/**
 * The machine store (machine-slot-store.ts) on real files: two stores on one file are two processes of one
 * machine (each its own SQLite connection and lock), so they share one schedule; a file that cannot be
 * used sends requests on the headers (null) and never throws; a damaged file is started afresh.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MachineSlotStore, machineStoreFile, PACE_KEPT_MS } from '../../electron/client/machine-slot-store';
import { DEFAULT_SPACING } from '../../electron/client/fleet-slot-store';
import { ScopeStores } from '../../electron/client/scope-stores';
import { storeStateView } from '../../electron/app/handlers/fleet';

const Sqlite = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
const T0 = 1_800_000_000_000;
const KEY = 'partner-console:budget:http://127.0.0.1:1:demo:listAssets';

let dir: string;
let file: string;
const open: MachineSlotStore[] = [];

function store(now: () => number, log: string[] = []): MachineSlotStore {
  const s = new MachineSlotStore(file, (line) => log.push(line), DEFAULT_SPACING, now);
  open.push(s);
  return s;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'machine-store-'));
  file = join(dir, 'budget-slots.sqlite');
});
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the machine store', () => {
  it('gives two processes of one machine one schedule: their slots interleave, 1025 / 20 ms apart', async () => {
    const now = () => T0;
    const a = store(now);
    const b = store(now);
    const waits: number[] = [];
    for (let i = 0; i < 10; i++) {
      waits.push((await a.reserve(KEY, 20))!.waitMs);
      waits.push((await b.reserve(KEY, 20))!.waitMs);
    }
    expect(waits).toEqual(Array.from({ length: 20 }, (_, i) => Math.floor((i * 1025) / 20)));
    expect(a.status()).toMatchObject({ state: 'connected', kind: 'machine', where: 'this machine' });
    // Another key (another endpoint or vendor) has its own schedule.
    expect((await b.reserve(`${KEY}-other`, 20))!.waitMs).toBe(0);
  });

  it("runs at the sum of its workers' own paces where that is under the limit (consumers outside the store), else at the limit", async () => {
    let t = T0;
    const a = store(() => t);
    const b = store(() => t);
    // Paces of 3 and 5 per second: 8 of 20 left by consumers outside the store.
    expect(await a.reserve(KEY, 20, false, 3)).toMatchObject({ waitMs: 0, paced: true });
    expect(await b.reserve(KEY, 20, false, 5)).toMatchObject({ waitMs: Math.floor(1025 / 3), paced: true });
    expect(await a.reserve(KEY, 20, false, 3)).toMatchObject({ waitMs: Math.floor(1025 / 3 + 1025 / 8) });
    // Alone again at the limit: the schedule runs at the limit, and says nothing of others.
    t = T0 + 60_000;
    const alone = await a.reserve(KEY, 20, false, 20);
    expect(alone).toEqual({ waitMs: 0, graceMs: expect.any(Number), lateMs: 0 });
    expect(await b.reserve(KEY, 20, false, 12)).not.toHaveProperty('paced');
    // A worker silent for longer than PACE_KEPT_MS is gone: only the live one's pace counts.
    t += PACE_KEPT_MS + 1;
    expect(await a.reserve(KEY, 20, false, 4)).toMatchObject({ paced: true });
    // (The spread has narrowed to its floor over the minute.)
    expect((await a.reserve(KEY, 20, false, 4))!.waitMs).toBe(Math.floor((1000 + DEFAULT_SPACING.floorMs) / 4));
  });

  it("ignores another writer's paces that are not numbers, and never runs slower than one a second", async () => {
    const a = store(() => T0);
    await a.reserve(KEY, 20, false, 20);
    const db = new Sqlite(file);
    db.prepare("INSERT OR REPLACE INTO slot_pace (key, worker, pace, at) VALUES (?, 'x', 'fast', ?)").run(KEY, T0);
    db.close();
    expect(await a.reserve(KEY, 20, false, 20)).not.toHaveProperty('paced');
    const b = store(() => T0);
    await b.reserve(`${KEY}-slow`, 20, false, 0.01);
    expect((await b.reserve(`${KEY}-slow`, 20, false, 0.01))!.waitMs).toBe(Math.floor(1025 / 1));
  });

  it('counts the slots it granted per second, every process together', async () => {
    let t = T0;
    const a = store(() => t);
    const b = store(() => t);
    for (let i = 0; i < 6; i++) await (i % 2 ? a : b).reserve(KEY, 4);
    t = T0 + 3_000;
    const got = await a.granted([KEY, 'nobody'], 3);
    // 6 slots 256.25 ms apart from T0: 4 in its second, 2 in the next.
    expect(got).toEqual({
      fromMs: T0,
      counts: [
        [4, 2, 0],
        [0, 0, 0],
      ],
    });
  });

  it("takes another writer's garbage in the file as absent, not as a wait", async () => {
    const a = store(() => T0);
    await a.reserve(KEY, 20);
    const db = new Sqlite(file);
    db.prepare("UPDATE slot_schedule SET tat = 'soon', at = 1e300, spread_ms = 'x' WHERE key = ?").run(KEY);
    db.prepare("UPDATE slot_count SET n = 'many'").run();
    db.close();
    expect(await a.reserve(KEY, 20)).toEqual({ waitMs: 0, graceMs: DEFAULT_SPACING.startMs, lateMs: 0 });
    const got = await a.granted([KEY], 1);
    expect(got!.counts[0]).toEqual([0]);
  });

  it('sends on the headers while another process holds the lock, and takes the store again once it is free', async () => {
    const a = store(() => T0);
    await a.reserve(KEY, 20);
    const other = new Sqlite(file);
    other.exec('BEGIN EXCLUSIVE');
    expect(await a.reserve(KEY, 20)).toBeNull();
    expect(a.status().state).toBe('connected');
    other.exec('COMMIT');
    other.close();
    expect((await a.reserve(KEY, 20))!.waitMs).toBe(Math.floor(1025 / 20));
  });

  it('a folder it cannot create: headers only, said once, nothing thrown', async () => {
    writeFileSync(join(dir, 'not-a-folder'), '');
    file = join(dir, 'not-a-folder', 'budget-slots.sqlite');
    const log: string[] = [];
    const a = store(() => T0, log);
    expect(await a.reserve(KEY, 20)).toBeNull();
    expect(await a.reserve(KEY, 20)).toBeNull();
    expect(await a.granted([KEY], 5)).toBeNull();
    expect(a.status()).toMatchObject({ state: 'fallback', kind: 'machine' });
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(/this machine's store \(.*not-a-folder.*\) cannot be used \(.+\); pacing from the headers alone/);
  });

  it('a damaged file is started afresh (it holds minutes of schedule, nothing else)', async () => {
    writeFileSync(file, 'this is not a database, but it is long enough to look like a header of one '.repeat(20));
    const log: string[] = [];
    const a = store(() => T0, log);
    expect(a.status().state).toBe('fallback');
    expect(log[0]).toMatch(/started afresh/);
    expect(await a.reserve(KEY, 20)).toEqual({ waitMs: 0, graceMs: DEFAULT_SPACING.startMs, lateMs: 0 });
    expect(a.status().state).toBe('connected');
    expect(log[1]).toMatch(/is back/);
  });

  it('is one store for every scope that names it (one file, one connection), shown as the machine store', async () => {
    const before = process.env.PARTNER_CONSOLE_STORE_DIR;
    process.env.PARTNER_CONSOLE_STORE_DIR = dir;
    const stores = new ScopeStores();
    try {
      const acme = stores.take({ baseUrl: 'http://127.0.0.1:1', vendor: 'acme' }, 'machine');
      const globex = stores.take({ baseUrl: 'http://127.0.0.1:1', vendor: 'globex' }, ' Machine ');
      expect(globex.store).toBe(acme.store);
      expect(stores.openCount).toBe(1);
      expect(await acme.store!.reserve(KEY, 20)).not.toBeNull();
      expect(storeStateView(stores.status({ baseUrl: 'http://127.0.0.1:1', vendor: 'acme' }))).toEqual({
        kind: 'machine',
        url: 'this machine',
        state: 'connected',
        message: 'Every process on this machine that uses this store shares the budget through it.',
      });
      acme.release();
      globex.release();
      expect(stores.openCount).toBe(0);
    } finally {
      stores.closeAll();
      if (before === undefined) delete process.env.PARTNER_CONSOLE_STORE_DIR;
      else process.env.PARTNER_CONSOLE_STORE_DIR = before;
    }
  });

  it('lives in PARTNER_CONSOLE_STORE_DIR, else in the user cache folder of the platform', () => {
    expect(machineStoreFile({ PARTNER_CONSOLE_STORE_DIR: '/tmp/x' }, 'linux')).toBe(join('/tmp/x', 'budget-slots.sqlite'));
    expect(machineStoreFile({ XDG_CACHE_HOME: '/c' }, 'linux')).toBe(join('/c', 'partner-console', 'budget-slots.sqlite'));
    expect(machineStoreFile({ LOCALAPPDATA: 'C:/L' }, 'win32')).toBe(join('C:/L', 'partner-console', 'budget-slots.sqlite'));
    expect(machineStoreFile({}, 'darwin')).toMatch(/Library[\\/]Caches[\\/]partner-console[\\/]budget-slots\.sqlite$/);
  });
});
