/**
 * A request that fails before anything was sent (the service's certificate refused in the TLS
 * handshake, the connection refused, undici's connect timeout) is a definite failure: for a
 * registration, nothing was bought and trying again is safe, so it is never UNKNOWN_OUTCOME. A
 * certificate refusal fails the same way on every try, so it is not retried. A real HTTPS server on
 * loopback with a self-signed certificate (fixtures/self-signed, valid 2020-2120) counts handshakes.
 */
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { errors } from 'undici';
import { beforeEach, describe, expect, it } from 'vitest';
import { QUICK_RETRIES, loopbackService } from '../helpers/loopback-service';
import { classifyFetchError } from '../../electron/client/http';
import { isPartnerError } from '../../shared/errors';

const fixture = (name: string): Buffer => readFileSync(new URL(`./fixtures/self-signed/${name}`, import.meta.url));

describe("the service's certificate refused in the TLS handshake", () => {
  let handshakes = 0;
  let answered = 0;
  const server = createHttpsServer({ key: fixture('key.pem'), cert: fixture('cert.pem') }, (_req, res) => {
    answered += 1;
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end('{}');
  });
  server.on('tlsClientError', () => (handshakes += 1));
  const service = loopbackService(server, 'https', () => ({ retry: QUICK_RETRIES }));
  beforeEach(() => {
    handshakes = 0;
    answered = 0;
  });

  it('a registration: nothing was sent, so it is a definite failure that names the certificate, not an unknown outcome', async () => {
    const error = await service.client.request('registerPurchase', { body: { asset_id: 1 } }).catch((e: unknown) => e);
    expect(answered).toBe(0);
    expect(isPartnerError(error) && error.data).toMatchObject({ code: 'NETWORK', retryable: true });
    expect((error as Error).message).toMatch(/certificate.*DEPTH_ZERO_SELF_SIGNED_CERT/);
    expect((error as Error).message).toMatch(/Nothing was sent/);
    expect((error as Error).message).not.toMatch(/may or may not/);
    expect(isPartnerError(error) && error.data.hint).toMatch(/certificate/);
  });

  it('a call safe to resend: one handshake, not retried, and the hint is about certificates and proxies', async () => {
    const error = await service.client.request('purchaseInfo', { query: { purchase_id: '1' } }).catch((e: unknown) => e);
    expect(handshakes).toBe(1);
    expect(isPartnerError(error) && error.data).toMatchObject({ code: 'NETWORK' });
    expect(isPartnerError(error) && error.data.hint).toMatch(/certificate.*proxy/);
  });
});

describe('failures in the connect phase', () => {
  it("undici's connect timeout: nothing reached the service (retried like a refused connection, never an unknown outcome)", () => {
    // As fetch rejects with it: TypeError('fetch failed') caused by undici's ConnectTimeoutError.
    const rejection = new TypeError('fetch failed', { cause: new errors.ConnectTimeoutError() });
    expect(classifyFetchError(rejection).failure).toBe('refused');
  });

  it('a connection reset after the request was written is not taken for "not sent"', () => {
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    expect(classifyFetchError(new TypeError('fetch failed', { cause: reset })).failure).toBe('network');
  });
});
