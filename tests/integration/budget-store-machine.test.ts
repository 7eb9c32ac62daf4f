/**
 * The machine store (machine-slot-store.ts) on real files: two stores on one file are two processes of one
 * machine (each its own SQLite connection and lock), so they share one schedule; a file that cannot be
 * used sends requests on the headers (null) and never throws; a damaged file is started afresh.
 */
import { closeSync, mkdtempSync, openSync, readdirSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MachineSlotStore, machineStoreFile, PACE_KEPT_MS } from '../../electron/client/machine-slot-store';
import { STORE_FILE_NAME } from '../../electron/client/machine-store-file';
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
    // A worker silent for longer than PACE_KEPT_MS after its slot is gone: only the live one's pace counts.
    t += PACE_KEPT_MS + 1_000;
    expect(await a.reserve(KEY, 20, false, 4)).toMatchObject({ paced: true });
    // (The spread has narrowed to its floor over the minute.)
    expect((await a.reserve(KEY, 20, false, 4))!.waitMs).toBe(Math.floor((1000 + DEFAULT_SPACING.floorMs) / 4));
  });

  it("ignores another writer's paces that are not numbers, and never runs slower than one a second", async () => {
    const a = store(() => T0);
    await a.reserve(KEY, 20, false, 20);
    const db = new Sqlite(file);
    db.prepare("INSERT OR REPLACE INTO slot_pace (key, worker, pace, until) VALUES (?, 'x', 'fast', ?)").run(KEY, T0);
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

  it('a damaged file is set aside and a new one started, never deleted under the others', async () => {
    writeFileSync(file, 'this is not a database, but it is long enough to look like a header of one '.repeat(20));
    const log: string[] = [];
    const a = store(() => T0, log);
    expect(a.status().state).toBe('fallback');
    expect(log[0]).toMatch(/set aside as .*\.damaged-\d+, a new one is started/);
    expect(readdirSync(dir).some((f) => f.startsWith('budget-slots.sqlite.damaged-'))).toBe(true);
    expect(await a.reserve(KEY, 20)).toEqual({ waitMs: 0, graceMs: DEFAULT_SPACING.startMs, lateMs: 0 });
    expect(a.status().state).toBe('connected');
    expect(log[1]).toMatch(/is back/);
  });

  it('two live processes that meet a damaged file end on one schedule, not on two files', async () => {
    const t = T0;
    const a = store(() => t);
    const b = store(() => t);
    await a.reserve('warm', 20);
    await b.reserve('warm', 20);
    const c = new Sqlite(file);
    c.pragma('wal_checkpoint(TRUNCATE)');
    c.close();
    const size = statSync(file).size;
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(size, 0x5a), 0, size, 0);
    closeSync(fd);
    expect(await a.reserve('warm', 20)).toBeNull(); // a meets the damage: sets the file aside
    const waits = [(await a.reserve(KEY, 1))?.waitMs];
    // b meets it on its old handle: the path names a's new file already, which b must not set aside but join.
    expect(await b.reserve(KEY, 1)).toBeNull();
    waits.push((await b.reserve(KEY, 1))?.waitMs, (await a.reserve(KEY, 1))?.waitMs, (await store(() => t).reserve(KEY, 1))?.waitMs);
    // One schedule at 1 a second: four slots asked at one instant are 1025 ms apart.
    expect(waits).toEqual([0, 1025, 2050, 3075]);
  });

  it('a file whose tables have another shape (another version) is set aside, not fallback for ever', async () => {
    const db = new Sqlite(file);
    db.exec('CREATE TABLE slot_schedule (key TEXT PRIMARY KEY, tat REAL) WITHOUT ROWID;');
    db.close();
    const a = store(() => T0);
    expect(await a.reserve(KEY, 20)).not.toBeNull();
  });

  it('a next slot stored further ahead than any reservation puts it (another writer) is none, not a wait for ever', async () => {
    let t = T0;
    const a = store(() => t);
    await a.reserve(KEY, 20);
    const db = new Sqlite(file);
    db.prepare('UPDATE slot_schedule SET tat = ? WHERE key = ?').run(T0 + 1e12, KEY);
    db.close();
    t += 1_000;
    expect(await a.reserve(KEY, 20)).toMatchObject({ waitMs: 0 });
  });

  it("a gone worker's pace stops counting, also after the clock steps back or when another writer's row is text", async () => {
    let t = T0;
    const a = store(() => t);
    const b = store(() => t);
    await a.reserve(KEY, 20, false, 5);
    await b.reserve(KEY, 20, false, 5);
    const db = new Sqlite(file);
    db.prepare("INSERT INTO slot_pace (key, worker, pace, until) VALUES (?, 'ghost', 15, 'soon')").run(KEY);
    db.close();
    t = T0 - 3_600_000; // b's process is gone, and the clock steps back an hour
    await a.reserve(KEY, 20, false, 5);
    t += PACE_KEPT_MS + 1_000;
    const first = (await a.reserve(KEY, 20, false, 5))!;
    const second = (await a.reserve(KEY, 20, false, 5))!;
    expect(first.paced).toBe(true);
    expect(second.waitMs - first.waitMs).toBeGreaterThanOrEqual(190); // a alone at 5 a second
  });

  /** Slots per second that `n` sequential workers at `pace` get from one store, each asking again `answerMs` after its slot (minutes 1-4). */
  async function fleetRate(n: number, pace: number, limit: number, answerMs: number): Promise<number> {
    let t = T0;
    const workers = Array.from({ length: n }, (_, i) => ({ s: store(() => t), next: T0 + i * 10 }));
    let slots = 0;
    for (;;) {
      const w = workers.reduce((m, x) => (x.next < m.next ? x : m));
      if (w.next >= T0 + 240_000) break;
      t = w.next;
      const slot = await w.s.reserve(KEY, limit, false, pace);
      const sendAt = slot ? t + slot.waitMs : t;
      if (slot && sendAt >= T0 + 60_000) slots++;
      w.next = sendAt + answerMs;
    }
    return slots / 180;
  }

  it('keeps counting a worker while it waits for its slot: 16 paces of 0.4 a second run at 6.4, not at the floor', async () => {
    expect(await fleetRate(16, 0.4, 20, 50)).toBeGreaterThan(0.8 * 16 * 0.4);
  });

  it('keeps counting a worker while a slow service answers it: 16 at 0.25 a second, answers in 4 s, run at 4', async () => {
    expect(await fleetRate(16, 0.25, 5, 4_000)).toBeGreaterThan(0.8 * 4);
  });

  it('a reading that succeeds while every reservation fails (a read-only file, a full disk) does not say the store is back', async () => {
    let t = T0;
    const log: string[] = [];
    const a = store(() => t, log);
    await a.reserve(KEY, 20);
    const db = new Sqlite(file);
    db.exec("CREATE TRIGGER no_write BEFORE INSERT ON slot_schedule BEGIN SELECT RAISE(ABORT, 'attempt to write a readonly database'); END;");
    db.close();
    for (let i = 0; i < 3; i++) {
      t += 6_000;
      await a.granted([KEY], 5);
      await a.reserve(KEY, 20);
    }
    expect(log).toHaveLength(1);
    expect(a.status().state).toBe('fallback');
  });

  it('a process holding the file locked costs a reservation a few ms of the event loop, not a long wait', async () => {
    let t = T0;
    const holder = new Sqlite(file);
    holder.pragma('journal_mode = WAL');
    holder.pragma('locking_mode = EXCLUSIVE');
    holder.exec('CREATE TABLE IF NOT EXISTS x (y); INSERT INTO x VALUES (1);');
    try {
      const a = store(() => t);
      const blocked: number[] = [];
      for (let i = 0; i < 3; i++) {
        t += 5_001;
        const at = performance.now();
        expect(await a.reserve(KEY, 20)).toBeNull();
        blocked.push(performance.now() - at);
      }
      expect(Math.max(...blocked)).toBeLessThan(200);
    } finally {
      holder.close();
    }
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
    expect(machineStoreFile({ PARTNER_CONSOLE_STORE_DIR: '/tmp/x' }, 'linux')).toBe(join('/tmp/x', STORE_FILE_NAME));
    expect(machineStoreFile({ XDG_CACHE_HOME: '/c' }, 'linux')).toBe(join('/c', 'partner-console', STORE_FILE_NAME));
    expect(machineStoreFile({}, 'darwin')).toMatch(/Library[\\/]Caches[\\/]partner-console[\\/]budget-slots-1\.sqlite$/);
    // Relative or empty folders would give each working folder a store of its own: the default instead.
    expect(machineStoreFile({ PARTNER_CONSOLE_STORE_DIR: 'stores', XDG_CACHE_HOME: 'cache' }, 'linux')).toBe(
      join(homedir(), '.cache', 'partner-console', STORE_FILE_NAME),
    );
    expect(machineStoreFile({ LOCALAPPDATA: '' }, 'win32')).toBe(join(homedir(), 'AppData', 'Local', 'partner-console', STORE_FILE_NAME));
  });
});
