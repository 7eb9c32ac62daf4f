/**
 * An answer with a status a fetch Response cannot carry (outside 200-599, which Node's HTTP server and
 * undici both allow): it reached the server, so it is one clear error, not a broken connection retried
 * (each retry another slot of the budget). A real HTTP server on loopback counts the requests.
 */
import { createServer } from 'node:http';
import { beforeEach, describe, expect, it } from 'vitest';
import { QUICK_RETRIES, loopbackService } from '../helpers/loopback-service';
import { isPartnerError } from '../../shared/errors';

describe('an answer with a status outside 200-599', () => {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(999, 'Odd', { 'Content-Type': 'application/json', 'X-Rate-Limit-Limit': '20', 'X-Rate-Limit-Remaining': '19', 'X-Rate-Limit-Reset': '0' });
    res.end(JSON.stringify({ items: 'x'.repeat(200_000) }));
  });
  const service = loopbackService(server, 'http', () => ({ retry: QUICK_RETRIES }));
  beforeEach(() => {
    requests.length = 0;
  });

  it('a call safe to resend: sent once, and the error says what the service answered', async () => {
    const error = await service.client.request('listAssets').catch((e: unknown) => e);
    expect(requests).toEqual(['GET /assets/list']);
    expect(isPartnerError(error) && error.data).toMatchObject({ code: 'INVALID_RESPONSE', retryable: false });
    expect((error as Error).message).toMatch(/answered status 999 Odd, outside HTTP's 200-599; not retried/);
  });
});
