/**
 * Faults, competing consumers, the control API (in code and over HTTP) and stop(), over loopback.
 * Faults use a scripted random(); competitors and budgets a controllable clock.
 */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator } from '../../electron/simulator';
import type { Counter, RunningSimulator, SimulatorOptions } from '../../electron/simulator';
import { parseRateLimitHeaders } from '../../shared/rate-limit';

const T0 = Date.UTC(2026, 0, 1, 8, 0, 0);
let now = T0;
const sims: RunningSimulator[] = [];

async function sim(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  now = T0;
  const s = await startSimulator({ clock: () => now, catalogSize: 100, ...options });
  sims.push(s);
  return s;
}

afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.stop()));
});

/** A random() that cycles through the given values. */
function cycle(...values: number[]): () => number {
  let i = 0;
  return () => values[i++ % values.length]!;
}

async function api(s: RunningSimulator, method: string, path: string, body?: unknown, token: string | null = 'demo-token-1'): Promise<Response> {
  return fetch(`${s.url}${path}`, {
    method,
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const count = (list: Counter[], match: Partial<Counter>): number =>
  list.filter((c) => Object.entries(match).every(([k, v]) => (c as unknown as Record<string, unknown>)[k] === v)).reduce((n, c) => n + c.count, 0);

async function waitFor(check: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('error fault', () => {
  it('answers 500/503 with a JSON error body and rate-limit headers; the slot is spent and the action does not run', async () => {
    const s = await sim({ faults: { errorRate: 1 }, random: cycle(0.1, 0.2, 0.1, 0.9) });
    const a = await api(s, 'POST', '/purchase/register', { asset_id: 1001, client_reference: 'err' });
    const b = await api(s, 'POST', '/purchase/register', { asset_id: 1001, client_reference: 'err' });
    expect([a.status, b.status]).toEqual([500, 503]);
    expect(await a.json()).toEqual({ name: 'Internal Server Error', message: expect.any(String), code: 0, status: 500 });
    expect(await b.json()).toMatchObject({ name: 'Service Unavailable', code: 0, status: 503 });
    expect([a.headers.get('x-rate-limit-remaining'), b.headers.get('x-rate-limit-remaining')]).toEqual(['49', '48']);
    s.control.setFaults({ errorRate: 0 });
    expect(await (await api(s, 'GET', '/purchase/info?client_reference=err')).json()).toEqual({ items: [] });
  });

  it('never replaces a 429 or an answer from before the limiter', async () => {
    const s = await sim({ faults: { errorRate: 1 }, random: () => 0 });
    expect((await api(s, 'GET', '/assets/list', undefined, null)).status).toBe(401);
    for (let i = 0; i < 20; i++) await api(s, 'GET', '/assets/list');
    expect((await api(s, 'GET', '/assets/list')).status).toBe(429);
  });
});

describe('drop fault', () => {
  it('destroys the connection with no answer after the action ran: the purchase exists', async () => {
    const s = await sim({ faults: { dropRate: 1 }, random: () => 0 });
    await expect(api(s, 'POST', '/purchase/register', { asset_id: 1001, client_reference: 'lost' })).rejects.toThrow();
    s.control.setFaults({ dropRate: 0 });
    const items = ((await (await api(s, 'GET', '/purchase/info?client_reference=lost')).json()) as { items: { state: string }[] }).items;
    expect(items).toHaveLength(1);
    expect(items[0]!.state).toBe('registered');
    expect(count(s.control.counters(), { vendor: 'demo', endpoint: 'registerPurchase', status: 0 })).toBe(1);
  });

  it('a node:http client sees a reset socket, not a response', async () => {
    const s = await sim({ faults: { dropRate: 1 }, random: () => 0 });
    const outcome = await new Promise<string>((resolve) => {
      const req = request(`${s.url}/assets/categories`, { headers: { Authorization: 'Bearer demo-token-1' }, agent: false }, () => resolve('answered'));
      req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
      req.end();
    });
    expect(outcome).toBe('ECONNRESET');
  });
});

describe('garble fault', () => {
  it('every garbled answer has headers a tolerant parser reports; all five kinds occur', async () => {
    // Per request: garble draw 0 (hit), then kind and header picks cycling through every combination.
    const draws: number[] = [];
    for (let kind = 0; kind < 5; kind++) for (let h = 0; h < 3; h++) draws.push(0, (kind + 0.5) / 5, (h + 0.5) / 3);
    const s = await sim({ faults: { garbleRate: 1 }, random: cycle(...draws) });
    const shapes = new Set<string>();
    for (let i = 0; i < 15; i++) {
      const r = await api(s, 'GET', '/purchase/info?client_reference=x');
      expect(r.status).toBe(200);
      const parsed = parseRateLimitHeaders((n) => r.headers.get(n));
      expect(parsed.problems.length).toBeGreaterThan(0);
      shapes.add(
        parsed.problems
          .join(' | ')
          .replace(/[\d"]+/g, '')
          .slice(0, 40),
      );
    }
    expect(shapes.size).toBeGreaterThanOrEqual(5);
  });

  it('garbleRate 0 leaves clean headers', async () => {
    const s = await sim({ random: () => 0 });
    const r = await api(s, 'GET', '/assets/list');
    expect(parseRateLimitHeaders((n) => r.headers.get(n))).toEqual({ limit: 20, remaining: 19, reset: 0, problems: [] });
  });
});

describe('latency fault', () => {
  it('delays answers by latency plus jitter', async () => {
    const s = await sim({ faults: { latencyMs: 120, jitterMs: 100 }, random: () => 0.5 });
    const t = Date.now();
    expect((await api(s, 'GET', '/assets/list')).status).toBe(200);
    expect(Date.now() - t).toBeGreaterThanOrEqual(165);
  });

  it('stop() during a delayed answer leaves no timer behind and resolves', async () => {
    const s = await sim({ faults: { latencyMs: 5000 } });
    const pending = api(s, 'GET', '/assets/list').catch(() => 'closed');
    await new Promise((r) => setTimeout(r, 50));
    await s.stop();
    expect(await pending).toBe('closed');
  });
});

describe('competing consumers', () => {
  it('take slots of the vendor budget through the limiter, counted with competitor: true', async () => {
    const s = await sim({ competitors: [{ vendor: 'demo', endpoint: 'listAssets', rps: 10 }] });
    now = T0 + 500; // five slots due (at +100 .. +500)
    await waitFor(() => count(s.control.counters(), { competitor: true }) >= 5);
    const r = await api(s, 'GET', '/assets/list');
    expect(r.headers.get('x-rate-limit-remaining')).toBe('14');
    expect(count(s.control.counters(), { vendor: 'demo', endpoint: 'listAssets', status: 200, competitor: true })).toBe(5);
    // The other vendor and other endpoints are untouched.
    expect((await api(s, 'GET', '/assets/list', undefined, 'acme-token-1')).headers.get('x-rate-limit-remaining')).toBe('19');
    expect(s.control.state().competitors).toEqual([{ vendor: 'demo', endpoint: 'listAssets', rps: 10 }]);
  });

  it('are refused like a real client once the budget is gone, and stop when replaced', async () => {
    const s = await sim();
    s.control.setCompetitors([{ vendor: 'acme', endpoint: 'assetHistory', rps: 1000 }]);
    now = T0 + 30; // 30 slots due, limit 10 in this second
    await waitFor(() => count(s.control.counters(), { competitor: true }) >= 30);
    const list = s.control.counters();
    expect(count(list, { vendor: 'acme', endpoint: 'assetHistory', status: 200, competitor: true })).toBe(10);
    expect(count(list, { vendor: 'acme', endpoint: 'assetHistory', status: 429, competitor: true })).toBe(20);
    expect((await api(s, 'POST', '/assets/history', { asset_id: 1001 }, 'acme-token-1')).status).toBe(429);
    s.control.setCompetitors([]);
    now = T0 + 2000;
    await new Promise((r) => setTimeout(r, 60));
    expect(count(s.control.counters(), { competitor: true })).toBe(30);
  });

  it('an unknown vendor or a bad rps is refused and changes nothing', async () => {
    const s = await sim({ competitors: [{ vendor: 'demo', endpoint: 'categories', rps: 1 }] });
    expect(() => s.control.setCompetitors([{ vendor: 'ghost', endpoint: 'categories', rps: 1 }])).toThrow(/ghost/);
    expect(() => s.control.setCompetitors([{ vendor: 'demo', endpoint: 'categories', rps: -1 }])).toThrow(RangeError);
    expect(s.control.state().competitors).toEqual([{ vendor: 'demo', endpoint: 'categories', rps: 1 }]);
    await expect(startSimulator({ competitors: [{ vendor: 'ghost', endpoint: 'categories', rps: 1 }] })).rejects.toThrow(/ghost/);
  });
});

describe('control API over HTTP', () => {
  it('needs no token, is never rate-limited and carries no rate-limit headers', async () => {
    const s = await sim();
    for (let i = 0; i < 60; i++) {
      const r = await api(s, 'GET', '/_sim/state', undefined, null);
      expect(r.status).toBe(200);
      expect(r.headers.get('x-rate-limit-limit')).toBeNull();
      await r.arrayBuffer();
    }
  });

  it('state, refill, faults, competitors, reset and counters', async () => {
    const s = await sim();
    const state = (await (await api(s, 'GET', '/_sim/state', undefined, null)).json()) as Record<string, unknown>;
    expect(state).toMatchObject({
      refill: 'whole-second',
      catalogSize: 100,
      seed: 42,
      faults: { latencyMs: 0, jitterMs: 0, errorRate: 0, dropRate: 0, garbleRate: 0 },
      competitors: [],
      vendors: [
        { vendor: 'demo', tokenCount: 2 },
        { vendor: 'acme', tokenCount: 1 },
      ],
    });
    expect(JSON.stringify(state)).not.toContain('demo-token-1');

    expect(await (await api(s, 'PUT', '/_sim/refill', { model: 'continuous' }, null)).json()).toEqual({ refill: 'continuous' });
    expect(s.control.state().refill).toBe('continuous');

    const f = (await (await api(s, 'PUT', '/_sim/faults', { latencyMs: 1, garbleRate: 0.25 }, null)).json()) as { faults: Record<string, number> };
    expect(f.faults).toEqual({ latencyMs: 1, jitterMs: 0, errorRate: 0, dropRate: 0, garbleRate: 0.25 });

    const c = await api(s, 'PUT', '/_sim/competitors', { competitors: [{ vendor: 'acme', endpoint: 'viewUrl', rps: 2 }] }, null);
    expect(await c.json()).toEqual({ competitors: [{ vendor: 'acme', endpoint: 'viewUrl', rps: 2 }] });
    await api(s, 'PUT', '/_sim/competitors', { competitors: [] }, null);

    for (let i = 0; i < 20; i++) await (await api(s, 'GET', '/assets/list')).arrayBuffer();
    expect((await api(s, 'GET', '/assets/list')).status).toBe(429);
    expect(await (await api(s, 'POST', '/_sim/reset', { what: 'budgets' }, null)).json()).toEqual({ reset: 'budgets' });
    expect((await api(s, 'GET', '/assets/list')).status).toBe(200);

    const counters = ((await (await api(s, 'GET', '/_sim/counters', undefined, null)).json()) as { counters: Counter[] }).counters;
    expect(count(counters, { vendor: 'demo', endpoint: 'listAssets', status: 200 })).toBe(21);
    expect(count(counters, { vendor: 'demo', endpoint: 'listAssets', status: 429 })).toBe(1);

    await api(s, 'POST', '/_sim/reset', { what: 'all' }, null);
    expect(s.control.counters()).toEqual([]);
  });

  it('bad input is a clear 400 in the error shape and changes nothing', async () => {
    const s = await sim();
    const bad: [string, string, unknown, RegExp][] = [
      ['PUT', '/_sim/refill', { model: 'smooth' }, /model/],
      ['PUT', '/_sim/refill', '{oops', /JSON/],
      ['PUT', '/_sim/faults', { errorRate: 3 }, /errorRate/],
      ['PUT', '/_sim/faults', { nonsense: 1 }, /nonsense|Unrecognized/i],
      ['PUT', '/_sim/competitors', { competitors: [{ vendor: 'ghost', endpoint: 'listAssets', rps: 1 }] }, /ghost/],
      ['PUT', '/_sim/competitors', { competitors: [{ vendor: 'demo', endpoint: 'nope', rps: 1 }] }, /endpoint/],
      ['PUT', '/_sim/competitors', [], /object|expected/i],
      ['POST', '/_sim/reset', { what: 'everything' }, /what/],
    ];
    for (const [method, path, body, message] of bad) {
      const r = await api(s, method, path, body, null);
      expect(r.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      const json = (await r.json()) as { name: string; message: string; code: number; status: number };
      expect(json).toMatchObject({ name: 'Bad Request', code: 0, status: 400 });
      expect(json.message).toMatch(message);
    }
    const state = s.control.state();
    expect(state.refill).toBe('whole-second');
    expect(state.faults.errorRate).toBe(0);
    expect(state.competitors).toEqual([]);
    expect((await api(s, 'GET', '/_sim/faults', undefined, null)).status).toBe(405);
    expect((await api(s, 'GET', '/_sim/nope', undefined, null)).status).toBe(404);
  });
});

describe('start and stop', () => {
  it('stop() closes keep-alive sockets, is idempotent, and the port stops answering', async () => {
    const s = await sim();
    const { Agent } = await import('node:http');
    const agent = new Agent({ keepAlive: true });
    const get = (): Promise<number> =>
      new Promise((resolve, reject) => {
        const req = request(`${s.url}/assets/list`, { agent, headers: { Authorization: 'Bearer demo-token-1' } }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        req.end();
      });
    expect(await get()).toBe(200);
    const start = Date.now();
    await Promise.all([s.stop(), s.stop()]);
    await s.stop();
    expect(Date.now() - start).toBeLessThan(1000); // a kept-alive socket would hold close() for 5 s
    await expect(get()).rejects.toThrow();
    agent.destroy();
  });

  it('port 0 gives a real port in the URL; a taken port is a clear error', async () => {
    const s = await sim();
    expect(s.url).toBe(`http://127.0.0.1:${s.port}`);
    expect(s.port).toBeGreaterThan(0);
    await expect(startSimulator({ port: s.port })).rejects.toThrow(/could not listen/);
  });

  it('bad options are refused before anything listens', async () => {
    await expect(startSimulator({ catalogSize: -5 })).rejects.toThrow(RangeError);
    await expect(startSimulator({ tokens: [] })).rejects.toThrow(RangeError);
    await expect(startSimulator({ faults: { dropRate: 7 } })).rejects.toThrow(/dropRate/);
    await expect(startSimulator({ port: 70000 })).rejects.toThrow(RangeError);
    await expect(startSimulator({ refill: 'smooth' as never })).rejects.toThrow(/refill/);
  });
});
