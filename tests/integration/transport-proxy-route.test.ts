/**
 * Registration goes on a connection of its own (never resent), routed as the shell's stack routes the
 * others: through the proxy the system names for its URL. A forwarding proxy and the simulator on loopback.
 */
import { createServer, request as httpRequest } from 'node:http';
import type { Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BudgetRegistry, PartnerClient } from '../../electron/client';
import { proxyFromPac } from '../../electron/client/fresh-connection';
import type { NetworkRoute } from '../../electron/client/fresh-connection';
import { createTransport } from '../../electron/client/transport';
import { startSimulator } from '../../electron/simulator';
import type { RunningSimulator } from '../../electron/simulator';
import { sentTo } from '../helpers/sim-counts';

let sim: RunningSimulator;
let proxy: { url: string; seen: string[]; close: () => Promise<void> };

/** An HTTP proxy that tunnels (CONNECT) and forwards absolute-form requests, recording each (method and target); `tunnel`: what it answers CONNECT. */
async function startProxy(tunnel: 'open' | 407 = 'open'): Promise<typeof proxy> {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const out = httpRequest(req.url!, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    seen.push(`${req.method} ${req.url}`);
    if (tunnel === 407) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Negotiate\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const [host, port] = req.url!.split(':');
    const upstream = connect(Number(port), host!, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

beforeEach(async () => {
  sim = await startSimulator({ host: '127.0.0.1', port: 0, catalogSize: 10 });
  proxy = await startProxy();
});
afterEach(async () => {
  await proxy.close();
  await sim.stop();
});

describe('the route of a connection of its own', () => {
  it('takes a registration through the proxy the system names for its URL, once', async () => {
    const asked: string[] = [];
    const route = { proxyFor: async (url: string) => (asked.push(url), proxyFromPac(`PROXY ${new URL(proxy.url).host}; DIRECT`)) };
    const client = new PartnerClient({
      baseUrl: sim.url,
      vendor: 'demo',
      tokens: ['demo-token-1'],
      budgets: new BudgetRegistry(),
      fetch: createTransport({ route }),
    });
    try {
      const page = await client.request<{ items: Array<{ id: number }> }>('listAssets', { query: { 'per-page': 1 } });
      const assetId = page.body.items[0]!.id;
      const bought = await client.request<{ id: string }>('registerPurchase', { body: { asset_id: assetId, client_reference: 'pc-proxy-1' } });
      expect(bought.status).toBe(200);
      // The registration went through the proxy in absolute form, as Chromium sends http (and reached the service
      // once); the read went the pooled way.
      expect(proxy.seen).toEqual([`POST ${sim.url}/purchase/register`]);
      expect(asked).toEqual([`${sim.url}/purchase/register`]);
      expect(sentTo(sim, 'registerPurchase')).toBe(1);
    } finally {
      client.close();
    }
  });

  it('reads the proxy from a PAC result: the first entry it can use, direct otherwise', () => {
    expect(proxyFromPac('PROXY corp:8080; DIRECT')).toBe('http://corp:8080');
    expect(proxyFromPac('HTTPS secure.corp:443')).toBe('https://secure.corp:443');
    expect(proxyFromPac('SOCKS5 s:1080; PROXY corp:3128')).toBe('http://corp:3128');
    expect(proxyFromPac('DIRECT')).toBeNull();
    expect(proxyFromPac('SOCKS5 s:1080')).toBeNull();
    expect(proxyFromPac('')).toBeNull();
  });

  it('says a registration the proxy refused (407), or whose proxy could not be found, was not sent: NETWORK, never UNKNOWN_OUTCOME', async () => {
    const refusing = await startProxy(407);
    const registerThrough = async (route: NetworkRoute) => {
      const client = new PartnerClient({
        baseUrl: 'https://partner.invalid',
        vendor: 'demo',
        tokens: ['demo-token-1'],
        budgets: new BudgetRegistry(),
        fetch: createTransport({ route }),
        retry: { maxAttempts: 1 },
      });
      try {
        return await client.request('registerPurchase', { body: { asset_id: 1, client_reference: 'pc-proxy-2' } }).catch((e: unknown) => e);
      } finally {
        client.close();
      }
    };
    try {
      const tunnelled = await registerThrough({ proxyFor: async () => refusing.url });
      expect(refusing.seen).toEqual(['CONNECT partner.invalid:443']);
      expect(tunnelled).toMatchObject({ code: 'NETWORK', message: expect.stringContaining('refused the connection (407: it asks for credentials)') });
      const unresolved = await registerThrough({ proxyFor: () => Promise.reject(new Error('PAC script failed')) });
      expect(unresolved).toMatchObject({ code: 'NETWORK', message: expect.stringContaining('PAC script failed') });
    } finally {
      await refusing.close();
    }
  });
});
