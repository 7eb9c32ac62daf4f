/**
 * A Redis that answers reads but refuses writes (full at maxmemory with noeviction, a read-only replica):
 * every reservation fails, so the store is in fallback however well the views' reads go, until a
 * reservation succeeds again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { BACK_AFTER, RedisSlotStore } from '../../electron/client/redis-slot-store';
import { hasRedisServer, startRedisServer, until, type RedisServer } from '../helpers/redis-server';

const hasRedis = hasRedisServer();

describe.skipIf(!hasRedis)('a Redis that refuses writes (real redis-server)', () => {
  let redis: RedisServer;

  beforeAll(async () => {
    redis = await startRedisServer();
  });

  afterAll(async () => {
    await redis?.stop();
  });

  it("stays in fallback while the views' reads succeed, and comes back by successful reservations", async () => {
    const lines: string[] = [];
    const store = new RedisSlotStore(redis.url(0), (l) => lines.push(l));
    const admin = new Redis(redis.url(0));
    const states: string[] = [];
    try {
      await until(() => store.status().state === 'connected');
      const key = `test:full:${Date.now()}`;
      expect(await store.reserve(key, 20)).not.toBeNull();
      store.onStatus((s) => states.push(s.state));
      await admin.config('SET', 'maxmemory-policy', 'noeviction');
      await admin.config('SET', 'maxmemory', '1');
      expect(await store.reserve(key, 20)).toBeNull();
      expect(store.status()).toMatchObject({ state: 'fallback', detail: expect.stringMatching(/OOM/) });
      // The Fleet view polls: its reads answer, and say nothing about whether a slot can be written.
      for (let i = 0; i < BACK_AFTER * 2; i++) {
        expect(await store.granted([key], 5)).not.toBeNull();
        expect(store.status().state).toBe('fallback');
      }
      expect(lines.filter((l) => /is back;/.test(l))).toHaveLength(0);
      await admin.config('SET', 'maxmemory', '0');
      for (let i = 0; i < BACK_AFTER; i++) expect(await store.reserve(key, 1_000)).not.toBeNull();
      expect(store.status().state).toBe('connected');
      expect(states).toEqual(['fallback', 'connected']);
    } finally {
      await admin.config('SET', 'maxmemory', '0').catch(() => undefined);
      admin.disconnect();
      await store.close();
    }
  });
});
