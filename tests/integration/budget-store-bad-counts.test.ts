/**
 * Values under a budget key's per-second counts (`<key>:n:<second>`) that no worker of ours wrote
 * (another program, a hand edit, a bad restore): text, `1e400`, `nan`, a negative number or another
 * type. A reservation must still get a slot (the store stays connected, nothing half-written), and
 * the fleet's use read for the views must be counts of 0 or more, never an error or a negative number.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { RedisSlotStore } from '../../electron/client/redis-slot-store';
import { hasRedisServer, startRedisServer, until, type RedisServer } from '../helpers/redis-server';

const hasRedis = hasRedisServer();

const values: [string, (admin: Redis, name: string) => Promise<unknown>][] = [
  ['soon', (a, n) => a.set(n, 'soon')],
  ['1e400', (a, n) => a.set(n, '1e400')],
  ['nan', (a, n) => a.set(n, 'nan')],
  ['-5', (a, n) => a.set(n, '-5')],
  ['a list', (a, n) => a.rpush(n, '3')],
];

describe.skipIf(!hasRedis)('bad values stored under a budget key’s per-second counts (real redis-server)', () => {
  let redis: RedisServer;
  let store: RedisSlotStore;
  let admin: Redis;
  const lines: string[] = [];

  beforeAll(async () => {
    redis = await startRedisServer(600_000);
    store = new RedisSlotStore(redis.url(0), (l) => lines.push(l), undefined, { startMs: 20, floorMs: 5, mostMs: 60, narrowMsPerSecond: 0 });
    admin = new Redis(redis.url(0));
    await until(() => store.status().state === 'connected');
    expect(await store.reserve(`test:warm:${Date.now()}`, 20)).not.toBeNull(); // past the first-answer allowance
  });

  afterAll(async () => {
    await store?.close();
    admin?.disconnect();
    await redis?.stop();
  });

  it.each(values)('counts of %s: read as 0, and a reservation gets a slot that is counted as 1', async (label, put) => {
    const key = `test:counts:${label}:${Date.now()}`;
    const second = Number((await admin.time())[0]);
    const seconds = Array.from({ length: 10 }, (_, i) => second - 6 + i);
    for (const s of seconds) await put(admin, `${key}:n:${s}`);

    const use = await store.granted([key], 5);
    expect(use).not.toBeNull();
    expect(use!.counts[0]).toEqual([0, 0, 0, 0, 0]);

    const slot = await store.reserve(key, 20);
    expect(slot?.waitMs).toBe(0);
    expect(store.status().state).toBe('connected');
    expect(lines.filter((l) => l.includes('not an integer') || l.includes('WRONGTYPE'))).toEqual([]);
    // The slot's second (now, on Redis's clock) holds a count of 1 again; the TAT was written.
    const now = await Promise.all(seconds.slice(6).map((s) => admin.get(`${key}:n:${s}`).catch(() => null)));
    expect(now).toContain('1');
    expect(Number.isFinite(Number(await admin.get(key)))).toBe(true);
    expect((await store.reserve(key, 20))?.waitMs).toBeGreaterThan(30);

    const after = await store.granted([key], 8);
    expect(after).not.toBeNull();
    for (const c of after!.counts[0]!) expect(c === 0 || c === 1 || c === 2).toBe(true);
  });
});
