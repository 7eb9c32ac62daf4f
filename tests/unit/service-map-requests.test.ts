/** The list request built from a service map: what is checked before it is sent is what is sent. */
import { describe, expect, it } from 'vitest';
import { ProfileSession } from '../../electron/app/session';
import type { SessionProfile } from '../../electron/app/session';
import { ScopeStores } from '../../electron/client/scope-stores';
import { drive, errorOf, FAKE_BASE_URL, harness } from '../../electron/client/testing';
import { listRequest } from '../../shared/service-map/requests';
import { DEFAULT_SERVICE_MAP } from '../../shared/service-map/schema';
import type { ServiceMap } from '../../shared/service-map/schema';

const LIMIT_MAP: ServiceMap = { ...DEFAULT_SERVICE_MAP, list: { ...DEFAULT_SERVICE_MAP.list, pageSizeParam: 'limit', pageSizeMax: 500, cursorParam: 'after' } };

describe("a saved map whose names differ from the profile form's old ones", () => {
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
    const stores = new ScopeStores();
    const session = new ProfileSession(profile, ['token-a'], {
      stores,
      storeLease: stores.take({ baseUrl: FAKE_BASE_URL, vendor: 'v' }, undefined),
      fetch: h.fake.fetch as typeof fetch,
      budgets: h.registry,
      timeoutMs: () => 15_000,
      stallLimitMs: () => 600_000,
      clock: h.clock,
      onSample: () => undefined,
    });
    const send = (pageSize: number, cursor: string | null) =>
      errorOf(
        drive(
          h.clock,
          Promise.resolve().then(() => session.client.request('listAssets', listRequest(session.map, pageSize, cursor))),
        ),
      );
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

describe('refused before sending: no request, no slot', () => {
  const cases: [string, number, string | null, RegExp][] = [
    ['an empty last_id', 10, '', /last_id is empty/],
    ['a blank last_id', 10, '   ', /last_id is empty/],
    ['a page size of 0', 0, null, /per-page must be a whole number from 1 to 100/],
    ['a page size of 101', 101, null, /per-page must be a whole number from 1 to 100/],
    ['a fractional page size', 2.5, null, /per-page/],
    ['a page size that is not a number', 'ten' as never, null, /per-page/],
    ['a NaN page size', NaN, null, /per-page/],
  ];
  it.each(cases)('%s', async (_, pageSize, cursor, message) => {
    const h = harness();
    const client = h.client();
    const e = await errorOf(Promise.resolve().then(() => client.request('listAssets', listRequest(DEFAULT_SERVICE_MAP, pageSize, cursor))));
    expect(e.code).toBe('BAD_REQUEST');
    expect(e.message).toMatch(message);
    expect(e.message).toMatch(/Not sent/);
    expect(h.fake.received).toHaveLength(0);
    const bucket = client.budgetSnapshot().find((b) => b.endpoint === 'listAssets')!;
    expect(bucket.available).toBe(20);
    expect(bucket.inFlight).toBe(0);
  });

  it('accepts the bounds and a missing last_id (first page)', async () => {
    const h = harness();
    const client = h.client();
    await drive(h.clock, client.request('listAssets', listRequest(DEFAULT_SERVICE_MAP, 1, null)));
    await drive(h.clock, client.request('listAssets', listRequest(DEFAULT_SERVICE_MAP, 100, '42')));
    expect(h.fake.received.map((r) => r.url.search)).toEqual(['?per-page=1', '?per-page=100&last_id=42']);
  });

  it("checks the map's page-size parameter, and sends no more than the map's maximum", async () => {
    const h = harness();
    const client = h.client();
    const map: ServiceMap = { ...DEFAULT_SERVICE_MAP, list: { ...DEFAULT_SERVICE_MAP.list, pageSizeParam: 'limit', pageSizeMax: 50 } };
    expect((await errorOf(Promise.resolve().then(() => listRequest(map, 101, null)))).message).toMatch(/limit must be a whole number from 1 to 100/);
    await drive(h.clock, client.request('listAssets', listRequest(map, 51, null)));
    expect(h.fake.received.map((r) => r.url.search)).toEqual(['?limit=50']);
  });

  it('checks the page size where the map sends none', async () => {
    const map: ServiceMap = { ...DEFAULT_SERVICE_MAP, list: { ...DEFAULT_SERVICE_MAP.list, pageSizeParam: null } };
    expect((await errorOf(Promise.resolve().then(() => listRequest(map, 0, null)))).message).toMatch(/the page size must be a whole number/);
    expect(listRequest(map, 10, null).query).toEqual({});
  });
});
