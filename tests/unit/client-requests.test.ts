/** What is sent and what comes back: validation before sending, tokens, bodies, errors and samples. */
import { describe, expect, it } from 'vitest';
import { budgetSampleSchema } from '../../shared/rate-limit';
import type { BudgetSample } from '../../shared/rate-limit';
import { PartnerClient } from '../../electron/client';
import { drive, errorOf, harness } from '../../electron/client/testing';
import type { FakeAction } from '../../electron/client/testing';

describe('refused before sending: no request, no slot', () => {
  // A list page's size and cursor are checked where the service map names them (tests/unit/service-map-requests.test.ts).
  const cases: [string, Record<string, string | number | undefined>, RegExp][] = [['a NaN parameter', { 'per-page': NaN }, /not a finite number/]];
  it.each(cases)('%s', async (_, query, message) => {
    const h = harness();
    const client = h.client();
    const e = await errorOf(client.request('listAssets', { query }));
    expect(e.code).toBe('BAD_REQUEST');
    expect(e.message).toMatch(message);
    expect(e.message).toMatch(/Not sent/);
    expect(h.fake.received).toHaveLength(0);
    const bucket = client.budgetSnapshot().find((b) => b.endpoint === 'listAssets')!;
    expect(bucket.available).toBe(20);
    expect(bucket.inFlight).toBe(0);
  });

  it('refuses a body on a GET, an unknown endpoint, a bad priority or timeout', async () => {
    const h = harness();
    const client = h.client();
    expect((await errorOf(client.request('categories', { body: { a: 1 } }))).code).toBe('BAD_REQUEST');
    expect((await errorOf(client.request('nope' as never))).code).toBe('BAD_REQUEST');
    expect((await errorOf(client.request('categories', { priority: 'urgent' as never }))).code).toBe('BAD_REQUEST');
    expect((await errorOf(client.request('categories', { timeoutMs: -5 }))).code).toBe('BAD_REQUEST');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect((await errorOf(client.request('searchAssets', { body: cyclic }))).message).toMatch(/JSON/);
    expect(h.fake.received).toHaveLength(0);
  });
});

describe('tokens', () => {
  it('rotates over the vendor tokens, or uses the one named', async () => {
    const h = harness();
    const client = h.client({ tokens: ['token-a', 'token-b'] });
    for (let i = 0; i < 3; i++) await drive(h.clock, client.request('categories'));
    await drive(h.clock, client.request('categories', { token: 'token-b' }));
    expect(h.fake.received.map((r) => r.token)).toEqual(['token-a', 'token-b', 'token-a', 'token-b']);
  });

  it('presents the token as configured', async () => {
    const h = harness();
    const client = h.client({ tokenPresentation: { header: 'X-Api-Key', scheme: null } });
    await drive(h.clock, client.request('categories'));
    expect(h.fake.received[0]!.headers['x-api-key']).toBe('token-a');
    expect(h.fake.received[0]!.headers['authorization']).toBeUndefined();
  });

  it('never shows a token in an error message, an error body or a sample', async () => {
    const secret = 'sekrit-token-123';
    const h = harness({
      action: (req) => ({ kind: 'answer', status: 404, body: { name: 'Not Found', message: `No purchase for token ${req.token}`, code: 0, status: 404 } }),
    });
    const client = h.client({ tokens: [secret] });
    const samples: BudgetSample[] = [];
    client.onSample((s) => samples.push(s));
    const e = await errorOf(drive(h.clock, client.request('purchaseInfo', { query: { purchase_id: 'p' } })));
    expect(e.code).toBe('NOT_FOUND');
    expect(JSON.stringify(e.data)).not.toContain(secret);
    expect(e.message).toContain('sekr…23');
    expect(JSON.stringify(samples)).not.toContain(secret);
    const named = await errorOf(client.request('categories', { token: 'other-secret' }));
    expect(named.code).toBe('BAD_REQUEST');
    expect(JSON.stringify(named.data)).not.toContain('other-secret');
  });

  it('refuses bad options with a clear error that does not show the token', () => {
    const base = { baseUrl: 'http://x', vendor: 'v', tokens: ['ok'] };
    expect(() => new PartnerClient({ ...base, tokens: ['bad\ntoken'] })).toThrow(/token #1 .* characters/);
    try {
      new PartnerClient({ ...base, tokens: ['bad\ntoken'] });
    } catch (e) {
      expect(String((e as Error).message)).not.toContain('bad\ntoken');
    }
    expect(() => new PartnerClient({ ...base, baseUrl: 'ftp://x' })).toThrow(/baseUrl/);
    expect(() => new PartnerClient({ ...base, vendor: ' ' })).toThrow(/vendor/);
    expect(() => new PartnerClient({ ...base, timeoutMs: 0 })).toThrow(/timeoutMs/);
  });

  it('with no token at all: UNAUTHORIZED before sending', async () => {
    const h = harness();
    const e = await errorOf(h.client({ tokens: [] }).request('categories'));
    expect(e.code).toBe('UNAUTHORIZED');
    expect(h.fake.received).toHaveLength(0);
  });
});

describe('answers', () => {
  const answer = (action: FakeAction) => harness({ action: () => action });

  it('a 2xx with a body that is not JSON is INVALID_RESPONSE with an excerpt of the text', async () => {
    const h = answer({ kind: 'answer', text: '<html>gateway says hello</html>' });
    const e = await errorOf(drive(h.clock, h.client().request('categories')));
    expect(e.code).toBe('INVALID_RESPONSE');
    expect(e.message).toContain('gateway says hello');
    expect(e.data.status).toBe(200);
  });

  it('an error with a text body keeps the text; a JSON error body is kept as JSON', async () => {
    const h = answer({ kind: 'answer', status: 409, text: 'state says no' });
    const e = await errorOf(drive(h.clock, h.client().request('cancelPurchase', { query: { purchase_id: 'p' } })));
    expect(e.code).toBe('CONFLICT');
    expect(e.data.body).toBe('state says no');
    expect(e.message).toContain('state says no');

    const h2 = answer({ kind: 'answer', status: 400, body: { name: 'Bad Request', message: 'bad asset_id', code: 0, status: 400 } });
    const e2 = await errorOf(drive(h2.clock, h2.client().request('assetHistory', { body: { asset_id: 'x' } })));
    expect(e2.code).toBe('BAD_REQUEST');
    expect(e2.data.body).toEqual({ name: 'Bad Request', message: 'bad asset_id', code: 0, status: 400 });
    expect(h2.fake.received).toHaveLength(1); // a 400 is not retried
  });

  it('returns status, JSON body, parsed headers, the sample and the attempt count', async () => {
    const h = answer({ kind: 'answer', body: { items: [1, 2] } });
    const res = await drive(h.clock, h.client().request<{ items: number[] }>('categories'));
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([1, 2]);
    expect(res.rateLimit).toMatchObject({ limit: 20, remaining: 19, reset: 0, problems: [] });
    expect(res.sample).toMatchObject({ vendor: 'v', endpoint: 'categories', status: 200, limit: 20, remaining: 19, attempt: 1 });
    expect(res.attempts).toBe(1);
  });

  it('sends JSON bodies with a content type, and query parameters on the URL', async () => {
    const h = harness();
    const client = h.client();
    await drive(h.clock, client.request('searchAssets', { body: { query: 'stone', limit: 5 } }));
    await drive(h.clock, client.request('purchaseInfo', { query: { purchase_id: 'p_1', flag: true } }));
    expect(h.fake.received[0]!.body).toEqual({ query: 'stone', limit: 5 });
    expect(h.fake.received[0]!.headers['content-type']).toBe('application/json');
    expect(h.fake.received[1]!.url.search).toBe('?purchase_id=p_1&flag=true');
  });
});

describe('budget samples', () => {
  it('one per answer or failure, each a valid BudgetSample; a throwing subscriber breaks nothing', async () => {
    const outcomes: FakeAction[] = [{ kind: 'drop' }, { kind: 'answer', status: 500 }, { kind: 'answer', status: 404 }];
    let i = 0;
    const h = harness({ action: () => outcomes[i++] ?? { kind: 'answer' } });
    const client = h.client();
    const samples: BudgetSample[] = [];
    client.onSample(() => {
      throw new Error('subscriber bug');
    });
    const off = client.onSample((s) => samples.push(s));
    const e = await errorOf(drive(h.clock, client.request('viewUrl', { query: { purchase_id: 'p' } })));
    expect(e.code).toBe('NOT_FOUND');
    await drive(h.clock, client.request('viewUrl', { query: { purchase_id: 'p' } }));
    expect(samples.map((s) => [s.status, s.attempt])).toEqual([
      [0, 1],
      [500, 2],
      [404, 3],
      [200, 1],
    ]);
    for (const s of samples) expect(budgetSampleSchema.parse(s)).toEqual(s);
    expect(samples[0]).toMatchObject({ limit: null, remaining: null, reset: null });
    off();
    await drive(h.clock, client.request('viewUrl', { query: { purchase_id: 'p' } }));
    expect(samples).toHaveLength(4);
  });

  it('reports the time waited for budget', async () => {
    const h = harness({ latencyMs: 2 });
    const client = h.client();
    const waits: number[] = [];
    client.onSample((s) => waits.push(s.waitedMs));
    await drive(h.clock, Promise.all(Array.from({ length: 12 }, () => client.request('assetHistory', { body: { asset_id: 1 } }))));
    expect(waits.slice(0, 10).every((w) => w === 0)).toBe(true);
    expect(Math.min(...waits.slice(10))).toBeGreaterThan(900); // the 11th and 12th waited for the next second
  });
});
