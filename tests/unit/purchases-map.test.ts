/** PurchaseService through a service map, on the fake service: what it sends and how it reads, whatever the shapes. */
import { describe, expect, it } from 'vitest';
import { PurchaseService } from '../../electron/purchases';
import { drive, errorOf, harness } from '../../electron/client/testing';
import type { FakeAction, FakeRequest } from '../../electron/client/testing';
import { DEFAULT_SERVICE_MAP } from '../../shared/service-map/schema';
import type { ServiceMap } from '../../shared/service-map/schema';

function service(action: (req: FakeRequest) => FakeAction, map: ServiceMap = DEFAULT_SERVICE_MAP) {
  const h = harness({ action });
  let n = 0;
  return { h, purchases: new PurchaseService(h.client(), { map, newReference: () => `ref-${++n}`, now: () => Date.UTC(2026, 0, 1) }) };
}

const camel: ServiceMap = {
  ...DEFAULT_SERVICE_MAP,
  register: { assetIdField: 'assetId', referenceField: 'reference' },
  purchaseId: {
    purchaseInfo: { in: 'query', name: 'purchaseId' },
    downloadUrl: { in: 'query', name: 'purchaseId' },
    viewUrl: { in: 'query', name: 'purchaseId' },
    cancelPurchase: { in: 'body', name: 'order.id' },
  },
  validate: { in: 'body', name: 'assetId', takes: 'asset' },
  lookupByReference: null,
  purchase: { at: 'data', id: 'orderId', state: 'status', asset: 'assetId', reference: 'reference' },
  url: { at: null, url: 'href', expiry: 'expiresIn', expiryKind: 'seconds' },
  states: [
    { word: 'PENDING', state: 'registered', actions: ['purchaseInfo', 'validatePurchase', 'cancelPurchase'] },
    { word: 'APPROVED', state: 'validated', actions: ['purchaseInfo', 'downloadUrl', 'cancelPurchase'] },
  ],
};

describe('PurchaseService with a service map', () => {
  it('ANY 2xx to a registration is a purchase that may exist: unresolved with the raw answer, never an error', async () => {
    // Before service maps this was INVALID_RESPONSE, and Register stayed enabled for a second real purchase.
    for (const body of [{ ok: true }, 'Created', [], { data: { weird: 1 } }]) {
      const { h, purchases } = service(() => ({ kind: 'answer', status: 201, body }));
      const p = await drive(h.clock, purchases.register(7));
      expect(p).toMatchObject({ id: '', unresolved: true, asset_id: 7, client_reference: 'ref-1', state: 'registered', stateKind: 'registered' });
      expect(p.raw).toEqual(body);
      expect(p.warnings.join(' ')).toContain('a purchase may exist (reference ref-1)');
      expect(h.fake.received).toHaveLength(1);
    }
  });

  it('sends names and places as the map says, and reads the answers in its shapes', async () => {
    const { h, purchases } = service((req) => {
      if (req.endpoint === 'downloadUrl') return { kind: 'answer', body: { href: 'https://cdn.example/d', expiresIn: 900 } };
      if (req.endpoint === 'purchaseInfo') return { kind: 'answer', body: { data: { orderId: 'o1', status: 'PENDING', assetId: 42 } } };
      return { kind: 'answer', body: { data: { orderId: 'o1', status: req.endpoint === 'validatePurchase' ? 'APPROVED' : 'PENDING', assetId: 42 } } };
    }, camel);
    const registered = await drive(h.clock, purchases.register(42, { reference: 'mine-1' }));
    expect(registered).toMatchObject({
      id: 'o1',
      asset_id: 42,
      state: 'PENDING',
      stateKind: 'registered',
      actions: ['purchaseInfo', 'validatePurchase', 'cancelPurchase'],
    });
    // validate takes the asset: asked for with purchase info when not given.
    expect((await drive(h.clock, purchases.validate('o1'))).stateKind).toBe('validated');
    const link = await drive(h.clock, purchases.downloadUrl('o1'));
    expect(link).toMatchObject({ purchaseId: 'o1', url: 'https://cdn.example/d', expiresAt: '2026-01-01T00:15:00.000Z' });
    await drive(h.clock, purchases.cancel('o1'));
    expect(h.fake.received.map((r) => [r.endpoint, r.url.search, r.body])).toEqual([
      ['registerPurchase', '', { assetId: 42, reference: 'mine-1' }],
      ['purchaseInfo', '?purchaseId=o1', undefined],
      ['validatePurchase', '', { assetId: 42 }],
      ['downloadUrl', '?purchaseId=o1', undefined],
      ['cancelPurchase', '', { order: { id: 'o1' } }],
    ]);
  });

  it('an unknown state word offers every action with a warning; a map without lookup says so in words', async () => {
    const { h, purchases } = service(() => ({ kind: 'answer', body: { data: { orderId: 'o2', status: 'ON_HOLD', assetId: 1 } } }), camel);
    const p = await drive(h.clock, purchases.info('o2'));
    expect(p.stateKind).toBe('unknown');
    expect(p.actions).toHaveLength(5);
    expect(p.warnings[0]).toContain('"ON_HOLD" is not in the service map');
    const e = await errorOf(purchases.findByReference('ref-x'));
    expect(e.code).toBe('NOT_FOUND');
    expect(e.message).toContain('no lookup of purchases by reference');
    expect(h.fake.received).toHaveLength(1);
  });

  it('validate learns from a 400 that names the field the service wanted, sends once more, and says what to save', async () => {
    const { h, purchases } = service((req) => {
      if (req.endpoint === 'purchaseInfo') return { kind: 'answer', body: { id: 'p1', asset_id: 5, state: 'registered' } };
      const body = req.body as Record<string, unknown> | undefined;
      if (body?.assetId === undefined)
        return { kind: 'answer', status: 400, body: { name: 'Bad Request', message: 'Missing required field: assetId', code: 0, status: 400 } };
      return { kind: 'answer', body: { id: 'p1', asset_id: 5, state: 'validated' } };
    });
    const p = await drive(h.clock, purchases.validate('p1'));
    expect(p.stateKind).toBe('validated');
    expect(p.warnings.join(' ')).toContain('Save validate = {"in":"body","name":"assetId","takes":"asset"}');
    // Learned for the session: the next validate goes the right way at once.
    await drive(h.clock, purchases.validate('p1', { assetId: 5 }));
    expect(h.fake.received.map((r) => r.endpoint)).toEqual(['validatePurchase', 'purchaseInfo', 'validatePurchase', 'validatePurchase']);
  });

  it('a 400 that names nothing new stands, and is sent once', async () => {
    const { h, purchases } = service(() => ({
      kind: 'answer',
      status: 400,
      body: { name: 'Bad Request', message: 'Request body is not valid JSON.', code: 0, status: 400 },
    }));
    expect((await errorOf(drive(h.clock, purchases.validate('p1')))).code).toBe('BAD_REQUEST');
    expect(h.fake.received).toHaveLength(1);
  });
});
