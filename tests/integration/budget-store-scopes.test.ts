/**
 * The budget store per scope (base URL + vendor), against a real redis-server: scopes naming one
 * Redis share one connection, the store's state as views see it (connecting, connected, fallback
 * when Redis dies, connected when it is back), and the fleet's use as the store counts it.
 */
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BudgetRegistry } from '../../electron/client/budget-registry';
import { PartnerClient } from '../../electron/client';
import { startSimulator } from '../../electron/simulator';
import { seededRandom } from '../../electron/client/testing';
import { DEFAULT_SPACING, storeKey } from '../../electron/client/budget-store';
import { ENDPOINTS, ENDPOINT_IDS } from '../../shared/endpoints';
import { hasRedisServer, startRedisServer, until, type RedisServer } from '../helpers/redis-server';

const hasRedis = hasRedisServer();
if (!hasRedis) console.warn('budget-store-scopes: skipped, redis-server is not installed (apt-get install redis-server)');

const ACME = { baseUrl: 'http://127.0.0.1:9/api', vendor: 'acme' };
const GLOBEX = { baseUrl: 'http://127.0.0.1:9/api', vendor: 'globex' };

describe.skipIf(!hasRedis)('budget store per scope (real redis-server)', () => {
  let redis: RedisServer;
  let inspector: Redis;
  const registries: BudgetRegistry[] = [];
  const registry = (): BudgetRegistry => {
    const r = new BudgetRegistry();
    registries.push(r);
    return r;
  };
  /** A plain connection for looking at Redis; its reconnect errors while Redis is killed are expected. */
  const connect = (): Redis => new Redis(redis.url()).on('error', () => undefined);
  /** Client connections Redis holds, the inspector's own aside. */
  const connections = async (): Promise<number> => ((await inspector.client('LIST')) as string).trim().split('\n').length - 1;

  beforeAll(async () => {
    redis = await startRedisServer();
    inspector = connect();
  });

  afterAll(async () => {
    for (const r of registries) r.dispose();
    inspector?.disconnect();
    await redis?.stop();
  });

  it('two scopes naming one Redis share one connection; another URL opens its own; the last user closes it', async () => {
    const r = registry();
    r.useStore(ACME, redis.url(0));
    r.useStore(GLOBEX, redis.url(0));
    expect(r.storeFor(ACME.baseUrl, ACME.vendor)).toBe(r.storeFor(GLOBEX.baseUrl, GLOBEX.vendor));
    expect(r.openStores).toBe(1);
    await until(() => r.storeState(ACME).state === 'connected' && r.storeState(GLOBEX).state === 'connected');
    expect(await connections()).toBe(1);

    r.useStore(GLOBEX, redis.url(1));
    expect(r.openStores).toBe(2);
    expect(r.storeFor(ACME.baseUrl, ACME.vendor)).not.toBe(r.storeFor(GLOBEX.baseUrl, GLOBEX.vendor));
    await until(() => r.storeState(GLOBEX).state === 'connected');
    expect(await connections()).toBe(2);

    r.useStore(GLOBEX, undefined);
    r.useStore(ACME, '');
    expect(r.openStores).toBe(0);
    expect(r.storeFor(ACME.baseUrl, ACME.vendor)).toBeNull();
    // Closing is a QUIT on the wire: Redis sees it go shortly after.
    let open = await connections();
    for (let i = 0; i < 50 && open > 0; i++) open = await new Promise((res) => setTimeout(res, 20)).then(connections);
    expect(open).toBe(0);
  });

  it('the registry-wide form is the default of every scope not given its own; a scope may say none', async () => {
    const r = registry();
    r.useStore(redis.url(0));
    expect(r.storeFor(ACME.baseUrl, ACME.vendor)).toBe(r.store);
    expect(r.storeState(GLOBEX).kind).toBe('redis');
    r.useStore(GLOBEX, undefined);
    expect(r.storeFor(GLOBEX.baseUrl, GLOBEX.vendor)).toBeNull();
    expect(r.storeState(GLOBEX)).toEqual({ kind: 'none', url: null, state: 'off', message: null });
    // The scope's base URL is compared in its one spelling (normalizeBaseUrl).
    expect(r.storeFor('HTTP://127.0.0.1:9/api/', 'acme')).toBe(r.store);
  });

  it('state: connecting, then connected; Redis killed: fallback (a line logged); Redis back: connected again (a line logged)', async () => {
    const r = registry();
    const lines: string[] = [];
    r.useStore(ACME, redis.url(2), (l) => lines.push(l));
    expect(r.storeState(ACME)).toMatchObject({ kind: 'redis', state: 'connecting', url: `redis://127.0.0.1:${redis.port}/2` });
    await until(() => r.storeState(ACME).state === 'connected');
    expect(r.storeState(ACME).message).toMatch(/shares the budget/);

    await redis.stop();
    await until(() => r.storeState(ACME).state === 'fallback');
    expect(r.storeState(ACME).message).toMatch(/headers alone/);
    expect(lines.at(-1)).toMatch(/unreachable .*pacing from the headers alone/);
    // While in fallback: no slot (headers only), answered at once; fleetUse answers empty counts.
    const t = Date.now();
    expect(await r.storeFor(ACME.baseUrl, ACME.vendor)!.reserve(storeKey(ACME.baseUrl, ACME.vendor, 'listAssets'), 20)).toBeNull();
    const use = await r.fleetUse(ACME, 5);
    expect(Date.now() - t).toBeLessThan(150);
    expect(use.endpoints.every((e) => e.granted.length === 0)).toBe(true);

    await redis.start();
    await until(() => r.storeState(ACME).state === 'connected', 15_000);
    expect(lines.at(-1)).toMatch(/is back/);
    inspector.disconnect();
    inspector = connect();
  });

  it('fleetUse: three workers reserving 50 slots in total; the store counts 50 granted, at most the limit in any second', async () => {
    const workers = [registry(), registry(), registry()];
    for (const w of workers) w.useStore(ACME, redis.url(3));
    await until(() => workers.every((w) => w.storeState(ACME).state === 'connected'));
    const key = storeKey(ACME.baseUrl, ACME.vendor, 'listAssets');
    const limit = ENDPOINTS.listAssets.limit;
    const waits = await Promise.all(Array.from({ length: 50 }, (_, i) => workers[i % 3]!.storeFor(ACME.baseUrl, ACME.vendor)!.reserve(key, limit).then((slot) => slot?.waitMs ?? null)));
    expect(waits.every((w) => typeof w === 'number')).toBe(true);
    // Slots are counted in the second they fall in: wait until the last one's second is complete.
    await new Promise((res) => setTimeout(res, Math.max(...(waits as number[])) + 1_100));

    const use = await workers[0]!.fleetUse(ACME, 10);
    expect(use.fromMs % 1000).toBe(0);
    expect(use.fromMs + 10_000).toBeLessThanOrEqual(Date.now() + 50); // complete seconds only
    const list = use.endpoints.find((e) => e.endpoint === 'listAssets')!;
    expect(list.limit).toBe(limit);
    expect(list.granted).toHaveLength(10);
    expect(list.granted.reduce((a, b) => a + b, 0)).toBe(50);
    expect(Math.max(...list.granted)).toBeLessThanOrEqual(limit);
    expect(use.endpoints.filter((e) => e.endpoint !== 'listAssets').every((e) => e.granted.every((n) => n === 0))).toBe(true);
    // Another vendor on the same store counts apart.
    workers[1]!.useStore(GLOBEX, redis.url(3));
    const other = await workers[1]!.fleetUse(GLOBEX, 10);
    expect(other.endpoints.every((e) => e.granted.length === 10 && e.granted.every((n) => n === 0))).toBe(true);

    // The per-second keys expire by themselves.
    const probe = new Redis(redis.url(3));
    const countKeys = await probe.keys(`${key}:n:*`);
    expect(countKeys.length).toBeGreaterThan(0);
    const ttls = await Promise.all(countKeys.map((k) => probe.pttl(k)));
    probe.disconnect();
    expect(ttls.every((ms) => ms > 0 && ms <= 312_000)).toBe(true);
  });
});

describe.skipIf(!hasRedis)('a client and the store of its scope (real simulator and redis-server)', () => {
  let redis: RedisServer;
  let sim: Awaited<ReturnType<typeof startSimulator>>;
  let budgets: BudgetRegistry;
  let client: PartnerClient;
  let inspect: Redis;
  let scope: { baseUrl: string; vendor: string };
  /** Slots the store granted for categories in the last 5 complete seconds (waits for the last slot's second to complete). */
  const grantedCategories = async (): Promise<number> => {
    await new Promise((res) => setTimeout(res, 1_100));
    return (await budgets.fleetUse(scope, 5)).endpoints.find((e) => e.endpoint === 'categories')!.granted.reduce((a, b) => a + b, 0);
  };

  beforeEach(async () => {
    redis = await startRedisServer();
    sim = await startSimulator({ port: 0, catalogSize: 50, random: seededRandom(5) });
    budgets = new BudgetRegistry();
    client = new PartnerClient({ baseUrl: sim.url, vendor: 'demo', tokens: ['demo-token-1'], budgets });
    inspect = new Redis(redis.url(5));
    scope = { baseUrl: sim.url, vendor: 'demo' };
    budgets.useStore(scope, redis.url(5));
    await until(() => budgets.storeState(scope).state === 'connected');
  });

  afterEach(async () => {
    inspect.disconnect();
    client.close();
    budgets.dispose();
    await sim.stop();
    await redis.stop();
  });

  it('requests of the scope given a store are counted there; the registry has no default store', async () => {
    expect(budgets.store).toBeNull();
    for (let i = 0; i < 7; i++) await client.request('categories');
    expect(await grantedCategories()).toBe(7);
  });

  it('a client refused on its slot (another consumer took the second) tells the store with its next reservation, which widens the spacing', async () => {
    const spread = async () => Number(await inspect.hget(`${storeKey(sim.url, 'demo', 'categories')}:spread`, 'ms'));
    // Another consumer of the vendor, outside the store, spends the second's 20; our request then goes on its slot.
    let attempts = 1;
    for (let round = 0; round < 5 && attempts === 1; round++) {
      await Promise.all(Array.from({ length: 20 }, () => fetch(`${sim.url}/assets/categories`, { headers: { Authorization: 'Bearer demo-token-2', Accept: 'application/json' } })));
      attempts = (await client.request('categories')).attempts;
    }
    expect(attempts).toBeGreaterThan(1); // refused once, then sent again on a new slot
    // Doubled from the start (25 -> 50), less its narrowing (1 ms a second) since.
    expect(await spread()).toBeGreaterThanOrEqual(2 * DEFAULT_SPACING.startMs - 5);
  });

  it('a request the headers hold past its slot\'s grace takes another slot instead of landing late in a second the fleet has filled', async () => {
    // The header model holds the bucket for 300 ms (as after a 429, or another consumer's burst): the
    // slot reserved at once is 300 ms behind when the request could go, far past its grace (25 ms).
    budgets.bucket(sim.url, 'demo', 'categories').pauseUntil(Date.now() + 300);
    expect((await client.request('categories')).attempts).toBe(1);
    const granted = await grantedCategories();
    const sent = sim.control.counters().filter((c) => c.endpoint === 'categories').reduce((n, c) => n + c.count, 0);
    expect({ granted, sent }).toEqual({ granted: 2, sent: 1 }); // the late slot given up, the request sent on the next
  });
});

describe('no budget store', () => {
  it("answers kind 'none', state 'off' and empty counts, without opening any connection", async () => {
    const r = new BudgetRegistry();
    expect(r.storeState(ACME)).toEqual({ kind: 'none', url: null, state: 'off', message: null });
    const use = await r.fleetUse(ACME, 60);
    expect(use.endpoints.map((e) => e.endpoint)).toEqual([...ENDPOINT_IDS]);
    expect(use.endpoints.every((e) => e.granted.length === 0 && e.limit === ENDPOINTS[e.endpoint].limit)).toBe(true);
    expect(use.fromMs % 1000).toBe(0);
    expect(r.openStores).toBe(0);
    r.dispose();
  });

  it('a store URL that is not one (a hand-edited settings file) is logged, and the scope paces from the headers', () => {
    const r = new BudgetRegistry();
    const lines: string[] = [];
    expect(() => r.useStore(ACME, 'http://ops:s3cret@cache:6379', (l) => lines.push(l))).not.toThrow();
    expect(r.storeState(ACME).kind).toBe('none');
    expect(lines).toEqual(['budget store: the URL must be a redis://host:port/db URL, not http:; pacing from the headers alone']);
    r.dispose();
  });

  it('a store URL with credentials is shown and logged masked', async () => {
    const r = new BudgetRegistry();
    const lines: string[] = [];
    r.useStore(ACME, 'redis://ops:s3cret@127.0.0.1:1/4', (l) => lines.push(l));
    expect(r.storeState(ACME).url).toBe('redis://***@127.0.0.1:1/4');
    await until(() => r.storeState(ACME).state === 'fallback');
    expect(JSON.stringify(r.storeState(ACME)) + lines.join('\n')).not.toMatch(/s3cret|ops/);
    r.dispose();
  });
});
