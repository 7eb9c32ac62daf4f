/** The purchase workflow over HTTP: the state machine, 404/409 with headers, per-vendor purchases. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator } from '../../electron/simulator';
import type { RunningSimulator } from '../../electron/simulator';

let sim: RunningSimulator;
let now = Date.UTC(2026, 0, 1, 9, 0, 0);

beforeEach(async () => {
  sim = await startSimulator({ clock: () => now, catalogSize: 100 });
});
afterEach(async () => {
  await sim.stop();
});

interface Reply {
  status: number;
  body: Record<string, unknown>;
  remaining: string | null;
}

async function call(method: string, path: string, body?: unknown, token = 'demo-token-1'): Promise<Reply> {
  const res = await fetch(`${sim.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, remaining: res.headers.get('x-rate-limit-remaining') };
}

async function firstAssetId(): Promise<number> {
  const page = (await call('GET', '/assets/list?per-page=1')).body as { items: { id: number; price: number }[] };
  return page.items[0]!.id;
}

describe('purchase workflow', () => {
  it('register -> info -> view-url -> validate -> download-url -> cancel, then only info', async () => {
    const assetId = await firstAssetId();
    const reg = await call('POST', '/purchase/register', { asset_id: assetId, client_reference: 'order-1' });
    expect(reg.status).toBe(200);
    expect(reg.body).toMatchObject({ asset_id: assetId, state: 'registered', currency: 'USD', client_reference: 'order-1' });
    const id = reg.body.id as string;

    expect((await call('GET', `/purchase/info?purchase_id=${id}`)).body).toEqual(reg.body);
    const view = await call('GET', `/purchase/view-url?purchase_id=${id}`);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ purchase_id: id, url: expect.stringMatching(/^https:\/\//) });
    expect(Date.parse(view.body.expires_at as string)).toBeGreaterThan(now);

    const early = await call('GET', `/purchase/download-url?purchase_id=${id}`);
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ name: 'Conflict', code: 0, status: 409, message: expect.stringContaining('registered') });
    expect(early.remaining).not.toBeNull();

    now += 5000;
    const validated = await call('POST', '/purchase/validate-purchase-before-payment', { purchase_id: id });
    expect(validated.body).toMatchObject({ id, state: 'validated', updated_at: new Date(now).toISOString() });
    const again = await call('POST', '/purchase/validate-purchase-before-payment', { purchase_id: id });
    expect(again.status).toBe(409);
    expect(again.body.message).toContain('validated');

    const dl = await call('GET', `/purchase/download-url?purchase_id=${id}`);
    expect(dl.status).toBe(200);
    expect(dl.body).toMatchObject({ purchase_id: id, url: expect.stringMatching(/^https:\/\//) });
    expect((await call('GET', `/purchase/view-url?purchase_id=${id}`)).status).toBe(200);

    expect((await call('DELETE', `/purchase/cancel?purchase_id=${id}`)).body).toMatchObject({ id, state: 'cancelled' });
    for (const [method, path, body] of [
      ['DELETE', `/purchase/cancel?purchase_id=${id}`, undefined],
      ['POST', '/purchase/validate-purchase-before-payment', { purchase_id: id }],
      ['GET', `/purchase/download-url?purchase_id=${id}`, undefined],
      ['GET', `/purchase/view-url?purchase_id=${id}`, undefined],
    ] as const) {
      const r = await call(method, path, body);
      expect(r.status, path).toBe(409);
      expect(r.body.message).toContain('cancelled');
    }
    expect((await call('GET', `/purchase/info?purchase_id=${id}`)).body).toMatchObject({ state: 'cancelled' });
  });

  it('registered -> cancelled directly', async () => {
    const reg = await call('POST', '/purchase/register', { asset_id: await firstAssetId() });
    expect(reg.body).not.toHaveProperty('client_reference');
    expect((await call('DELETE', `/purchase/cancel?purchase_id=${String(reg.body.id)}`)).body).toMatchObject({ state: 'cancelled' });
  });

  it('a repeated register with the same client_reference creates another purchase; info by reference lists both', async () => {
    const assetId = await firstAssetId();
    const a = await call('POST', '/purchase/register', { asset_id: assetId, client_reference: 'dup' });
    const b = await call('POST', '/purchase/register', { asset_id: String(assetId), client_reference: 'dup' });
    expect(a.body.id).not.toBe(b.body.id);
    const list = await call('GET', '/purchase/info?client_reference=dup');
    expect(list.body).toEqual({ items: [a.body, b.body] });
    expect((await call('GET', '/purchase/info?client_reference=none')).body).toEqual({ items: [] });
  });

  it('unknown purchase or asset is 404 with headers; a vendor cannot see another vendor purchase', async () => {
    const missing = await call('GET', '/purchase/info?purchase_id=p_zzzzzz');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ name: 'Not Found', message: 'Purchase "p_zzzzzz" not found.', code: 0, status: 404 });
    expect(missing.remaining).toBe('49');
    expect((await call('POST', '/purchase/register', { asset_id: 5 })).status).toBe(404);

    const reg = await call('POST', '/purchase/register', { asset_id: await firstAssetId(), client_reference: 'mine' });
    const id = String(reg.body.id);
    expect((await call('GET', `/purchase/info?purchase_id=${id}`, undefined, 'demo-token-2')).status).toBe(200);
    expect((await call('GET', `/purchase/info?purchase_id=${id}`, undefined, 'acme-token-1')).status).toBe(404);
    expect((await call('DELETE', `/purchase/cancel?purchase_id=${id}`, undefined, 'acme-token-1')).status).toBe(404);
    expect((await call('GET', '/purchase/info?client_reference=mine', undefined, 'acme-token-1')).body).toEqual({ items: [] });
  });

  it('bad parameters and bodies are 400 with headers and cost a slot', async () => {
    const cases: [string, string, unknown][] = [
      ['GET', '/purchase/info', undefined],
      ['GET', '/purchase/info?purchase_id=p_1&client_reference=r', undefined],
      ['GET', '/purchase/info?purchase_id=', undefined],
      ['GET', '/purchase/download-url', undefined],
      ['GET', '/purchase/view-url?purchase_id=', undefined],
      ['DELETE', '/purchase/cancel', undefined],
      ['POST', '/purchase/register', {}],
      ['POST', '/purchase/register', { asset_id: -1 }],
      ['POST', '/purchase/register', { asset_id: 1001, client_reference: '' }],
      ['POST', '/purchase/validate-purchase-before-payment', {}],
      ['POST', '/purchase/validate-purchase-before-payment', { purchase_id: 42 }],
    ];
    for (const [method, path, body] of cases) {
      const r = await call(method, path, body);
      expect(r.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
      expect(r.body).toMatchObject({ name: 'Bad Request', code: 0, status: 400 });
      expect(r.remaining).not.toBeNull();
    }
    // Three bad info requests used three of info's 50 slots.
    expect((await call('GET', '/purchase/info?client_reference=x')).remaining).toBe('46');
  });

  it('resetAll forgets purchases', async () => {
    const reg = await call('POST', '/purchase/register', { asset_id: await firstAssetId() });
    sim.control.resetAll();
    expect((await call('GET', `/purchase/info?purchase_id=${String(reg.body.id)}`)).status).toBe(404);
  });
});
