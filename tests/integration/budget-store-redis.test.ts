/**
 * The Redis budget store against a real redis-server on a free loopback port: the GCRA script keeps
 * several store instances (workers) within the limit together; killed Redis means headers only at
 * once, and the store comes back by itself when Redis does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { BACK_AFTER, RedisSlotStore } from '../../electron/client/redis-slot-store';
import { DEFAULT_SPACING, type Spacing } from '../../electron/client/fleet-slot-store';
import { hasRedisServer, startRedisServer, until, type RedisServer } from '../helpers/redis-server';
import { BudgetRegistry, PartnerClient, ScopeStores } from '../../electron/client';
import { startSimulator } from '../../electron/simulator';
import { seededRandom } from '../../electron/client/testing';
import type { BudgetSample } from '../../shared/rate-limit';
import { addWaitCauses, emptyWaitCauses, rankedWaitCauses, waitCausesTotal } from '../../shared/wait-causes';

const hasRedis = hasRedisServer();
if (!hasRedis) console.warn('budget-store-redis: skipped, redis-server is not installed (apt-get install redis-server)');

describe.skipIf(!hasRedis)('Redis budget store (real redis-server)', () => {
  let redis: RedisServer;
  const stores: RedisSlotStore[] = [];
  const lines: string[] = [];
  const store = (spacing?: Spacing): RedisSlotStore => {
    const s = new RedisSlotStore(redis.url(0), (l) => lines.push(l), undefined, spacing);
    stores.push(s);
    return s;
  };

  /** The wait of one reservation (null: unavailable). */
  const waitOf = async (w: RedisSlotStore, key: string, refused = false): Promise<number | null> => (await w.reserve(key, 20, refused))?.waitMs ?? null;

  beforeAll(async () => {
    redis = await startRedisServer();
  });

  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await redis?.stop();
  });

  it('GCRA: three workers reserving 60 slots of 20/s at once get slots 50 ms apart, never two in one slot', async () => {
    const workers = [store(), store(), store()];
    await until(() => workers.every((w) => w.status().state === 'connected'));
    const key = `test:gcra:${Date.now()}`;
    const t0 = Date.now();
    const waits = await Promise.all(Array.from({ length: 60 }, (_, i) => waitOf(workers[i % 3]!, key)));
    const asked = Date.now() - t0;
    expect(waits.every((w) => typeof w === 'number')).toBe(true);
    const slots = (waits as number[]).sort((a, b) => a - b);
    // Reservations were made within `asked` ms of each other: slot k is at k*50 ms from the first.
    for (let k = 1; k < slots.length; k++) expect(slots[k]! - slots[k - 1]!).toBeGreaterThanOrEqual(50 - asked - 1);
    expect(slots.at(-1)!).toBeGreaterThanOrEqual(59 * 50 - asked - 1);
    // In any second of slot times, at most 20.
    const absolute = slots.map((w) => w);
    for (const s of absolute) expect(absolute.filter((x) => x >= s && x < s + 1000).length).toBeLessThanOrEqual(20 + 1);
  });

  it("the workers' own paces: where their sum is under the limit (consumers outside the store) slots are spaced by it and say so; else by the limit", async () => {
    const [a, b] = [store(), store()];
    await until(() => [a, b].every((w) => w.status().state === 'connected'));
    const key = `test:pace:${Date.now()}`;
    const t0 = Date.now();
    const first = (await a.reserve(key, 20, false, 3))!;
    const second = (await b.reserve(key, 20, false, 5))!;
    const third = (await a.reserve(key, 20, false, 3))!;
    const asked = Date.now() - t0;
    expect([first.paced, second.paced, third.paced]).toEqual([true, true, true]);
    // 3 alone, then 3 + 5: (1000 + 25) / 3 and / 8 ms apart, less the time the asking took.
    expect(second.waitMs).toBeGreaterThanOrEqual(1025 / 3 - asked - 1);
    expect(third.waitMs - second.waitMs).toBeGreaterThanOrEqual(1025 / 8 - asked - 1);
    expect(third.waitMs - second.waitMs).toBeLessThan(1025 / 3);
    // Paces that reach the limit: the limit, nothing said.
    const other = `test:pace-full:${Date.now()}`;
    expect(await a.reserve(other, 20, false, 12)).toMatchObject({ paced: true });
    expect(await b.reserve(other, 20, false, 12)).not.toHaveProperty('paced');
    // Another writer's fields in the hash are dropped, never summed.
    const inspector = new Redis(redis.url(0));
    try {
      await inspector.hset(`${other}:pace`, 'ghost', '15:soon', 'flood', 'x');
      expect(await b.reserve(other, 20, false, 12)).not.toHaveProperty('paced');
      expect(await inspector.hkeys(`${other}:pace`)).toHaveLength(2);
      // A closed worker's pace goes with it: b alone again is under the limit beside others.
      await a.close();
      expect(await inspector.hkeys(`${other}:pace`)).toHaveLength(1);
      expect(await b.reserve(other, 20, false, 12)).toMatchObject({ paced: true });
    } finally {
      inspector.disconnect();
    }
  });

  it("another program's value of another type beside the key (a string, a list) is replaced, not a failure of every reservation", async () => {
    const a = store();
    await until(() => a.status().state === 'connected');
    const key = `test:wrongtype:${Date.now()}`;
    const inspector = new Redis(redis.url(0));
    try {
      await inspector.set(`${key}:pace`, 'not a hash');
      await inspector.rpush(`${key}:spread`, 'not', 'a', 'hash');
      for (let i = 0; i < 3; i++) expect(await a.reserve(key, 20, false, 3)).not.toBeNull();
      expect(a.status().state).toBe('connected');
      expect(await inspector.type(`${key}:pace`)).toBe('hash');
    } finally {
      inspector.disconnect();
    }
  });

  it('a store still connecting is not down: a reservation made right after start waits for the connection and gets a slot', async () => {
    // A fleet started together: falling back here would send every worker on headers alone at once.
    const fresh = store();
    expect(fresh.status().state).toBe('connecting');
    const wait = await waitOf(fresh, `test:first:${Date.now()}`);
    expect(wait).toBe(0);
    expect(fresh.status().state).toBe('connected');
  });

  /** 21 slots reserved at once under `key`: slot 20 less slot 0, and how long asking took. */
  const secondOf = async (w: RedisSlotStore, key: string, refusedFirst = false): Promise<{ span: number; asked: number }> => {
    const t0 = Date.now();
    const slots = (await Promise.all(Array.from({ length: 21 }, (_, i) => waitOf(w, key, refusedFirst && i === 0)))) as number[];
    const asked = Date.now() - t0;
    slots.sort((a, b) => a - b);
    return { span: slots[20]! - slots[0]!, asked };
  };

  it('slots leave room for late arrivals: a new key spaces 20 slots over 1000 ms + the starting spread, so no second of late arrivals holds more than the limit', async () => {
    const w = store();
    await until(() => w.status().state === 'connected');
    const { span, asked } = await secondOf(w, `test:spread:${Date.now()}`);
    // One slot late by the spread and the next on time never share a second with 20 others.
    expect(span).toBeGreaterThanOrEqual(1000 + DEFAULT_SPACING.startMs - asked - 1);
    expect(span).toBeLessThanOrEqual(1000 + DEFAULT_SPACING.startMs + 1);
  });

  it("an answer read late (this process busy when Redis answered) says how late, on Redis's clock", async () => {
    // A 1 s allowance, so that the busy process's answer is read rather than timed out.
    const w = new RedisSlotStore(redis.url(0), (l) => lines.push(l), 1_000);
    stores.push(w);
    await until(() => w.status().state === 'connected');
    const key = `test:lag:${Date.now()}`;
    for (let i = 0; i < 5; i++) expect((await w.reserve(key, 1_000))?.lateMs).toBeLessThan(100);
    const pending = w.reserve(key, 1_000);
    // Redis answers within a few ms; the answer is read after this.
    const busyUntil = Date.now() + 200;
    while (Date.now() < busyUntil);
    const slot = await pending;
    expect(slot?.lateMs).toBeGreaterThanOrEqual(120);
    expect(slot?.lateMs).toBeLessThan(400);
  });

  it('a worker busier than the allowance reads the answer already there: not a slow Redis, and its slot is late', async () => {
    const w = store();
    await until(() => w.status().state === 'connected');
    const key = `test:busy:${Date.now()}`;
    for (let i = 0; i < 5; i++) await w.reserve(key, 1_000);
    const pending = w.reserve(key, 1_000);
    const busyUntil = Date.now() + 150; // past the 100 ms allowance; Redis answered within a few ms
    while (Date.now() < busyUntil);
    const slot = await pending;
    expect(slot?.lateMs).toBeGreaterThanOrEqual(100);
    expect(w.status().state).toBe('connected');
  });

  it('the spread narrows while nobody is refused, down to its floor', async () => {
    const w = store({ ...DEFAULT_SPACING, narrowMsPerSecond: 1_000 }); // 1 ms per ms: the floor within 20 ms
    await until(() => w.status().state === 'connected');
    const key = `test:narrow:${Date.now()}`;
    expect(await waitOf(w, key)).toBe(0);
    await new Promise((r) => setTimeout(r, 60));
    const { span, asked } = await secondOf(w, key);
    expect(span).toBeGreaterThanOrEqual(1000 + DEFAULT_SPACING.floorMs - asked - 1);
    expect(span).toBeLessThanOrEqual(1000 + DEFAULT_SPACING.floorMs + 1);
  });

  it('a reported 429 doubles the spread (at least to the start, at most to the widest), once a second however many report it', async () => {
    const w = store({ startMs: 20, floorMs: 5, mostMs: 60, narrowMsPerSecond: 0 });
    await until(() => w.status().state === 'connected');
    const key = `test:widen:${Date.now()}`;
    const before = await secondOf(w, key);
    expect(before.span).toBeLessThanOrEqual(1020 + 1);
    expect((await w.reserve(key, 20))?.graceMs).toBe(20); // a slot's grace for sending late is the spread
    // Three workers report the same late slot's 429s: one widening, 20 -> 40.
    await Promise.all([waitOf(w, key, true), waitOf(w, key, true), waitOf(w, key, true)]);
    const after = await secondOf(w, key);
    expect((await w.reserve(key, 20))?.graceMs).toBe(40);
    expect(after.span).toBeGreaterThanOrEqual(1040 - after.asked - 1);
    expect(after.span).toBeLessThanOrEqual(1040 + 1);
    // A second later another report widens again, capped at the widest (60, not 80).
    await new Promise((r) => setTimeout(r, 1_050));
    const capped = await secondOf(w, key, true);
    expect(capped.span).toBeGreaterThanOrEqual(1060 - capped.asked - 1);
    expect(capped.span).toBeLessThanOrEqual(1060 + 1);
  });

  it('an idle key does not bank a burst: after a pause the next slot is now, then spaced again', async () => {
    const w = store();
    await until(() => w.status().state === 'connected');
    const key = `test:idle:${Date.now()}`;
    expect(await waitOf(w, key)).toBe(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(await waitOf(w, key)).toBe(0);
    expect(await waitOf(w, key)).toBeGreaterThan(40);
  });

  /** Redis's own clock, in ms (the script's `now`). */
  const redisNow = async (admin: Redis): Promise<number> => {
    const [sec, micro] = (await admin.call('TIME')) as [string, string];
    return Number(sec) * 1000 + Math.floor(Number(micro) / 1000);
  };

  it("a stored time far ahead of Redis's clock with no slot before it (another writer, a clock step) is reset: the request goes at once, and the log says so", async () => {
    const w = store();
    const admin = new Redis(redis.url(0));
    try {
      await until(() => w.status().state === 'connected');
      const key = `test:ahead:${Date.now()}`;
      await admin.set(key, String((await redisNow(admin)) + 86_400_000));
      const t = Date.now();
      const slot = await w.reserve(key, 20);
      expect(slot?.waitMs).toBe(0);
      expect(Date.now() - t).toBeLessThan(1_000);
      expect(w.status().state).toBe('connected');
      expect(lines.some((l) => l.includes(key) && /was 24 h ahead .*reset to now/.test(l))).toBe(true);
      // The schedule goes on from now: the next slot is one interval later, not a day.
      const next = (await w.reserve(key, 20))!.waitMs;
      expect(next).toBeGreaterThan(30);
      expect(next).toBeLessThanOrEqual(60);
    } finally {
      admin.disconnect();
    }
  });

  it('through the client: with the key a day ahead, an interactive request goes at once, not after the 60 s cap', async () => {
    const sim = await startSimulator({ port: 0, catalogSize: 50, random: seededRandom(9) });
    const budgets = new BudgetRegistry();
    const stores = new ScopeStores();
    const admin = new Redis(redis.url(0));
    const client = new PartnerClient({ baseUrl: sim.url, vendor: 'demo', tokens: ['demo-token-1'], budgets, stores });
    try {
      stores.take({ baseUrl: sim.url, vendor: 'demo' }, redis.url(0), (l) => lines.push(l));
      await client.request('categories'); // connected, and the key exists
      const [key] = await admin.keys('partner-console:budget:*:categories');
      expect(key).toBeDefined();
      await admin.set(key!, String((await redisNow(admin)) + 86_400_000));
      const t = Date.now();
      await client.request('categories', { priority: 'interactive' });
      expect(Date.now() - t).toBeLessThan(2_000);
    } finally {
      client.close();
      budgets.dispose();
      stores.closeAll();
      admin.disconnect();
      await sim.stop();
    }
  }, 15_000);

  it("wait causes (issue 22): two workers on one store, 20 requests at once: the store's slots hold them, and the parts add up to the measured wait", async () => {
    const sim = await startSimulator({ port: 0, catalogSize: 50, random: seededRandom(11) });
    // Two workers as two processes would be: each its own registry and its own lease of the scope's store.
    const registries = [new BudgetRegistry(), new BudgetRegistry()];
    const storesOf = registries.map(() => new ScopeStores());
    const clients = registries.map(
      (budgets, i) => new PartnerClient({ baseUrl: sim.url, vendor: 'demo', tokens: ['demo-token-1'], budgets, stores: storesOf[i] }),
    );
    const samples: BudgetSample[] = [];
    try {
      for (const stores of storesOf) stores.take({ baseUrl: sim.url, vendor: 'demo' }, redis.url(0), (l) => lines.push(l));
      await Promise.all(clients.map((c) => c.request('categories'))); // connected
      clients.forEach((c) => c.onSample((s) => samples.push(s)));
      await Promise.all(clients.flatMap((c) => Array.from({ length: 10 }, () => c.request('categories', { priority: 'background' }))));
      expect(samples.length).toBe(20);
      const causes = emptyWaitCauses();
      let waited = 0;
      for (const s of samples) {
        expect(Math.abs(waitCausesTotal(s.waitCauses!) - s.waitedMs)).toBeLessThanOrEqual(0.05 * s.waitedMs + 1);
        addWaitCauses(causes, s.waitCauses);
        waited += s.waitedMs;
      }
      // 20 slots 50 ms apart: about half a second of waiting on average.
      expect(waited).toBeGreaterThan(20 * 300);
      expect(Math.abs(waitCausesTotal(causes) - waited)).toBeLessThanOrEqual(0.05 * waited);
      expect(rankedWaitCauses(causes)[0]).toBe('store');
      expect(causes.store / waited).toBeGreaterThan(0.8);
    } finally {
      clients.forEach((c) => c.close());
      registries.forEach((r) => r.dispose());
      storesOf.forEach((stores) => stores.closeAll());
      await sim.stop();
    }
  }, 15_000);

  it("Redis's clock an hour behind the one the key's slots were granted on (a failover, a step back): the backlog keeps its length, not the hour", async () => {
    const w = store();
    const admin = new Redis(redis.url(0));
    try {
      await until(() => w.status().state === 'connected');
      const key = `test:behind:${Date.now()}`;
      // As the script left it on a host whose clock was an hour ahead: a backlog of 500 ms, its last slot counted.
      const then = (await redisNow(admin)) + 3_600_000;
      await admin.set(key, String(then + 500));
      await admin.set(`${key}:n:${Math.floor((then + 450) / 1000)}`, '1');
      await admin.hset(`${key}:spread`, 'ms', '25', 'at', String(then), 'widened', '0');
      const slot = await w.reserve(key, 20);
      expect(slot).not.toBeNull();
      expect(slot!.waitMs).toBeLessThanOrEqual(500);
      expect(slot!.waitMs).toBeGreaterThan(400);
      expect(w.status().state).toBe('connected');
    } finally {
      admin.disconnect();
    }
  });

  it('the same an hour behind with a backlog past the most anyone waits: refused, and the hour is not asked for again', async () => {
    const w = store();
    const admin = new Redis(redis.url(0));
    try {
      await until(() => w.status().state === 'connected');
      const key = `test:behind-far:${Date.now()}`;
      const then = (await redisNow(admin)) + 3_600_000;
      await admin.set(key, String(then + 60_300));
      await admin.set(`${key}:n:${Math.floor((then + 60_250) / 1000)}`, '1');
      await admin.hset(`${key}:spread`, 'ms', '25', 'at', String(then), 'widened', '0');
      expect(await w.reserve(key, 20)).toBeNull();
      // The step back was kept with the refusal: the backlog is 60.3 s, not an hour and a minute, and still the
      // fleet's own on the next call (not reset to now, which would hand its slots out again).
      expect(Number(await admin.get(key)) - (await redisNow(admin))).toBeLessThan(61_000);
      expect(await w.reserve(key, 20)).toBeNull();
      expect(Number(await admin.get(key)) - (await redisNow(admin))).toBeGreaterThan(59_000);
    } finally {
      admin.disconnect();
    }
  });

  it('a slot further off than anyone waits is garbage: headers only, and the status says why', async () => {
    const w = store();
    const admin = new Redis(redis.url(0));
    try {
      await until(() => w.status().state === 'connected');
      const key = `test:garbage-wait:${Date.now()}`;
      // A writer that also forged the count of a slot before its time: the script keeps it; the client must not.
      const far = (await redisNow(admin)) + 86_400_000;
      await admin.set(key, String(far));
      await admin.set(`${key}:n:${Math.floor((far - 50) / 1000)}`, '1');
      await admin.hset(`${key}:spread`, 'ms', '25', 'at', String(far - 86_400_000), 'widened', '0');
      const t = Date.now();
      expect(await w.reserve(key, 20)).toBeNull();
      expect(Date.now() - t).toBeLessThan(1_000);
      expect(w.status()).toMatchObject({ state: 'fallback', detail: expect.stringMatching(/a slot 24 h away \(longer than anyone waits/) });
    } finally {
      admin.disconnect();
    }
  });

  it('a Redis that hangs (CLIENT PAUSE) while workers keep asking: after it resumes, slots are near again, not pushed out by every abandoned reservation', async () => {
    const w = store();
    await until(() => w.status().state === 'connected');
    const key = `test:hang:${Date.now()}`;
    expect(await waitOf(w, key)).not.toBeNull();
    const admin = new Redis(redis.url(0));
    try {
      await admin.call('CLIENT', 'PAUSE', '2500', 'ALL');
      // One reservation times out; the next ones are not asked while it is pending, and count as slow: the store
      // falls back (the fleet paces on its granted shares), as after timeouts.
      expect(await w.reserve(key, 20)).toBeNull();
      await new Promise((r) => setTimeout(r, 350));
      for (let i = 0; i < 3; i++) expect(await w.reserve(key, 20)).toBeNull();
      expect(w.status().state).toBe('fallback');
      // Then 200 requests a second for 2 s, each on the headers.
      for (let i = 0; i < 400; i++) {
        void w.reserve(key, 20);
        await new Promise((r) => setTimeout(r, 5));
      }
      await new Promise((r) => setTimeout(r, 1_000));
      let after: number | null = null;
      for (let tries = 0; after === null && tries < 200; tries++) {
        after = await waitOf(w, key);
        if (after === null) await new Promise((r) => setTimeout(r, 25));
      }
      // What is left is the slots of requests that waited through the pause for the pending one (and those that
      // timed out in its first 100 ms), a few seconds; every abandoned reservation was 20 s.
      expect(after).not.toBeNull();
      expect(after!).toBeLessThan(5_000);
    } finally {
      admin.disconnect();
    }
  });

  it('a stall shorter than a few answers does not flip the store: requests during it go on the headers, the state holds', async () => {
    const w = store();
    await until(() => w.status().state === 'connected');
    const key = `test:stall:${Date.now()}`;
    const admin = new Redis(redis.url(0));
    try {
      expect(await waitOf(w, key)).not.toBeNull();
      await admin.call('CLIENT', 'PAUSE', '160', 'ALL');
      expect(await w.reserve(key, 20)).toBeNull();
      await new Promise((r) => setTimeout(r, 10));
      await w.reserve(key, 20);
      await w.reserve(key, 20);
      expect(w.status().state).toBe('connected');
    } finally {
      admin.disconnect();
    }
  });

  it('a slot further off than anyone waits is not granted: asking again does not push the schedule further out', async () => {
    const w = store();
    await until(() => w.status().state === 'connected');
    const key = `test:far:${Date.now()}`;
    const admin = new Redis(redis.url(0));
    try {
      // At one a second, 70 reservations reach past the 60 s anyone waits.
      for (let i = 0; i < 70; i++) await w.reserve(key, 1);
      const before = await admin.get(key);
      expect(await w.reserve(key, 1)).toBeNull();
      expect(await admin.get(key)).toBe(before);
    } finally {
      admin.disconnect();
    }
  });

  it('a spread stored by another program beyond the widest is kept within bounds: one slot a second stays one a second', async () => {
    const w = store();
    await until(() => w.status().state === 'connected');
    const key = `test:spread:${Date.now()}`;
    const admin = new Redis(redis.url(0));
    try {
      await admin.hset(`${key}:spread`, 'ms', '2000');
      expect((await w.reserve(key, 1))?.waitMs).toBe(0);
      expect((await w.reserve(key, 1))?.waitMs).toBeGreaterThanOrEqual(1_000);
      await admin.hset(`${key}:spread`, 'ms', '1e300');
      expect(await w.reserve(key, 1)).not.toBeNull();
    } finally {
      admin.disconnect();
    }
  });

  it('a database the server does not have: headers only, for good, and the status says why (not database 0)', async () => {
    const lost = new RedisSlotStore(redis.url(42), () => undefined);
    stores.push(lost);
    expect(await lost.reserve(`test:db:${Date.now()}`, 20)).toBeNull();
    await new Promise((r) => setTimeout(r, 300));
    expect(await lost.reserve(`test:db:${Date.now()}`, 20)).toBeNull();
    // The Fleet view's reads do not bring it back either (they would run in database 0).
    for (let i = 0; i < 6; i++) expect(await lost.granted([`test:db`], 5)).toBeNull();
    expect(lost.status()).toMatchObject({ state: 'fallback', detail: expect.stringContaining('database') });
  });

  it('`REDISS://` in capitals is TLS as `rediss://` is: against a Redis without TLS it gets no slot (no password in clear)', async () => {
    const tls = new RedisSlotStore(redis.url(0).replace(/^redis:/, 'REDISS:'), () => undefined);
    stores.push(tls);
    expect(await tls.reserve(`test:tls:${Date.now()}`, 20)).toBeNull();
    expect(tls.status()).toMatchObject({ state: 'fallback', where: expect.stringMatching(/^rediss:\/\//) });
  });

  it('Redis killed: reservations answer "unavailable" at once (headers only), a line is logged; it comes back by itself', async () => {
    const w = store();
    const states: string[] = [];
    w.onStatus((s) => states.push(s.state));
    await until(() => w.status().state === 'connected');
    const key = `test:kill:${Date.now()}`;
    expect(await w.reserve(key, 20)).not.toBeNull();
    await redis.stop();
    await until(() => w.status().state === 'fallback');
    const t = Date.now();
    expect(await w.reserve(key, 20)).toBeNull();
    expect(Date.now() - t).toBeLessThan(150);
    expect(lines.some((l) => /unreachable.*headers alone/.test(l))).toBe(true);
    await redis.start();
    await until(() => w.status().state === 'connected', 15_000);
    expect(await w.reserve(key, 20)).not.toBeNull();
    expect(states).toEqual(expect.arrayContaining(['fallback', 'connected']));
  });

  it('a Redis slow now and then: that request goes on the headers and the state holds; slow often: one fallback, back after timely answers, no flapping', async () => {
    const w = store();
    const admin = new Redis(redis.url(0));
    try {
      await until(() => w.status().state === 'connected');
      const key = `test:slow:${Date.now()}`;
      expect(await w.reserve(key, 20)).not.toBeNull();
      const states: string[] = [];
      w.onStatus((s) => states.push(s.state));
      const logged = lines.length;
      // Redis holds every client's commands for 250 ms: the reservation misses its 100 ms.
      const slowOnce = async () => {
        await admin.call('CLIENT', 'PAUSE', '250', 'ALL');
        const wait = await w.reserve(key, 20);
        await new Promise((r) => setTimeout(r, 300));
        return wait;
      };
      expect(await slowOnce()).toBeNull();
      expect(w.status().state).toBe('connected');
      // Every other answer slow: the state falls back once, and stays there while it goes on.
      for (let i = 0; i < 6; i++) {
        expect(await slowOnce()).toBeNull();
        expect(await w.reserve(key, 20)).not.toBeNull();
      }
      expect(states).toEqual(['fallback']);
      expect(w.status().detail).toMatch(/\d+ of the last \d+ reservations took longer than 100 ms/);
      // Timely again, and nothing but the views' reads (an idle app): back after BACK_AFTER quick answers in a row.
      for (let i = 0; i < BACK_AFTER; i++) expect(await w.granted([key], 5)).not.toBeNull();
      expect(states).toEqual(['fallback', 'connected']);
      // Counted afresh from there: one slow answer does not take it away again.
      expect(await slowOnce()).toBeNull();
      expect(w.status().state).toBe('connected');
      expect(lines.slice(logged).filter((l) => /unreachable/.test(l))).toHaveLength(1);
      expect(lines.slice(logged).filter((l) => /is back;/.test(l))).toHaveLength(1);
    } finally {
      admin.disconnect();
    }
  });

  it('a Redis that is up but never answers: the first reservation waits its allowance, then headers only at once', async () => {
    const w = store();
    const admin = new Redis(redis.url(0));
    try {
      await until(() => w.status().state === 'connected');
      await admin.call('CLIENT', 'PAUSE', '2500', 'ALL');
      const pausedAt = Date.now(); // after Redis answered: never before the pause began
      const key = `test:hung:${Date.now()}`;
      expect(await w.reserve(key, 20)).toBeNull();
      expect(w.status()).toMatchObject({ state: 'fallback', detail: 'no answer within 1000 ms' });
      // No second first-answer allowance: the next one gives up within the usual timeout.
      const t = Date.now();
      expect(await w.reserve(key, 20)).toBeNull();
      expect(Date.now() - t).toBeLessThan(900);
      // Until the pause is over (not 2.6 s more): the next test's Redis answers again.
      await new Promise((r) => setTimeout(r, pausedAt + 2600 - Date.now()));
    } finally {
      admin.disconnect();
    }
  });
});
