/**
 * A service whose Limit header is nonsense (0, 0.5: no budget at all) but whose Remaining is sane:
 * the Limit is ignored as garbled, and so is any cap it would put on Remaining. Capped, Remaining read
 * 0 on every answer and each request waited for the next server second. A real loopback server answers.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BudgetRegistry, PartnerClient } from '../../electron/client';

describe.each(['0', '0.5'])('answers with X-Rate-Limit-Limit: %s and Remaining 19', (limit) => {
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'Content-Type': 'application/json', 'X-Rate-Limit-Limit': limit, 'X-Rate-Limit-Remaining': '19', 'X-Rate-Limit-Reset': '0' });
    res.end('[]');
  });
  let client: PartnerClient;

  beforeEach(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const { port } = server.address() as AddressInfo;
    client = new PartnerClient({ baseUrl: `http://127.0.0.1:${port}`, vendor: 'v', tokens: ['tok-123456'], budgets: new BudgetRegistry() });
  });

  afterEach(async () => {
    client.close();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it("the budget reads the service's Remaining, paced at the documented limit, and lets the next request go", async () => {
    await client.request('categories');
    const bucket = client.budgetSnapshot().find((b) => b.endpoint === 'categories');
    expect(bucket).toMatchObject({ limit: 20, remaining: 19 });
    expect(bucket?.available).toBeGreaterThan(0);
  });
});
