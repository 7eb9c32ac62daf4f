/**
 * A registration answered with a body over the response-size cap: the service answered, so it may
 * have registered the purchase. The error says so, with the status, and points to checking the
 * purchase, never to raising the cap and sending it again (that would buy twice). Both ways an answer
 * goes over the cap: a Content-Length over it (failed at once), and a chunked body cut as it streams.
 * A real loopback server counts the registrations.
 */
import { createServer } from 'node:http';
import { beforeEach, describe, expect, it } from 'vitest';
import { loopbackService } from '../helpers/loopback-service';
import { createTransport } from '../../electron/client/transport';
import { isPartnerError } from '../../shared/errors';

const CAP = 1024 * 1024;
const RATE = { 'Content-Type': 'application/json', 'X-Rate-Limit-Limit': '50', 'X-Rate-Limit-Remaining': '40', 'X-Rate-Limit-Reset': '0' };

describe('a registration answered over the response-size cap', () => {
  let registrations = 0;
  let announce = true;
  const server = createServer((req, res) => {
    registrations += 1;
    req.resume();
    if (announce) {
      res.writeHead(200, { ...RATE, 'Content-Length': String(2 * CAP) });
      res.write('{"id":1');
      return;
    }
    res.writeHead(200, RATE); // chunked: no length announced
    res.end(`{"id":1,"pad":"${' '.repeat(2 * CAP)}"}`);
  });
  const service = loopbackService(server, 'http', () => ({ fetch: createTransport({ maxResponseBytes: CAP }) }));
  beforeEach(() => {
    registrations = 0;
  });

  it.each([
    ['announced in Content-Length', true],
    ['cut as it streams', false],
  ])('%s: the service answered 200 and may have acted; check the purchase before trying again', async (_name, announced) => {
    announce = announced;
    const error = await service.client.request('registerPurchase', { body: { asset_id: 1 } }).catch((e: unknown) => e);
    expect(registrations).toBe(1);
    expect(isPartnerError(error) && error.data).toMatchObject({ code: 'UNKNOWN_OUTCOME', status: 200, retryable: false });
    expect((error as Error).message).toMatch(/answered 200.*1 MiB response-size cap.*may or may not have acted/);
    const hint = isPartnerError(error) ? (error.data.hint ?? '') : '';
    expect(hint).toMatch(/check whether it took effect/);
    expect(hint).not.toMatch(/Raise the response-size cap/);
  });
});
