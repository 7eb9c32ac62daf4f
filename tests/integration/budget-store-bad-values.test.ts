/**
 * Values under a budget key that no worker of ours wrote (another program, a hand edit, a bad restore):
 * a TAT or spread of `nan`, `inf`, `1e19` or text is absent to the script. It must not loop inside
 * Redis (a script that has written cannot be killed: every client of that Redis would wait), nor error
 * on every reservation, nor stop the spread widening on 429s.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { RedisSlotStore } from '../../electron/client/redis-slot-store';
import { hasRedisServer, startRedisServer, until, type RedisServer } from '../helpers/redis-server';

const hasRedis = hasRedisServer();

describe.skipIf(!hasRedis)('bad values stored under a budget key (real redis-server)', () => {
  let redis: RedisServer;
  let store: RedisSlotStore;
  let admin: Redis;
  let other: Redis;
  const lines: string[] = [];
  const spacing = { startMs: 20, floorMs: 5, mostMs: 60, narrowMsPerSecond: 0 };

  beforeAll(async () => {
    // A ceiling on Redis's memory: a script that runs away ends there instead of taking the machine's.
    redis = await startRedisServer(600_000);
    store = new RedisSlotStore(redis.url(0), (l) => lines.push(l), undefined, spacing);
    admin = new Redis(redis.url(0));
    other = new Redis(redis.url(0));
    await until(() => store.status().state === 'connected');
    expect(await store.reserve(`test:warm:${Date.now()}`, 20)).not.toBeNull(); // past the first-answer allowance
    await other.ping();
  });

  afterAll(async () => {
    await store?.close();
    admin?.disconnect();
    other?.disconnect();
    await redis?.stop();
  });

  it.each(['1e19', 'inf', 'nan', 'soon'])(
    'a TAT of %s: the reservation gets a slot now, the key is rewritten as a time that expires, and Redis answers others meanwhile',
    async (bad) => {
      const key = `test:tat:${bad}:${Date.now()}`;
      await admin.set(key, bad);
      const reserving = store.reserve(key, 20);
      const pong = other.ping().then(() => Date.now());
      const slot = await reserving;
      const answeredAt = Date.now();
      expect(slot?.waitMs).toBe(0);
      expect(store.status().state).toBe('connected');
      // Another client is answered right after the script (a looping script would hold it for seconds).
      const pongAt = await Promise.race([pong, new Promise<number>((r) => setTimeout(() => r(Infinity), 3_000))]);
      expect(pongAt).toBeLessThan(answeredAt + 2_000);
      const stored = Number(await admin.get(key));
      expect(Number.isFinite(stored)).toBe(true);
      expect(await admin.pttl(key)).toBeGreaterThan(0);
      // The next slot is granted on the schedule again: at most one interval (1025 / 20 ms) on, not refused.
      const next = await store.reserve(key, 20);
      expect(next).not.toBeNull();
      expect(next!.waitMs).toBeLessThanOrEqual(52);
      expect(lines.some((l) => l.includes(key) && /reset to now/.test(l))).toBe(true);
    },
    10_000,
  );

  it('a `widened` of nan in the spread: a 429 report still doubles the spread, and the stored value is a time again', async () => {
    const key = `test:widened:${Date.now()}`;
    expect((await store.reserve(key, 20))?.graceMs).toBe(20);
    await admin.hset(`${key}:spread`, 'widened', 'nan');
    expect((await store.reserve(key, 20, true))?.graceMs).toBe(40);
    expect(Number.isFinite(Number(await admin.hget(`${key}:spread`, 'widened')))).toBe(true);
  });

  it.each(['nan', 'inf', '-inf', 'wide'])('every spread field %s: taken as absent, a slot is granted and a 429 report doubles the start', async (bad) => {
    const key = `test:spread:${bad}:${Date.now()}`;
    await admin.hset(`${key}:spread`, 'ms', bad, 'at', bad, 'widened', bad);
    expect((await store.reserve(key, 20, true))?.graceMs).toBe(40);
    const kept = await admin.hgetall(`${key}:spread`);
    expect(Object.values(kept).every((v) => Number.isFinite(Number(v)))).toBe(true);
  });
});
