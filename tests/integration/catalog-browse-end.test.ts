/**
 * Review s37 item 5: browsing the catalog stays on while the service says more items follow. The
 * app's listAssets on loopback services: a page whose last item has no readable id (the next page
 * starts after the last id that could be read, and the page says an item had none), and a first page
 * whose `last_id` is null while its total says more follow.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { readPage } from '../../electron/catalog';
import { BudgetRegistry, PartnerClient } from '../../electron/client';
import { DEFAULT_SERVICE_MAP } from '../../shared/service-map/schema';
import { callApp, shownProfile } from '../helpers/app-calls';
import { connectedApp } from '../helpers/connected-app';
import type { ConnectedApp } from '../helpers/connected-app';

type Mode = 'last-without-id' | 'null-cursor-total';
const TOTAL = 50;

/** Items 1..50 by last_id; `last-without-id`: item 20 has `id: null` and no cursor field; `null-cursor-total`: last_id null, a total. */
async function service(mode: Mode): Promise<{ url: string; lists: string[]; close: () => Promise<void> }> {
  const lists: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const headers = { 'content-type': 'application/json', 'x-rate-limit-limit': '50', 'x-rate-limit-remaining': '49', 'x-rate-limit-reset': '0' };
    if (url.pathname !== '/assets/list') {
      res.writeHead(200, headers).end('{"items":[]}');
      return;
    }
    const sent = url.searchParams.get('last_id');
    lists.push(sent ?? '-');
    const size = Number(url.searchParams.get('per-page') ?? 20);
    const from = sent === null ? 0 : Number(sent);
    const ids = Array.from({ length: size }, (_, i) => from + i + 1).filter((id) => id <= TOTAL);
    const items = ids.map((id) => ({ id: mode === 'last-without-id' && id === 20 ? null : id, title: `Asset ${id}` }));
    const body = mode === 'last-without-id' ? { items, total: TOTAL } : { items, last_id: null, total: TOTAL };
    res.writeHead(200, headers).end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, lists, close: () => new Promise((r) => server.close(() => r())) };
}

let app: ConnectedApp | null = null;
let svc: Awaited<ReturnType<typeof service>> | null = null;
afterEach(async () => {
  await app?.dispose();
  app = null;
  await svc?.close();
  svc = null;
});

describe('browsing stays on while the service says more follow', () => {
  it('a page whose last item has no readable id: Next goes on from the last id read, and the page says an item had none', async () => {
    svc = await service('last-without-id');
    app = await connectedApp(svc.url);
    const profileId = await shownProfile(app.app);
    const first = await callApp(app.app, 'listAssets', { profileId, lastId: null, pageSize: 20 });
    expect(first).toMatchObject({ done: false, cursor: 19, total: TOTAL });
    expect(first.items).toHaveLength(19);
    expect((first.warnings ?? []).join('\n')).toMatch(/1 item\(s\) of this page have no readable id/);
    const second = await callApp(app.app, 'listAssets', { profileId, lastId: first.cursor, pageSize: 20 });
    expect(second.done).toBe(false);
    expect(second.items[second.items.length - 1]!.id).toBe(39);
  });

  it('a first page with a null last_id while the total says more follow is not the end (the built-in map)', async () => {
    svc = await service('null-cursor-total');
    const client = new PartnerClient({ baseUrl: svc.url, vendor: 'v', tokens: ['tok-1'], budgets: new BudgetRegistry() });
    try {
      const first = await readPage(client, { map: DEFAULT_SERVICE_MAP, lastId: null, pageSize: 20, tolerant: true });
      expect(first).toMatchObject({ done: false, cursor: 20, total: TOTAL });
      expect(first.warnings.join('\n')).toMatch(/ended the catalog at 20 items while the same answer gives a total of 50/);
      // A one-page catalog whose total agrees still ends there.
      const all = await readPage(client, { map: DEFAULT_SERVICE_MAP, lastId: null, pageSize: 100, tolerant: true });
      expect(all).toMatchObject({ done: true, total: TOTAL, received: TOTAL });
    } finally {
      client.close();
    }
  });
});
