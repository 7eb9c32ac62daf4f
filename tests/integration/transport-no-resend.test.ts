/**
 * Issue 11 items 2 and 7, against a real loopback server.
 * - A purchase is never registered twice, even when the shell's pooled fetch (Electron's net.fetch,
 *   here emulated the way Chromium behaves: one silent resend after a kept-alive connection breaks)
 *   would resend it: registration goes on a fresh undici connection instead.
 * - An answer over the response-size cap fails with RESPONSE_TOO_LARGE and is not fetched again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAppServices, memoryVault } from '../../electron/app';
import type { AppServices } from '../../electron/app';
import { shownProfile } from '../helpers/app-calls';
import { PartnerClient } from '../../electron/client';
import { BudgetRegistry } from '../../electron/client/budget-registry';
import { createTransport, mayReuseConnection } from '../../electron/client/transport';

interface Counts {
  purchases: number;
  requests: Array<{ path: string; reused: boolean }>;
}

/** Counts purchases; closes a kept-alive connection right after acting on it, without answering. */
async function startService(big?: { bytes: number }): Promise<{ url: string; counts: Counts; close: () => Promise<void> }> {
  const counts: Counts = { purchases: 0, requests: [] };
  const served = new WeakMap<Socket, number>();
  const sockets = new Set<Socket>();
  const server: Server = createServer({ keepAlive: true }, (req: IncomingMessage, res: ServerResponse) => {
    const n = (served.get(req.socket) ?? 0) + 1;
    served.set(req.socket, n);
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    counts.requests.push({ path, reused: n > 1 });
    req.resume();
    req.on('end', () => {
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'x-rate-limit-limit': '50', 'x-rate-limit-remaining': '40', 'x-rate-limit-reset': '0' });
        res.end(JSON.stringify(body));
      };
      if (path === '/purchase/register') {
        counts.purchases += 1;
        if (n > 1) return req.socket.destroy(); // acted, then the kept-alive connection is gone
        return json(200, { id: counts.purchases, asset_id: 1, status: 'registered' });
      }
      if (path === '/assets/list' && big) {
        res.writeHead(200, { 'content-type': 'application/json' }); // chunked: no length announced
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        let sent = 0;
        const pump = (): void => {
          while (sent < big.bytes) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        return pump();
      }
      return json(200, []);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

/** Electron's net.fetch as Chromium's stack behaves: a keep-alive pool, and one silent resend when a connection breaks. */
function chromiumLikeNetFetch(seen: string[]): typeof fetch {
  const pool = new Agent({ keepAliveTimeout: 30_000 });
  const once = (url: string, init?: RequestInit) =>
    undiciFetch(url, { ...(init as object), dispatcher: pool } as Parameters<typeof undiciFetch>[1]) as unknown as Promise<Response>;
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input);
    seen.push(`${init?.method ?? 'GET'} ${new URL(url).pathname}`);
    try {
      return await once(url, init);
    } catch {
      return once(url, init);
    }
  }) as typeof fetch;
}

describe('a purchase is never sent twice (item 2)', () => {
  let dir: string;
  let app: AppServices | null = null;
  let service: Awaited<ReturnType<typeof startService>>;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'no-resend-'));
    service = await startService();
  });
  afterEach(async () => {
    await app?.dispose();
    app = null;
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the desktop services never send a registration through net.fetch, and it acts once', async () => {
    const netFetchSaw: string[] = [];
    app = await createAppServices({
      shell: 'desktop',
      dataDir: dir,
      vault: memoryVault(),
      version: '0.0.0',
      fetch: chromiumLikeNetFetch(netFetchSaw),
      embeddedSimulator: false,
      initialProfiles: [{ name: 'Acme', vendor: 'acme', baseUrl: service.url, addTokens: ['tok-acme-123456'] }],
      log: () => undefined,
    });
    // The connect probe (categories) leaves a kept-alive connection in net.fetch's pool.
    const deadline = Date.now() + 5000;
    while (!service.counts.requests.some((r) => r.path === '/assets/categories') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    await app.dispatch('listAssets', { profileId: await shownProfile(app), lastId: null, pageSize: 3 });

    await app.dispatch('registerPurchase', { profileId: await shownProfile(app), assetId: 1, assetTitle: 'One' });

    expect(service.counts.purchases).toBe(1);
    expect(netFetchSaw.filter((r) => r.includes('/purchase/register'))).toEqual([]);
    expect(netFetchSaw.some((r) => r.includes('/assets/'))).toBe(true); // safe reads still use the shell's stack
    const registrations = service.counts.requests.filter((r) => r.path === '/purchase/register');
    expect(registrations).toEqual([{ path: '/purchase/register', reused: false }]);
  });

  it('a registration whose connection is closed after acting is UNKNOWN_OUTCOME, never resent', async () => {
    // Reuse forced: the pooled stack here is the resending one, and registration must still not touch it.
    const seen: string[] = [];
    const client = new PartnerClient({
      baseUrl: service.url,
      vendor: 'acme',
      tokens: ['tok-acme-123456'],
      budgets: new BudgetRegistry(),
      fetch: createTransport({ pooled: chromiumLikeNetFetch(seen) }),
    });
    await client.request('categories');
    const before = service.counts.purchases;
    await client.request('registerPurchase', { body: { asset_id: 1, client_reference: 'r-1' } }).catch(() => undefined);
    expect(service.counts.purchases - before).toBe(1);
    expect(seen).toEqual(['GET /assets/categories']);
    client.close();
  });

  it('only what the endpoint table marks safe to resend may reuse a connection', () => {
    expect(mayReuseConnection('GET', 'https://h/api/v1/assets/list?page=2')).toBe(true);
    expect(mayReuseConnection('POST', 'https://h/purchase/register')).toBe(false);
    expect(mayReuseConnection('GET', 'https://h/purchase/register')).toBe(false); // unknown: fresh connection
    expect(mayReuseConnection('POST', 'https://h/somewhere/else')).toBe(false);
  });
});

describe('response-size cap (item 7)', () => {
  it('fails with RESPONSE_TOO_LARGE after counting the stream, and does not fetch again', async () => {
    const service = await startService({ bytes: 8 * 1024 * 1024 });
    try {
      const client = new PartnerClient({
        baseUrl: service.url,
        vendor: 'acme',
        tokens: ['tok-acme-123456'],
        budgets: new BudgetRegistry(),
        fetch: createTransport({ maxResponseBytes: 1024 * 1024 }),
      });
      const error = await client.request('listAssets').then(
        () => null,
        (e: unknown) => e as { code?: string; message?: string; data?: { retryable: boolean } },
      );
      expect(error?.code).toBe('RESPONSE_TOO_LARGE');
      expect(error?.message).toMatch(/1 MiB response-size cap/);
      expect(error?.data?.retryable).toBe(false);
      expect(service.counts.requests.filter((r) => r.path === '/assets/list')).toHaveLength(1);
      client.close();
    } finally {
      await service.close();
    }
  });

  it('the default client caps at 64 MiB', async () => {
    const service = await startService({ bytes: 65 * 1024 * 1024 });
    try {
      const client = new PartnerClient({ baseUrl: service.url, vendor: 'acme', tokens: ['tok-acme-123456'], budgets: new BudgetRegistry() });
      await expect(client.request('listAssets')).rejects.toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
      expect(service.counts.requests.filter((r) => r.path === '/assets/list')).toHaveLength(1);
      client.close();
    } finally {
      await service.close();
    }
  });
});
