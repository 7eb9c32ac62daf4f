/** The list request built from a service map: what is checked before it is sent is what is sent. */
import { describe, expect, it } from 'vitest';
import { ActiveSession } from '../../electron/app/session';
import type { SessionProfile } from '../../electron/app/session';
import { drive, errorOf, FAKE_BASE_URL, harness } from '../../electron/client/testing';
import { listRequest } from '../../shared/service-map/requests';
import { DEFAULT_SERVICE_MAP } from '../../shared/service-map/schema';
import type { ServiceMap } from '../../shared/service-map/schema';

const LIMIT_MAP: ServiceMap = { ...DEFAULT_SERVICE_MAP, list: { ...DEFAULT_SERVICE_MAP.list, pageSizeParam: 'limit', pageSizeMax: 500, cursorParam: 'after' } };

describe('a saved map whose names differ from the profile form\'s old ones', () => {
  it('refuses an out-of-bounds page size and an empty cursor under the names actually sent', async () => {
    const h = harness();
    // What `npm run web -- --service-map` made: the profile's old page-size name beside a map that names another.
    const profile = {
      id: 'p',
      name: 'P',
      vendor: 'v',
      baseUrl: FAKE_BASE_URL,
      demo: false,
      tokenPresentation: { header: 'Authorization', scheme: 'Bearer' },
      pageSizeParam: 'per-page',
      idField: 'id',
      serviceMap: LIMIT_MAP,
    } as SessionProfile;
    const session = new ActiveSession(profile, ['token-a'], {
      fetch: h.fake.fetch,
      budgets: h.registry,
      timeoutMs: () => 15_000,
      stallLimitMs: () => 600_000,
      clock: h.clock,
      onSample: () => undefined,
    });
    const send = (pageSize: number, cursor: string | null) =>
      errorOf(drive(h.clock, Promise.resolve().then(() => session.client.request('listAssets', listRequest(session.map, pageSize, cursor)))));
    for (const size of [0, 101, 200]) {
      const e = await send(size, null);
      expect(e.code).toBe('BAD_REQUEST');
      expect(e.message).toMatch(/limit must be a whole number from 1 to 100/);
    }
    const empty = await send(10, '');
    expect(empty.code).toBe('BAD_REQUEST');
    expect(empty.message).toMatch(/after is empty/);
    expect(h.fake.received).toHaveLength(0);
    session.close();
  });
});
