/**
 * A reason phrase the Response constructor refuses (a control byte, which Node's HTTP parser lets
 * through): the answer is still an answer, read by its status. It is not a broken connection: a safe
 * call is not sent again, and a registration that succeeded is not an unknown outcome. A raw TCP
 * server on loopback writes the status line and counts the requests.
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BudgetRegistry, PartnerClient } from '../../electron/client';

const BODY = '{"id":7}';
const ANSWER = [
  'HTTP/1.1 200 O\x01K',
  'Content-Type: application/json',
  'X-Rate-Limit-Limit: 50',
  'X-Rate-Limit-Remaining: 40',
  'X-Rate-Limit-Reset: 0',
  `Content-Length: ${BODY.length}`,
  'Connection: close',
  '',
  BODY,
].join('\r\n');

describe('a 200 whose reason phrase holds a control byte', () => {
  let requests = 0;
  const server = createServer((socket) => {
    socket.once('data', () => {
      requests += 1;
      socket.end(ANSWER);
    });
  });
  let client: PartnerClient;

  beforeEach(async () => {
    requests = 0;
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const { port } = server.address() as AddressInfo;
    // Quick retries, so six tries (the old behaviour) would show within the test's time.
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
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('a call safe to resend: answered once, with its status and body', async () => {
    const res = await client.request('categories');
    expect(requests).toBe(1);
    expect(res).toMatchObject({ status: 200, body: { id: 7 } });
  });

  it('a registration: its success is returned, not an unknown outcome', async () => {
    const res = await client.request('registerPurchase', { body: { asset_id: 1 } });
    expect(requests).toBe(1);
    expect(res).toMatchObject({ status: 200, body: { id: 7 } });
  });
});
