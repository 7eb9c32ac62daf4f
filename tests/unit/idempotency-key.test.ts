/** The idempotency key's settings: the service map's header (defaulted for saved maps) and the simulator's flag. */
import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../electron/simulator/cli-args';
import { registerRequest } from '../../shared/service-map/requests';
import { DEFAULT_SERVICE_MAP, parseServiceMap } from '../../shared/service-map/schema';

describe('the service map’s idempotency header', () => {
  it('defaults to Idempotency-Key for a map saved without it, and carries the reference', () => {
    const { idempotencyHeader: _none, ...saved } = DEFAULT_SERVICE_MAP;
    const parsed = parseServiceMap(JSON.stringify(saved));
    expect(parsed).toMatchObject({ ok: true, map: { idempotencyHeader: 'Idempotency-Key' } });
    expect(registerRequest(DEFAULT_SERVICE_MAP, 7, 'pc-1')).toEqual({
      body: { asset_id: 7, client_reference: 'pc-1' },
      headers: { 'Idempotency-Key': 'pc-1' },
    });
    expect(registerRequest({ ...DEFAULT_SERVICE_MAP, idempotencyHeader: null }, 7, 'pc-1')).toEqual({ body: { asset_id: 7, client_reference: 'pc-1' } });
  });

  it('takes another header name or none, and refuses a header the client sets itself or a non-name', () => {
    expect(parseServiceMap({ ...DEFAULT_SERVICE_MAP, idempotencyHeader: 'X-Request-Id' })).toMatchObject({
      ok: true,
      map: { idempotencyHeader: 'X-Request-Id' },
    });
    expect(parseServiceMap({ ...DEFAULT_SERVICE_MAP, idempotencyHeader: null })).toMatchObject({ ok: true, map: { idempotencyHeader: null } });
    for (const bad of ['Authorization', 'content-type', 'Idempotency Key', 'X:Y']) {
      expect(parseServiceMap({ ...DEFAULT_SERVICE_MAP, idempotencyHeader: bad })).toMatchObject({
        ok: false,
        errors: [expect.stringContaining('idempotencyHeader')],
      });
    }
  });

  it('the simulator honours keys only with --idempotency', () => {
    const read = (): string => '';
    expect(parseCliArgs(['--idempotency'], read)).toMatchObject({ help: false, options: { idempotencyKeys: true } });
    const plain = parseCliArgs([], read);
    expect(plain.help === false && plain.options.idempotencyKeys).toBeFalsy();
  });
});
