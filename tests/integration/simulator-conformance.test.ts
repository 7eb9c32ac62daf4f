/**
 * The simulator against server-behaviour.md over real HTTP on loopback: check order, which answers
 * carry rate-limit headers and use budget, exact 429, the 400-costs-a-slot rule, paging, shared and
 * independent budgets, and both refill models. A controllable clock makes every budget figure exact.
 */
import { request } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator } from '../../electron/simulator';
import type { RunningSimulator, SimulatorOptions } from '../../electron/simulator';
import { parseServerDate } from '../../shared/rate-limit';

interface Reply {
  status: number;
  statusMessage: string;
  headers: IncomingHttpHeaders;
  text: string;
  json: unknown;
}

interface CallOptions {
  token?: string | null;
  headers?: Record<string, string>;
  body?: unknown;
}

/** One request on a fresh connection, exact status line and raw body kept. */
function call(sim: RunningSimulator, method: string, path: string, o: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...o.headers };
  const token = o.token === undefined ? 'demo-token-1' : o.token;
  if (token !== null) headers['Authorization'] = `Bearer ${token}`;
  const body = o.body === undefined ? undefined : typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const req = request(`${sim.url}${path}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown = undefined;
        try {
          json = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode ?? 0, statusMessage: res.statusMessage ?? '', headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const rl = (r: Reply) => ({
  limit: r.headers['x-rate-limit-limit'],
  remaining: r.headers['x-rate-limit-remaining'],
  reset: r.headers['x-rate-limit-reset'],
});
const noRateLimitHeaders = (r: Reply): void => {
  expect(rl(r)).toEqual({ limit: undefined, remaining: undefined, reset: undefined });
};

/** 12:00:00.000 UTC: every test moves this clock by hand. */
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
let now = T0;
const sims: RunningSimulator[] = [];

async function sim(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  now = T0;
  const s = await startSimulator({ clock: () => now, catalogSize: 250, ...options });
  sims.push(s);
  return s;
}

afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.stop()));
});

/** Sends n list requests and answers their statuses. */
async function burst(s: RunningSimulator, n: number, path = '/assets/list?per-page=1', token = 'demo-token-1'): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await call(s, 'GET', path, { token })).status);
  return out;
}

describe('check order and which answers carry headers and use budget', () => {
  it('406 for an Accept that admits neither application/json nor */*, with no rate-limit headers', async () => {
    const s = await sim();
    for (const accept of ['text/html', 'application/xml, text/plain', 'application/json;q=0', 'image/*']) {
      const r = await call(s, 'GET', '/assets/list', { headers: { Accept: accept } });
      expect(r.status).toBe(406);
      expect(r.json).toEqual({ name: 'Not Acceptable', message: expect.any(String), code: 0, status: 406 });
      noRateLimitHeaders(r);
    }
    for (const accept of ['application/json', '*/*', 'text/html, */*;q=0.1', 'application/*', 'APPLICATION/JSON; charset=utf-8']) {
      expect((await call(s, 'GET', '/assets/list', { headers: { Accept: accept } })).status).toBe(200);
    }
  });

  it('405 with Allow for a wrong method on a known path, before authentication', async () => {
    const s = await sim();
    const r = await call(s, 'POST', '/assets/list', { token: null });
    expect(r.status).toBe(405);
    expect(r.headers.allow).toBe('GET');
    expect(r.json).toMatchObject({ name: 'Method Not Allowed', code: 0, status: 405 });
    noRateLimitHeaders(r);
    expect((await call(s, 'GET', '/purchase/cancel')).headers.allow).toBe('DELETE');
    expect((await call(s, 'GET', '/assets/search')).headers.allow).toBe('POST');
  });

  it('404 for an unknown route, before authentication, with no rate-limit headers', async () => {
    const s = await sim();
    for (const path of ['/assets/nope', '/assets/list/', '/', '/ASSETS/LIST']) {
      const r = await call(s, 'GET', path, { token: null });
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ name: 'Not Found', message: 'Page not found.', code: 0, status: 404 });
      noRateLimitHeaders(r);
    }
  });

  it('406 comes before 405 and 404; 405 before 401', async () => {
    const s = await sim();
    expect((await call(s, 'POST', '/assets/list', { token: null, headers: { Accept: 'text/html' } })).status).toBe(406);
    expect((await call(s, 'GET', '/nope', { token: null, headers: { Accept: 'text/html' } })).status).toBe(406);
    expect((await call(s, 'DELETE', '/assets/list', { token: 'wrong' })).status).toBe(405);
  });

  it('401 for a missing, unknown or non-Bearer token, with WWW-Authenticate and no rate-limit headers', async () => {
    const s = await sim();
    const variants: CallOptions[] = [{ token: null }, { token: 'nope' }, { token: null, headers: { Authorization: 'Basic ZGVtbzp4' } }, { token: '' }];
    for (const v of variants) {
      const r = await call(s, 'GET', '/assets/list', v);
      expect(r.status).toBe(401);
      expect(r.headers['www-authenticate']).toBe('Bearer realm="api"');
      expect(r.json).toEqual({ name: 'Unauthorized', message: expect.any(String), code: 0, status: 401 });
      noRateLimitHeaders(r);
    }
    expect((await call(s, 'GET', '/assets/list', { token: null, headers: { Authorization: 'bearer demo-token-2' } })).status).toBe(200);
  });

  it('401, 405, 406 and 404-route use no budget: the vendor still has all 20 afterwards', async () => {
    const s = await sim();
    for (let i = 0; i < 5; i++) {
      await call(s, 'GET', '/assets/list', { token: 'nope' });
      await call(s, 'POST', '/assets/list');
      await call(s, 'GET', '/assets/list', { headers: { Accept: 'text/html' } });
      await call(s, 'GET', '/assets/lis');
    }
    const statuses = await burst(s, 21);
    expect(statuses.filter((x) => x === 200)).toHaveLength(20);
    expect(statuses[20]).toBe(429);
  });

  it('200, 400, 404, 409 and 429 all carry the three headers; Remaining counts every one of them', async () => {
    const s = await sim();
    const ok = await call(s, 'GET', '/purchase/info?client_reference=x');
    const bad = await call(s, 'GET', '/purchase/info');
    const missing = await call(s, 'GET', '/purchase/info?purchase_id=p_nope');
    const reg = await call(s, 'POST', '/purchase/register', { body: { asset_id: 1001 } });
    expect(reg.status).toBe(200);
    const id = (reg.json as { id: string }).id;
    await call(s, 'DELETE', `/purchase/cancel?purchase_id=${id}`);
    const conflict = await call(s, 'GET', `/purchase/view-url?purchase_id=${id}`);
    expect([ok.status, bad.status, missing.status, conflict.status]).toEqual([200, 400, 404, 409]);
    expect(rl(ok)).toEqual({ limit: '50', remaining: '49', reset: '0' });
    expect(rl(bad)).toEqual({ limit: '50', remaining: '48', reset: '0' });
    expect(rl(missing)).toEqual({ limit: '50', remaining: '47', reset: '0' });
    // info, register, cancel and view-url are separate buckets.
    expect(rl(conflict)).toEqual({ limit: '50', remaining: '49', reset: '0' });
    for (const r of [ok, bad, missing, conflict]) expect(r.headers['content-type']).toBe('application/json; charset=UTF-8');
  });
});

describe('the 429 answer', () => {
  it('is exactly "429 Too Many Requests" with the exact body and Remaining 0, Reset 1', async () => {
    const s = await sim();
    await burst(s, 20);
    const r = await call(s, 'GET', '/assets/list');
    expect(r.status).toBe(429);
    expect(r.statusMessage).toBe('Too Many Requests');
    expect(r.text).toBe('{"name":"Too Many Requests","message":"Rate limit exceeded.","code":0,"status":429}');
    expect(rl(r)).toEqual({ limit: '20', remaining: '0', reset: '1' });
    expect(r.headers['content-type']).toBe('application/json; charset=UTF-8');
  });

  it('the 20th success says Remaining 0 and Reset 1; the others Reset 0', async () => {
    const s = await sim();
    const replies: Reply[] = [];
    for (let i = 0; i < 20; i++) replies.push(await call(s, 'GET', '/assets/categories'));
    expect(replies.map((r) => rl(r).remaining)).toEqual(Array.from({ length: 20 }, (_, i) => String(19 - i)));
    expect(replies.map((r) => rl(r).reset)).toEqual([...Array(19).fill('0'), '1']);
  });
});

describe('the Date header', () => {
  it('carries the clock reading the budget used, on every answer', async () => {
    const s = await sim();
    now = T0 + 999; // still 12:00:00
    for (const r of [await call(s, 'GET', '/assets/list'), await call(s, 'GET', '/nope'), await call(s, 'GET', '/assets/list', { token: 'x' })]) {
      expect(r.headers.date).toBe('Thu, 01 Jan 2026 12:00:00 GMT');
    }
    now = T0 + 1000;
    expect((await call(s, 'GET', '/assets/list')).headers.date).toBe('Thu, 01 Jan 2026 12:00:01 GMT');
  });

  it('with the real clock, Date is within a second of now', async () => {
    const s = await startSimulator();
    sims.push(s);
    const before = Math.floor(Date.now() / 1000) * 1000;
    const r = await call(s, 'GET', '/assets/list');
    const date = parseServerDate(r.headers.date)!;
    expect(date).toBeGreaterThanOrEqual(before);
    expect(date).toBeLessThanOrEqual(Date.now());
  });
});

describe('budgets', () => {
  it('all tokens of a vendor share one budget per endpoint', async () => {
    const s = await sim();
    const a = await burst(s, 10, '/assets/list', 'demo-token-1');
    const b = await burst(s, 10, '/assets/list', 'demo-token-2');
    expect([...a, ...b].every((x) => x === 200)).toBe(true);
    expect((await call(s, 'GET', '/assets/list', { token: 'demo-token-1' })).status).toBe(429);
    expect((await call(s, 'GET', '/assets/list', { token: 'demo-token-2' })).status).toBe(429);
  });

  it('vendors and endpoints are independent', async () => {
    const s = await sim();
    await burst(s, 21);
    expect(rl(await call(s, 'GET', '/assets/list', { token: 'acme-token-1' }))).toEqual({ limit: '20', remaining: '19', reset: '0' });
    expect(rl(await call(s, 'GET', '/assets/categories'))).toEqual({ limit: '20', remaining: '19', reset: '0' });
    expect(rl(await call(s, 'POST', '/assets/history', { body: { asset_id: 1001 } }))).toEqual({ limit: '10', remaining: '9', reset: '0' });
  });

  it('each endpoint has its documented limit', async () => {
    const s = await sim();
    const limits: [string, string, unknown, string][] = [
      ['GET', '/assets/list', undefined, '20'],
      ['POST', '/assets/search', { query: 'x' }, '20'],
      ['POST', '/assets/history', { asset_id: 1001 }, '10'],
      ['GET', '/assets/categories', undefined, '20'],
      ['GET', '/purchase/info?client_reference=r', undefined, '50'],
      ['POST', '/purchase/register', { asset_id: 1001 }, '50'],
      ['POST', '/purchase/validate-purchase-before-payment', { purchase_id: 'p_x' }, '50'],
      ['GET', '/purchase/download-url?purchase_id=p_x', undefined, '50'],
      ['GET', '/purchase/view-url?purchase_id=p_x', undefined, '50'],
      ['DELETE', '/purchase/cancel?purchase_id=p_x', undefined, '50'],
    ];
    for (const [method, path, body, limit] of limits) {
      expect(rl(await call(s, method, path, { body }))).toMatchObject({ limit });
    }
  });

  it('whole-second: 2N within milliseconds across a second boundary pass; 0.6 s later in the same second is 429', async () => {
    const s = await sim();
    now = T0 + 990;
    expect((await burst(s, 20)).every((x) => x === 200)).toBe(true);
    expect((await call(s, 'GET', '/assets/list')).status).toBe(429);
    now = T0 + 1000;
    expect((await burst(s, 20)).every((x) => x === 200)).toBe(true);
    now = T0 + 1600;
    const late = await call(s, 'GET', '/assets/list');
    expect(late.status).toBe(429);
    expect(rl(late)).toEqual({ limit: '20', remaining: '0', reset: '1' });
    now = T0 + 2000;
    expect(rl(await call(s, 'GET', '/assets/list'))).toMatchObject({ remaining: '19' });
  });

  it('continuous: one slot comes back every 50 ms at limit 20, none across a boundary for free', async () => {
    const s = await sim({ refill: 'continuous' });
    now = T0 + 990;
    expect((await burst(s, 20)).every((x) => x === 200)).toBe(true);
    now = T0 + 1000;
    expect((await call(s, 'GET', '/assets/list')).status).toBe(429);
    now = T0 + 1045; // 0.2 slot kept by the refusal + 0.9 since: 1.1 slots
    const back = await call(s, 'GET', '/assets/list');
    expect(back.status).toBe(200);
    expect(rl(back)).toEqual({ limit: '20', remaining: '0', reset: '0' });
    const refused = await call(s, 'GET', '/assets/list');
    expect(refused.status).toBe(429);
    expect(rl(refused)).toEqual({ limit: '20', remaining: '0', reset: '1' });
  });

  it('the refill model switches at run time (and every bucket starts full)', async () => {
    const s = await sim();
    await burst(s, 20);
    s.control.setRefill('continuous');
    expect(s.control.state().refill).toBe('continuous');
    expect(rl(await call(s, 'GET', '/assets/list'))).toMatchObject({ remaining: '19' });
  });
});

describe('list parameters', () => {
  it('an empty last_id (?last_id= and bare ?last_id) is 400 with headers and costs a slot', async () => {
    const s = await sim();
    const a = await call(s, 'GET', '/assets/list?last_id=');
    const b = await call(s, 'GET', '/assets/list?last_id');
    const c = await call(s, 'GET', '/assets/list?per-page=5&last_id');
    for (const r of [a, b, c]) {
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ name: 'Bad Request', message: expect.stringContaining('last_id'), code: 0, status: 400 });
    }
    expect([a, b, c].map((r) => rl(r).remaining)).toEqual(['19', '18', '17']);
  });

  it('last_id must be one integer', async () => {
    const s = await sim();
    for (const q of ['last_id=abc', 'last_id=1.5', 'last_id=1&last_id=2', 'last_id=%20']) {
      expect((await call(s, 'GET', `/assets/list?${q}`)).status).toBe(400);
    }
  });

  it('per-page is an integer from 1 to 100 (default 20); anything else is 400 and costs a slot', async () => {
    const s = await sim({ catalogSize: 500 });
    const sizes: [string, number][] = [
      ['', 20],
      ['?per-page=1', 1],
      ['?per-page=100', 100],
      ['?per-page=007', 7],
    ];
    for (const [q, n] of sizes) expect(((await call(s, 'GET', `/assets/list${q}`)).json as { items: unknown[] }).items).toHaveLength(n);
    for (const v of ['0', '101', 'abc', '1.5', '', '-5', '1e2']) {
      const r = await call(s, 'GET', `/assets/list?per-page=${v}`);
      expect(r.status).toBe(400);
      expect(r.json).toMatchObject({ message: expect.stringContaining('per-page') });
    }
    expect(rl(await call(s, 'GET', '/assets/list'))).toMatchObject({ remaining: String(20 - 4 - 7 - 1) });
  });

  it('paging through the whole catalog by last_id gives increasing ids with no repeats', async () => {
    const s = await sim({ catalogSize: 250 });
    const ids: number[] = [];
    let last: number | null = null;
    let pages = 0;
    for (;;) {
      const r = await call(s, 'GET', `/assets/list?per-page=100${last === null ? '' : `&last_id=${last}`}`);
      expect(r.status).toBe(200);
      const page = r.json as { items: { id: number }[]; last_id: number | null; has_more: boolean; total: number };
      expect(page.total).toBe(250);
      ids.push(...page.items.map((a) => a.id));
      pages++;
      if (!page.has_more) break;
      last = page.last_id;
    }
    expect(pages).toBe(3);
    expect(ids).toHaveLength(250);
    expect(new Set(ids).size).toBe(250);
    expect(ids.every((id, i) => i === 0 || id > ids[i - 1]!)).toBe(true);
  });
});

describe('catalog endpoints', () => {
  it('categories, search and history answer the documented shapes', async () => {
    const s = await sim();
    const cats = (await call(s, 'GET', '/assets/categories')).json as { items: { id: string; name: string; count: number }[] };
    expect(cats.items.reduce((n, c) => n + c.count, 0)).toBe(250);
    const found = await call(s, 'POST', '/assets/search', { body: { query: 'TOWER', category: cats.items[0]!.id, limit: 3 } });
    expect(found.status).toBe(200);
    const fj = found.json as { items: { title: string; category: string; tags: string[] }[]; total: number; total_capped: boolean };
    expect(fj.items.length).toBeLessThanOrEqual(3);
    expect(fj.total_capped).toBe(false);
    for (const a of fj.items) {
      expect(a.category).toBe(cats.items[0]!.id);
      expect(`${a.title} ${a.tags.join(' ')}`.toLowerCase()).toContain('tower');
    }
    const first = ((await call(s, 'GET', '/assets/list?per-page=1')).json as { items: { id: number }[] }).items[0]!;
    const h = (await call(s, 'POST', '/assets/history', { body: { asset_id: first.id } })).json as { asset_id: number; items: unknown[] };
    expect(h.asset_id).toBe(first.id);
    expect(h.items.length).toBeGreaterThan(0);
  });

  it('bad bodies are 400 with headers; an unknown asset is 404 with headers', async () => {
    const s = await sim();
    const cases: [string, unknown][] = [
      ['/assets/search', '{not json'],
      ['/assets/search', '[1,2]'],
      ['/assets/search', {}],
      ['/assets/search', { query: 'x', limit: 0 }],
      ['/assets/search', { query: 'x', limit: 101 }],
      ['/assets/search', { query: 'x', category: 'nope' }],
      ['/assets/history', { asset_id: 'abc' }],
      ['/assets/history', ''],
    ];
    for (const [path, body] of cases) {
      const r = await call(s, 'POST', path, { body });
      expect(r.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(rl(r).limit).toBeDefined();
    }
    const unknown = await call(s, 'POST', '/assets/history', { body: { asset_id: 999_999 } });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({ name: 'Not Found', message: 'Asset 999999 not found.', code: 0, status: 404 });
    expect(rl(unknown).limit).toBe('10');
  });
});
