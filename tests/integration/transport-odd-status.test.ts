/**
 * An answer with a status a fetch Response cannot carry (outside 200-599, which Node's HTTP server and
 * undici both allow): it reached the server, so it is one clear error, not a broken connection retried
 * (each retry another slot of the budget). A real HTTP server on loopback counts the requests.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BudgetRegistry, PartnerClient } from '../../electron/client';
import { isPartnerError } from '../../shared/errors';

describe('an answer with a status outside 200-599', () => {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(999, 'Odd', { 'Content-Type': 'application/json', 'X-Rate-Limit-Limit': '20', 'X-Rate-Limit-Remaining': '19', 'X-Rate-Limit-Reset': '0' });
    res.end(JSON.stringify({ items: 'x'.repeat(200_000) }));
  });
  let client: PartnerClient;

  beforeEach(async () => {
    requests.length = 0;
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const { port } = server.address() as AddressInfo;
    // Quick retries, so the old behaviour (six tries) would show within the test's time.
    client = new PartnerClient({
      baseUrl: `http://127.0.0.1:${port}`,
      vendor: 'v',
      tokens: ['tok-123456'],
      budgets: new BudgetRegistry(),
      retry: { baseMs: 1, capMs: 2 },
    });
  });

  afterEach(async () => {
    client.close();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('a call safe to resend: sent once, and the error says what the service answered', async () => {
    const error = await client.request('listAssets').catch((e: unknown) => e);
    expect(requests).toEqual(['GET /assets/list']);
    expect(isPartnerError(error) && error.data).toMatchObject({ code: 'INVALID_RESPONSE', retryable: false });
    expect((error as Error).message).toMatch(/answered status 999 Odd, outside HTTP's 200-599; not retried/);
  });
});
