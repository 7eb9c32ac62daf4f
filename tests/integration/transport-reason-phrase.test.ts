/**
 * A reason phrase the Response constructor refuses (a control byte, which Node's HTTP parser lets
 * through): the answer is still an answer, read by its status. It is not a broken connection: a safe
 * call is not sent again, and a registration that succeeded is not an unknown outcome. A raw TCP
 * server on loopback writes the status line and counts the requests.
 */
import { createServer } from 'node:net';
import { beforeEach, describe, expect, it } from 'vitest';
import { QUICK_RETRIES, loopbackService } from '../helpers/loopback-service';

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
  const service = loopbackService(server, 'http', () => ({ retry: QUICK_RETRIES }));
  beforeEach(() => {
    requests = 0;
  });

  it('a call safe to resend: answered once, with its status and body', async () => {
    const res = await service.client.request('categories');
    expect(requests).toBe(1);
    expect(res).toMatchObject({ status: 200, body: { id: 7 } });
  });

  it('a registration: its success is returned, not an unknown outcome', async () => {
    const res = await service.client.request('registerPurchase', { body: { asset_id: 1 } });
    expect(requests).toBe(1);
    expect(res).toMatchObject({ status: 200, body: { id: 7 } });
  });
});
