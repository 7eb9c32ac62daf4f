/**
 * A service that answers with a redirect: the client never follows it (the token would go along), and
 * says so once, with a hint about the base URL, instead of retrying it as a broken connection.
 * - Under Node the 3xx comes back as an answer: a real loopback server answers 307 towards another one.
 * - Electron's net.fetch rejects a 3xx under redirect: 'manual' with Error('Redirect was cancelled')
 *   instead of returning it (electron/electron#43715): a fake pooled fetch rejects the same way.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BudgetRegistry, PartnerClient } from '../../electron/client';
import { createTransport } from '../../electron/client/transport';
import { isPartnerError } from '../../shared/errors';

const BASE_URL_HINT = /redirect.*base URL/i;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function clientOf(baseUrl: string, fetch?: typeof globalThis.fetch): PartnerClient {
  // Quick retries, so six tries (the old behaviour) would show within the test's time.
  return new PartnerClient({ baseUrl, vendor: 'v', tokens: ['tok-123456'], budgets: new BudgetRegistry(), retry: { baseMs: 1, capMs: 2 }, fetch });
}

describe('a redirect from the service', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) {
      s.closeAllConnections();
      await new Promise<void>((r) => s.close(() => r()));
    }
  });

  it('in Electron (net.fetch rejects it): sent once, not followed, and the error says it was a redirect', async () => {
    const calls: string[] = [];
    const netFetchLike = (async (input: string | URL | Request, init?: RequestInit) => {
      calls.push(`${init?.method} ${String(input)} redirect=${init?.redirect}`);
      throw new Error('Redirect was cancelled');
    }) as typeof fetch;
    const client = clientOf('http://127.0.0.1:9', createTransport({ pooled: netFetchLike }));
    const error = await client.request('categories').catch((e: unknown) => e);
    client.close();
    expect(calls).toEqual(['GET http://127.0.0.1:9/assets/categories redirect=manual']);
    expect(isPartnerError(error) && error.data).toMatchObject({ code: 'INVALID_RESPONSE', retryable: false });
    expect((error as Error).message).toMatch(/redirect/);
    expect(isPartnerError(error) && error.data.hint).toMatch(BASE_URL_HINT);
  });

  it('under Node (the 3xx is an answer): sent once, never followed, the same hint', async () => {
    const elsewhere: string[] = [];
    const target = createServer((req, res) => {
      elsewhere.push(`${req.method} ${req.url}`);
      res.end('{}');
    });
    servers.push(target);
    const targetUrl = await listen(target);
    const hits: string[] = [];
    const origin = createServer((req, res) => {
      hits.push(`${req.method} ${req.url}`);
      res.writeHead(307, { Location: `${targetUrl}${req.url}` });
      res.end();
    });
    servers.push(origin);
    const client = clientOf(await listen(origin));
    const error = await client.request('categories').catch((e: unknown) => e);
    client.close();
    expect(hits).toEqual(['GET /assets/categories']);
    expect(elsewhere).toEqual([]);
    expect(isPartnerError(error) && error.data).toMatchObject({ code: 'INVALID_RESPONSE', status: 307, retryable: false });
    expect(isPartnerError(error) && error.data.hint).toMatch(BASE_URL_HINT);
  });
});
