/**
 * The budget store per scope (base URL + vendor), against a real redis-server: scopes naming one
 * Redis share one connection, the store's state as views see it (connecting, connected, fallback
 * when Redis dies, connected when it is back), and the fleet's use as the store counts it.
 */
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BudgetRegistry } from '../../electron/client/budget-registry';
import { PartnerClient, readFleetUse, ScopeStores } from '../../electron/client';
import type { BudgetScope } from '../../electron/client';
import { storeStateView } from '../../electron/app/handlers/fleet';
import { startSimulator } from '../../electron/simulator';
import { seededRandom } from '../../electron/client/testing';
import { DEFAULT_SPACING, storeKey } from '../../electron/client/fleet-slot-store';
import { ENDPOINTS, ENDPOINT_IDS } from '../../shared/endpoints';
import { hasRedisServer, startRedisServer, until, type RedisServer } from '../helpers/redis-server';

const hasRedis = hasRedisServer();
if (!hasRedis) console.warn('budget-store-scopes: skipped, redis-server is not installed (apt-get install redis-server)');

const ACME = { baseUrl: 'http://127.0.0.1:9/api', vendor: 'acme' };
const GLOBEX = { baseUrl: 'http://127.0.0.1:9/api', vendor: 'globex' };
/** The scope's store as the fleetUse call shows it. */
const storeState = (stores: ScopeStores, scope: BudgetScope) => storeStateView(stores.status(scope));
/** Every endpoint's limit from a registry of its own: the documented ones. */
const fleetUse = (stores: ScopeStores, scope: BudgetScope, seconds: number) => readFleetUse(stores, new BudgetRegistry(), scope, seconds);

describe.skipIf(!hasRedis)('budget store per scope (real redis-server)', () => {
  let redis: RedisServer;
  let inspector: Redis;
  const owners: ScopeStores[] = [];
  const scopeStores = (): ScopeStores => {
    const r = new ScopeStores();
    owners.push(r);
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
    for (const r of owners) r.closeAll();
    inspector?.disconnect();
    await redis?.stop();
  });

  it('two scopes naming one Redis share one connection; another URL opens its own; the last user closes it', async () => {
    const r = scopeStores();
    const acme = r.take(ACME, redis.url(0));
    let globex = r.take(GLOBEX, redis.url(0));
    expect(r.storeFor(ACME)).toBe(r.storeFor(GLOBEX));
    expect(r.openCount).toBe(1);
    await until(() => storeState(r, ACME).state === 'connected' && storeState(r, GLOBEX).state === 'connected');
    expect(await connections()).toBe(1);

    globex.release();
    globex = r.take(GLOBEX, redis.url(1));
    expect(r.openCount).toBe(2);
    expect(r.storeFor(ACME)).not.toBe(r.storeFor(GLOBEX));
    await until(() => storeState(r, GLOBEX).state === 'connected');
    expect(await connections()).toBe(2);

    globex.release();
    acme.release();
    expect(r.openCount).toBe(0);
    expect(r.storeFor(ACME)).toBeNull();
    // Closing is a QUIT on the wire: Redis sees it go shortly after.
    let open = await connections();
    for (let i = 0; i < 50 && open > 0; i++) open = await new Promise((res) => setTimeout(res, 20)).then(connections);
    expect(open).toBe(0);
  });

  it("a scope's latest lease holding a store is its store, the one before it again once released; a second release does nothing", async () => {
    const r = scopeStores();
    const first = r.take(ACME, redis.url(0));
    const other = r.take(GLOBEX, redis.url(0));
    expect(storeState(r, ACME).kind).toBe('redis');
    // A profile of the scope without a store connected second: the fleet store stays in use while the first holds it.
    const none = r.take(ACME, '');
    expect(r.storeFor(ACME)).toBe(first.store);
    expect(storeState(r, ACME).kind).toBe('redis');
    none.release();
    expect(r.storeFor(ACME)).toBe(first.store);
    // Store-less first, a store second: the store; released, none again.
    const later = r.take({ ...GLOBEX, vendor: 'initech' }, '');
    const held = r.take({ ...GLOBEX, vendor: 'initech' }, redis.url(0));
    expect(r.storeFor({ ...GLOBEX, vendor: 'initech' })).toBe(held.store);
    held.release();
    expect(r.storeFor({ ...GLOBEX, vendor: 'initech' })).toBeNull();
    later.release();
    // The scope's base URL is compared in its one spelling (normalizeBaseUrl).
    expect(r.storeFor({ baseUrl: 'HTTP://127.0.0.1:9/api/', vendor: 'acme' })).toBe(first.store);
    first.release();
    first.release();
    expect(r.openCount).toBe(1);
    expect(r.storeFor(GLOBEX)).toBe(other.store);
    other.release();
    expect(r.openCount).toBe(0);
  });

  it('state: connecting, then connected; Redis killed: fallback (a line logged); Redis back: connected again (a line logged)', async () => {
    const r = scopeStores();
    const lines: string[] = [];
    r.take(ACME, redis.url(2), (l) => lines.push(l));
    expect(storeState(r, ACME)).toMatchObject({ kind: 'redis', state: 'connecting', url: `redis://127.0.0.1:${redis.port}/2` });
    await until(() => storeState(r, ACME).state === 'connected');
    expect(storeState(r, ACME).message).toMatch(/shares the budget/);

    await redis.stop();
    await until(() => storeState(r, ACME).state === 'fallback');
    expect(storeState(r, ACME).message).toMatch(/headers alone/);
    expect(lines.at(-1)).toMatch(/unreachable .*pacing from the headers alone/);
    // While in fallback: no slot (headers only), answered at once; fleetUse answers empty counts.
    const t = Date.now();
    expect(await r.storeFor(ACME)!.reserve(storeKey(ACME.baseUrl, ACME.vendor, 'listAssets'), 20)).toBeNull();
    const use = await fleetUse(r, ACME, 5);
    expect(Date.now() - t).toBeLessThan(150);
    expect(use.endpoints.every((e) => e.granted.length === 0)).toBe(true);

    await redis.start();
    await until(() => storeState(r, ACME).state === 'connected', 15_000);
    expect(lines.at(-1)).toMatch(/is back/);
    inspector.disconnect();
    inspector = connect();
  });

  it('fleetUse: three workers reserving 50 slots in total; the store counts 50 granted, at most the limit in any second', async () => {
    const workers = [scopeStores(), scopeStores(), scopeStores()];
    for (const w of workers) w.take(ACME, redis.url(3));
    await until(() => workers.every((w) => storeState(w, ACME).state === 'connected'));
    const key = storeKey(ACME.baseUrl, ACME.vendor, 'listAssets');
    const limit = ENDPOINTS.listAssets.limit;
    const waits = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        workers[i % 3]!.storeFor(ACME)!
          .reserve(key, limit)
          .then((slot) => slot?.waitMs ?? null),
      ),
    );
    expect(waits.every((w) => typeof w === 'number')).toBe(true);
    // Slots are counted in the second they fall in: wait until the last one's second is complete.
    await new Promise((res) => setTimeout(res, Math.max(...(waits as number[])) + 1_100));

    const use = await fleetUse(workers[0]!, ACME, 10);
    expect(use.fromMs % 1000).toBe(0);
    expect(use.fromMs + 10_000).toBeLessThanOrEqual(Date.now() + 50); // complete seconds only
    const list = use.endpoints.find((e) => e.endpoint === 'listAssets')!;
    expect(list.limit).toBe(limit);
    expect(list.granted).toHaveLength(10);
    expect(list.granted.reduce((a, b) => a + b, 0)).toBe(50);
    expect(Math.max(...list.granted)).toBeLessThanOrEqual(limit);
    expect(use.endpoints.filter((e) => e.endpoint !== 'listAssets').every((e) => e.granted.every((n) => n === 0))).toBe(true);
    // Another vendor on the same store counts apart.
    workers[1]!.take(GLOBEX, redis.url(3));
    const other = await fleetUse(workers[1]!, GLOBEX, 10);
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
  let stores: ScopeStores;
  let client: PartnerClient;
  let inspect: Redis;
  let scope: { baseUrl: string; vendor: string };
  /** Slots the store granted for categories in the last 5 complete seconds (waits for the last slot's second to complete). */
  const grantedCategories = async (): Promise<number> => {
    await new Promise((res) => setTimeout(res, 1_100));
    return (await readFleetUse(stores, budgets, scope, 5)).endpoints.find((e) => e.endpoint === 'categories')!.granted.reduce((a, b) => a + b, 0);
  };

  beforeEach(async () => {
    redis = await startRedisServer();
    sim = await startSimulator({ port: 0, catalogSize: 50, random: seededRandom(5) });
    budgets = new BudgetRegistry();
    stores = new ScopeStores();
    client = new PartnerClient({ baseUrl: sim.url, vendor: 'demo', tokens: ['demo-token-1'], budgets, stores });
    inspect = new Redis(redis.url(5));
    scope = { baseUrl: sim.url, vendor: 'demo' };
    stores.take(scope, redis.url(5));
    await until(() => storeState(stores, scope).state === 'connected');
  });

  afterEach(async () => {
    inspect.disconnect();
    client.close();
    budgets.dispose();
    stores.closeAll();
    await sim.stop();
    await redis.stop();
  });

  it('requests of the scope given a store are counted there; another scope has none', async () => {
    expect(stores.storeFor({ baseUrl: sim.url, vendor: 'other' })).toBeNull();
    for (let i = 0; i < 7; i++) await client.request('categories');
    expect(await grantedCategories()).toBe(7);
  });

  it('a client refused on its slot (another consumer took the second) tells the store with its next reservation, which widens the spacing', async () => {
    const spread = async () => Number(await inspect.hget(`${storeKey(sim.url, 'demo', 'categories')}:spread`, 'ms'));
    // Another consumer of the vendor, outside the store, spends the second's 20; our request then goes on its slot.
    let attempts = 1;
    for (let round = 0; round < 5 && attempts === 1; round++) {
      await Promise.all(
        Array.from({ length: 20 }, () =>
          fetch(`${sim.url}/assets/categories`, { headers: { Authorization: 'Bearer demo-token-2', Accept: 'application/json' } }),
        ),
      );
      attempts = (await client.request('categories')).attempts;
    }
    expect(attempts).toBeGreaterThan(1); // refused once, then sent again on a new slot
    // Doubled from the start (25 -> 50), less its narrowing (1 ms a second) since.
    expect(await spread()).toBeGreaterThanOrEqual(2 * DEFAULT_SPACING.startMs - 5);
  });

  it("a request the headers hold past its slot's grace takes another slot instead of landing late in a second the fleet has filled", async () => {
    // The header model holds the bucket for 300 ms (as after a 429, or another consumer's burst): the
    // slot reserved at once is 300 ms behind when the request could go, far past its grace (25 ms).
    budgets.bucket(sim.url, 'demo', 'categories').pauseUntil(Date.now() + 300);
    expect((await client.request('categories')).attempts).toBe(1);
    const granted = await grantedCategories();
    const sent = sim.control
      .counters()
      .filter((c) => c.endpoint === 'categories')
      .reduce((n, c) => n + c.count, 0);
    expect({ granted, sent }).toEqual({ granted: 2, sent: 1 }); // the late slot given up, the request sent on the next
  });
});

describe('no budget store', () => {
  it("answers kind 'none', state 'off' and empty counts, without opening any connection", async () => {
    const r = new ScopeStores();
    expect(storeState(r, ACME)).toEqual({ kind: 'none', url: null, state: 'off', message: null });
    const use = await fleetUse(r, ACME, 60);
    expect(use.endpoints.map((e) => e.endpoint)).toEqual([...ENDPOINT_IDS]);
    expect(use.endpoints.every((e) => e.granted.length === 0 && e.limit === ENDPOINTS[e.endpoint].limit)).toBe(true);
    expect(use.fromMs % 1000).toBe(0);
    expect(r.openCount).toBe(0);
    r.closeAll();
  });

  it('a store URL that is not one (a hand-edited settings file) is logged, and the scope paces from the headers', () => {
    const r = new ScopeStores();
    const lines: string[] = [];
    expect(() => r.take(ACME, 'http://ops:s3cret@cache:6379', (l) => lines.push(l))).not.toThrow();
    expect(storeState(r, ACME).kind).toBe('none');
    expect(lines).toEqual(['budget store: the URL must be a redis://host:port/db URL or "machine", not http:; pacing from the headers alone']);
    r.closeAll();
  });

  it('a store URL with credentials is shown and logged masked', async () => {
    const r = new ScopeStores();
    const lines: string[] = [];
    r.take(ACME, 'redis://ops:s3cret@127.0.0.1:1/4', (l) => lines.push(l));
    expect(storeState(r, ACME).url).toBe('redis://***@127.0.0.1:1/4');
    await until(() => storeState(r, ACME).state === 'fallback');
    expect(JSON.stringify(storeState(r, ACME)) + lines.join('\n')).not.toMatch(/s3cret|ops/);
    r.closeAll();
  });
});
