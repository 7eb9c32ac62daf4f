/**
 * What a 400 taught is kept (electron/service-map/learned-names.ts), against a hostile service on
 * loopback: one that stores the 400 under the idempotency key (so the learned retry meets a 422),
 * and two calls that learn different names at once (neither may lose the other's).
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BudgetRegistry, PartnerClient } from '../../electron/client';
import { errorOf } from '../../electron/client/testing';
import { PurchaseService } from '../../electron/purchases';
import { LearnedNames } from '../../electron/service-map/learned-names';
import { DEFAULT_SERVICE_MAP } from '../../shared/service-map/schema';
import type { ServiceMap } from '../../shared/service-map/schema';

const servers: Server[] = [];
const clients: PartnerClient[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** Wants `asset_id` and `purchase_id`; a registration with a key it saw once gets 422 (the 400 kept under the key). */
async function hostile(): Promise<{ url: string; sent: string[] }> {
  const keys = new Set<string>();
  const sent: string[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      sent.push(`${req.method} ${url.pathname} ${url.search}${text}`);
      const answer = (status: number, body: unknown): void => {
        // Slow enough that concurrent calls are both in flight before either learns.
        setTimeout(() => {
          res.writeHead(status, { 'content-type': 'application/json', 'X-Rate-Limit-Limit': '50', 'X-Rate-Limit-Remaining': '49', 'X-Rate-Limit-Reset': '1' });
          res.end(JSON.stringify(body));
        }, 100);
      };
      const fail = (status: number, message: string): void => answer(status, { name: 'Error', message, code: 0, status });
      if (url.pathname === '/purchase/register') {
        const key = String(req.headers['idempotency-key'] ?? '');
        if (key !== '' && keys.has(key)) return fail(422, `This Idempotency-Key was used with another request: ${key}.`);
        keys.add(key);
        const body = JSON.parse(text) as Record<string, unknown>;
        if (!('asset_id' in body)) return fail(400, 'Missing required parameter: asset_id');
        return answer(200, { id: 'p_1', asset_id: body.asset_id, state: 'registered', client_reference: body.client_reference });
      }
      if (url.pathname === '/purchase/info') {
        if (!url.searchParams.has('purchase_id')) return fail(400, 'Missing required parameter: purchase_id');
        return answer(200, { id: url.searchParams.get('purchase_id'), asset_id: 3, state: 'registered' });
      }
      return fail(404, 'Page not found.');
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sent };
}

const guessed: ServiceMap = {
  ...DEFAULT_SERVICE_MAP,
  register: { ...DEFAULT_SERVICE_MAP.register, assetIdField: 'assetId' },
  purchaseId: { ...DEFAULT_SERVICE_MAP.purchaseId, purchaseInfo: { in: 'query', name: 'purchaseId' } },
};

function clientOf(url: string): PartnerClient {
  const client = new PartnerClient({ baseUrl: url, vendor: 'demo', tokens: ['t-1'], budgets: new BudgetRegistry() });
  clients.push(client);
  return client;
}

describe('a name learned from a 400', () => {
  it('is kept (and handed on) even when the retry fails: the next registration sends it at once', async () => {
    const { url, sent } = await hostile();
    const saved: ServiceMap[] = [];
    const names = new LearnedNames(guessed, (map) => saved.push(map));
    const purchases = new PurchaseService(clientOf(url), { map: guessed, names });
    const refused = await errorOf(purchases.register(3, { reference: 'ref-1' }));
    expect(refused.data.status).toBe(422);
    expect(names.map.register.assetIdField).toBe('asset_id');
    expect(saved.map((m) => m.register.assetIdField)).toEqual(['asset_id']);

    sent.length = 0;
    const bought = await purchases.register(3, { reference: 'ref-2' });
    expect(bought.id).toBe('p_1');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain('"asset_id":3');
  });

  it('two calls learning different names at once keep both', async () => {
    const { url } = await hostile();
    const saved: ServiceMap[] = [];
    // No key here: both retries succeed, and what each learned must survive the other.
    const unkeyed: ServiceMap = { ...guessed, idempotencyHeader: null };
    const names = new LearnedNames(unkeyed, (map) => saved.push(map));
    const purchases = new PurchaseService(clientOf(url), { map: unkeyed, names });
    const [bought, info] = await Promise.all([purchases.register(3, { reference: 'ref-a' }), purchases.info('p_1')]);
    expect([bought.id, info.id]).toEqual(['p_1', 'p_1']);
    expect(names.map.register.assetIdField).toBe('asset_id');
    expect(names.map.purchaseId.purchaseInfo).toEqual({ in: 'query', name: 'purchase_id' });
    expect([...(names.map.learned ?? [])].sort()).toEqual(['purchaseId', 'register.assetIdField']);
    // The map handed on last holds both, so the profile keeps both.
    expect(saved.at(-1)?.register.assetIdField).toBe('asset_id');
    expect(saved.at(-1)?.purchaseId.purchaseInfo.name).toBe('purchase_id');
  });
});
