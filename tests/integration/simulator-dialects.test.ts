/**
 * The simulator's payload dialects over real HTTP on loopback: each serves the same catalog and
 * purchases in its own shapes, honours only its own parameter names (others are ignored, as a real
 * service would), and rate-limits exactly like the default dialect (same headers, same 429 body).
 * Expected values come from the default dialect's answers for the same request.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RATE_LIMITED_BODY, startSimulator } from '../../electron/simulator';
import type { RunningSimulator, SimDialect, SimulatorOptions } from '../../electron/simulator';

interface Reply {
  status: number;
  headers: Headers;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers are read per dialect below
}

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
let now = T0;
const sims: RunningSimulator[] = [];

async function sim(dialect: SimDialect, options: SimulatorOptions = {}): Promise<RunningSimulator> {
  now = T0;
  const s = await startSimulator({ clock: () => now, catalogSize: 45, dialect, ...options });
  sims.push(s);
  return s;
}

afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.stop()));
});

async function call(s: RunningSimulator, method: string, path: string, body?: unknown): Promise<Reply> {
  const res = await fetch(`${s.url}${path}`, {
    method,
    headers: { Authorization: 'Bearer demo-token-1', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, headers: res.headers, json: await res.json() };
}

/** 200 and its JSON, or the test fails showing the answer. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function ok(s: RunningSimulator, method: string, path: string, body?: unknown): Promise<any> {
  const r = await call(s, method, path, body);
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  return r.json;
}

/** The default dialect's view of the same service, for expected values. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function canonical(): Promise<{ assets: any[]; categories: any[] }> {
  const d = await sim('default');
  const assets = (await ok(d, 'GET', '/assets/list?per-page=100')).items;
  const categories = (await ok(d, 'GET', '/assets/categories')).items;
  return { assets, categories };
}

/** How each dialect is spoken, and read back to canonical values, for the table-driven tests. */
interface Speaker {
  dialect: SimDialect;
  pageSize: string;
  listIds(json: any): number[]; // eslint-disable-line @typescript-eslint/no-explicit-any
  nextCursor(json: any): number | null; // eslint-disable-line @typescript-eslint/no-explicit-any
  search(text: string, category: unknown, limit: number): Record<string, unknown>;
  searchIds(json: any): number[]; // eslint-disable-line @typescript-eslint/no-explicit-any
  categoryIdOf(canonicalId: string, categories: any): unknown; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const lastOf = (ids: number[]): number | null => ids[ids.length - 1] ?? null;

const SPEAKERS: Speaker[] = [
  {
    dialect: 'jsonapi',
    pageSize: 'page[size]',
    listIds: (j) => j.data.map((a: { id: string }) => Number(a.id)),
    nextCursor: (j) => (j.links.next === null ? null : Number(/last_id=(\d+)/.exec(j.links.next)![1])),
    search: (text, category, limit) => ({ filter: { text, category }, page: { size: limit } }),
    searchIds: (j) => j.data.map((a: { id: string }) => Number(a.id)),
    categoryIdOf: (id) => id,
  },
  {
    dialect: 'camel-minor',
    pageSize: 'limit',
    listIds: (j) => j.items.map((a: { id: number }) => a.id),
    nextCursor: (j) => j.nextCursor,
    search: (text, categoryId, limit) => ({ q: text, categoryId, maxResults: limit }),
    searchIds: (j) => j.items.map((a: { id: number }) => a.id),
    categoryIdOf: (id, categories) => categories.items.find((c: { slug: string }) => c.slug === id).id,
  },
  {
    dialect: 'snake-envelope',
    pageSize: 'page_size',
    listIds: (j) => j.result.records.map((a: { asset_id: number }) => a.asset_id),
    nextCursor: (j) => j.result.paging.next_last_id,
    search: (text, category, limit) => ({ search_text: text, category_code: category, max_items: limit }),
    searchIds: (j) => j.result.records.map((a: { asset_id: number }) => a.asset_id),
    categoryIdOf: (id) => id,
  },
];

const ALL_PAGE_SIZE_NAMES = ['per-page', 'page[size]', 'limit', 'page_size', 'pageSize', 'per_page'];

describe.each(SPEAKERS)('dialect $dialect', (sp) => {
  it('pages through the same catalog with its own page-size parameter and cursor', async () => {
    const { assets } = await canonical();
    const s = await sim(sp.dialect);
    const ids: number[] = [];
    let cursor: number | null = null;
    let pages = 0;
    do {
      const json = await ok(s, 'GET', `/assets/list?${encodeURIComponent(sp.pageSize)}=10${cursor === null ? '' : `&last_id=${cursor}`}`);
      const page = sp.listIds(json);
      if (sp.nextCursor(json) !== null) expect(page).toHaveLength(10);
      ids.push(...page);
      cursor = sp.nextCursor(json);
      if (cursor !== null) expect(cursor).toBe(lastOf(page));
      pages++;
    } while (cursor !== null && pages < 20);
    expect(pages).toBe(5);
    expect(ids).toEqual(assets.map((a) => a.id));
  });

  it("ignores every other page-size name (a client with the wrong name gets the service's default 20)", async () => {
    const s = await sim(sp.dialect);
    for (const name of ALL_PAGE_SIZE_NAMES.filter((n) => n !== sp.pageSize)) {
      const r = await call(s, 'GET', `/assets/list?${encodeURIComponent(name)}=3&unknown_flag=1`);
      expect(r.status).toBe(200);
      expect(sp.listIds(r.json)).toHaveLength(20);
    }
    expect(sp.listIds(await ok(s, 'GET', `/assets/list?${encodeURIComponent(sp.pageSize)}=3`))).toHaveLength(3);
  });

  it('answers 400 for an empty last_id and for an out-of-range page size in its own name, costing a slot', async () => {
    const s = await sim(sp.dialect);
    const empty = await call(s, 'GET', '/assets/list?last_id=');
    expect(empty.status).toBe(400);
    expect(empty.json).toMatchObject({ name: 'Bad Request', code: 0, status: 400 });
    expect(empty.headers.get('x-rate-limit-remaining')).toBe('19');
    expect((await call(s, 'GET', `/assets/list?${encodeURIComponent(sp.pageSize)}=0`)).status).toBe(400);
    expect((await call(s, 'GET', `/assets/list?${encodeURIComponent(sp.pageSize)}=101`)).status).toBe(400);
  });

  it('filters search by its own category and limit names; other names are ignored', async () => {
    const { assets } = await canonical();
    const s = await sim(sp.dialect);
    const categories = await ok(s, 'GET', '/assets/categories');
    const audio = sp.categoryIdOf('audio', categories);
    const expected = assets.filter((a) => a.category === 'audio').map((a) => a.id);
    expect(expected.length).toBeGreaterThan(2);
    expect(sp.searchIds(await ok(s, 'POST', '/assets/search', sp.search('', audio, 100)))).toEqual(expected);
    expect(sp.searchIds(await ok(s, 'POST', '/assets/search', sp.search('', audio, 2)))).toEqual(expected.slice(0, 2));
    // The default dialect's names mean nothing here: the whole catalog's first 20, unfiltered.
    const wrong = sp.searchIds(await ok(s, 'POST', '/assets/search', { query: 'zzz', category: 'audio', limit: 2 }));
    expect(wrong).toEqual(assets.slice(0, 20).map((a) => a.id));
  });
});

describe('dialect shapes', () => {
  it('jsonapi: resources with string ids, decimal-string money, ISO dates; pending -> confirmed -> void', async () => {
    const { assets, categories } = await canonical();
    const s = await sim('jsonapi');
    const a = assets[0];
    const page = await ok(s, 'GET', '/assets/list?page[size]=2');
    expect(page.data[0]).toEqual({
      type: 'asset',
      id: String(a.id),
      attributes: {
        title: a.title,
        category: { slug: a.category, name: categories.find((c) => c.id === a.category).name },
        price: { amount: a.price.toFixed(2), currency: 'USD' },
        rating: a.rating,
        downloads: a.downloads,
        tags: a.tags,
        createdAt: a.created_at,
        updatedAt: a.updated_at,
      },
    });
    expect(page.meta).toEqual({ total: 45 });
    expect(page.links.next).toBe(`/assets/list?last_id=${assets[1].id}&page[size]=2`);
    const cats = await ok(s, 'GET', '/assets/categories');
    expect(cats.data).toContainEqual({
      type: 'category',
      id: 'audio',
      attributes: { name: 'Audio', assetCount: categories.find((c) => c.id === 'audio').count },
    });
    const history = await ok(s, 'POST', '/assets/history', { assetId: String(a.id) });
    expect(history.data.at(-1).attributes).toMatchObject({ recordedAt: a.updated_at, price: { amount: a.price.toFixed(2), currency: 'USD' } });

    const reg = await ok(s, 'POST', '/purchase/register', { assetId: String(a.id), clientReference: 'ref-1' });
    expect(reg.data).toMatchObject({
      type: 'purchase',
      attributes: { state: 'pending', clientReference: 'ref-1' },
      relationships: { asset: { data: { type: 'asset', id: String(a.id) } } },
    });
    const id = reg.data.id as string;
    expect((await ok(s, 'POST', `/purchase/validate-purchase-before-payment?purchaseId=${id}`)).data.attributes.state).toBe('confirmed');
    const url = await ok(s, 'GET', `/purchase/download-url?purchaseId=${id}`);
    expect(url.data).toMatchObject({
      type: 'download-url',
      id,
      attributes: { url: expect.stringMatching(/^https:\/\//), expiresAt: new Date(T0 + 15 * 60_000).toISOString() },
    });
    const found = await ok(s, 'GET', '/purchase/info?filter[clientReference]=ref-1');
    expect(found.data.map((p: { id: string }) => p.id)).toEqual([id]);
    expect((await ok(s, 'DELETE', `/purchase/cancel?purchaseId=${id}`)).data.attributes.state).toBe('void');
    // The default name is not this dialect's: no purchase id given at all.
    expect((await call(s, 'GET', `/purchase/info?purchase_id=${id}`)).status).toBe(400);
  });

  it('camel-minor: numeric ids, cents, epoch ms; validate takes the asset; PENDING -> APPROVED -> CANCELED', async () => {
    const { assets, categories } = await canonical();
    const s = await sim('camel-minor');
    const a = assets[0];
    const page = await ok(s, 'GET', '/assets/list?limit=1');
    const audioNumber = categories.findIndex((c) => c.id === a.category) + 1;
    expect(page).toEqual({
      items: [
        {
          id: a.id,
          name: a.title,
          categoryId: audioNumber,
          priceCents: Math.round(a.price * 100),
          currencyCode: 'USD',
          rating: a.rating,
          downloadCount: a.downloads,
          tags: a.tags,
          createdAt: Date.parse(a.created_at),
          updatedAt: Date.parse(a.updated_at),
        },
      ],
      nextCursor: a.id,
      hasMore: true,
      totalCount: 45,
    });
    const history = await ok(s, 'POST', '/assets/history', { assetId: a.id });
    expect(history.history.at(-1)).toMatchObject({ timestamp: Date.parse(a.updated_at), priceCents: Math.round(a.price * 100) });

    const first = await ok(s, 'POST', '/purchase/register', { assetId: a.id, reference: 'r' });
    expect(first).toMatchObject({
      id: expect.any(Number),
      assetId: a.id,
      status: 'PENDING',
      priceCents: Math.round(a.price * 100),
      reference: 'r',
      createdAt: T0,
    });
    // Validate names the asset; the newest pending purchase of it is the one validated.
    const second = await ok(s, 'POST', '/purchase/register', { assetId: a.id });
    const validated = await ok(s, 'POST', '/purchase/validate-purchase-before-payment', { assetId: a.id });
    expect(validated).toMatchObject({ id: second.id, status: 'APPROVED' });
    expect((await ok(s, 'POST', '/purchase/validate-purchase-before-payment', { assetId: a.id })).id).toBe(first.id);
    const again = await call(s, 'POST', '/purchase/validate-purchase-before-payment', { assetId: a.id });
    expect(again.status).toBe(409);
    const none = await call(s, 'POST', '/purchase/validate-purchase-before-payment', { assetId: assets[1].id });
    expect(none.status).toBe(404);
    expect((await call(s, 'POST', '/purchase/validate-purchase-before-payment', { purchaseId: first.id })).status).toBe(400);

    expect(await ok(s, 'GET', `/purchase/view-url?purchaseId=${first.id}`)).toEqual({
      purchaseId: first.id,
      url: expect.stringMatching(/^https:\/\//),
      expiresIn: 900,
    });
    expect((await ok(s, 'GET', '/purchase/info?reference=r')).items.map((p: { id: number }) => p.id)).toEqual([first.id]);
    expect((await ok(s, 'DELETE', `/purchase/cancel?purchaseId=${first.id}`)).status).toBe('CANCELED');
    expect((await call(s, 'GET', '/purchase/info?purchaseId=999999')).status).toBe(404);
  });

  it('snake-envelope: { status, result } envelopes, unit_price, epoch seconds; new -> approved -> cancelled', async () => {
    const { assets, categories } = await canonical();
    const s = await sim('snake-envelope');
    const a = assets[0];
    const page = await ok(s, 'GET', '/assets/list?page_size=1');
    expect(page).toEqual({
      status: 'ok',
      result: {
        records: [
          {
            asset_id: a.id,
            display_name: a.title,
            category_code: a.category,
            unit_price: a.price,
            currency: 'USD',
            rating: a.rating,
            download_count: a.downloads,
            tags: a.tags,
            created_at: Date.parse(a.created_at) / 1000,
            updated_at: Date.parse(a.updated_at) / 1000,
          },
        ],
        paging: { total: 45, next_last_id: a.id },
      },
    });
    expect((await ok(s, 'GET', '/assets/categories')).result.records[0]).toEqual({
      code: categories[0].id,
      title: categories[0].name,
      asset_count: categories[0].count,
    });
    const history = await ok(s, 'POST', '/assets/history', { asset_id: a.id });
    expect(history.result.points.at(-1)).toMatchObject({ ts: Date.parse(a.updated_at) / 1000, amount: a.price });

    const reg = await ok(s, 'POST', '/purchase/register', { asset_id: a.id, client_reference: 'c' });
    expect(reg.result.purchase).toMatchObject({ asset_id: a.id, state: 'new', unit_price: a.price, client_reference: 'c', created_at: T0 / 1000 });
    const id = reg.result.purchase.purchase_id as string;
    expect((await ok(s, 'POST', '/purchase/validate-purchase-before-payment', { purchase_id: id })).result.purchase.state).toBe('approved');
    expect((await ok(s, 'GET', `/purchase/download-url?purchase_id=${id}`)).result).toEqual({
      purchase_id: id,
      url: expect.any(String),
      expires_at: T0 / 1000 + 900,
    });
    expect((await ok(s, 'GET', '/purchase/info?client_reference=c')).result.records).toHaveLength(1);
    expect((await ok(s, 'DELETE', `/purchase/cancel?purchase_id=${id}`)).result.purchase.state).toBe('cancelled');
  });

  it('errors keep the one error shape in every dialect', async () => {
    for (const [dialect, body] of [
      ['jsonapi', { assetId: '7' }],
      ['camel-minor', { assetId: 7 }],
      ['snake-envelope', { asset_id: 7 }],
    ] as const) {
      const s = await sim(dialect);
      const r = await call(s, 'POST', '/purchase/register', body);
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ name: 'Not Found', message: 'Asset 7 not found.', code: 0, status: 404 });
    }
  });
});

describe("a 400 names the dialect's own parameters", () => {
  it('page size, search fields, history asset and purchase id', async () => {
    const cases: [SimDialect, string, string, unknown, RegExp][] = [
      ['camel-minor', 'GET', '/assets/list?limit=500', undefined, /^Parameter "limit" must be an integer from 1 to 100\.$/],
      ['jsonapi', 'GET', '/assets/list?page[size]=0', undefined, /^Parameter "page\[size\]" must be/],
      ['snake-envelope', 'POST', '/assets/search', { search_text: 'a', max_items: 500 }, /^Invalid request body: max_items: /],
      ['camel-minor', 'POST', '/assets/history', {}, /^Invalid request body: assetId: /],
      ['jsonapi', 'GET', '/purchase/download-url', undefined, /^Missing required parameter: purchaseId$/],
      ['camel-minor', 'GET', '/purchase/info', undefined, /^Give exactly one of the parameters "purchaseId" and "reference"\.$/],
    ];
    for (const [dialect, method, path, body, message] of cases) {
      const s = await sim(dialect);
      const r = await call(s, method, path, body);
      expect(r.status).toBe(400);
      expect(r.json.message).toMatch(message);
    }
  });
});

describe('rate limiting is identical in every dialect', () => {
  /** 22 list requests in one second and one in the next: statuses, the three headers, the 429 body. */
  async function trace(dialect: SimDialect): Promise<unknown[]> {
    const s = await sim(dialect);
    const out: unknown[] = [];
    const record = (r: Reply): void => {
      out.push([r.status, r.headers.get('x-rate-limit-limit'), r.headers.get('x-rate-limit-remaining'), r.headers.get('x-rate-limit-reset')]);
      if (r.status === 429) out.push(r.json);
    };
    now = T0 + 100;
    for (let i = 0; i < 22; i++) record(await call(s, 'GET', i === 5 ? '/assets/list?last_id=' : '/assets/list'));
    now = T0 + 1000;
    record(await call(s, 'GET', '/assets/list'));
    now = T0 + 1200;
    for (let i = 0; i < 11; i++) record(await call(s, 'POST', '/assets/history', {}));
    return out;
  }

  it('same statuses, headers and 429 body as the default dialect', async () => {
    const expected = await trace('default');
    expect(expected).toContainEqual(RATE_LIMITED_BODY);
    expect(expected.filter((e) => Array.isArray(e) && e[0] === 429)).toHaveLength(3);
    for (const d of ['jsonapi', 'camel-minor', 'snake-envelope'] as const) expect(await trace(d)).toEqual(expected);
  });
});

describe('switching the dialect at run time', () => {
  it('PUT /_sim/dialect changes the shapes and keeps catalog, purchases and budgets; a bad name is a 400 that changes nothing', async () => {
    const s = await sim('default');
    const reg = await ok(s, 'POST', '/purchase/register', { asset_id: (await ok(s, 'GET', '/assets/list?per-page=1')).items[0].id });
    const put = (dialect: unknown) => fetch(`${s.url}/_sim/dialect`, { method: 'PUT', body: JSON.stringify({ dialect }) });
    const bad = await put('xml');
    expect(bad.status).toBe(400);
    expect(s.control.state().dialect).toBe('default');
    const good = await put('snake-envelope');
    expect(await good.json()).toEqual({ dialect: 'snake-envelope' });
    const info = await ok(s, 'GET', `/purchase/info?purchase_id=${reg.id}`);
    expect(info.result.purchase).toMatchObject({ purchase_id: reg.id, state: 'new' });
    // Budgets stay: one list request before the switch, one now.
    expect((await call(s, 'GET', '/assets/list')).headers.get('x-rate-limit-remaining')).toBe('18');
    expect(((await (await fetch(`${s.url}/_sim/state`)).json()) as { dialect: string }).dialect).toBe('snake-envelope');
    expect(() => s.control.setDialect('nope' as SimDialect)).toThrow(/dialect must be one of default, jsonapi, camel-minor, snake-envelope/);
  });
});
