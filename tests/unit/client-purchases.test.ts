/** PurchaseService over PartnerClient, on the fake service: arguments, answers, and unknown outcomes. */
import { describe, expect, it } from 'vitest';
import { PurchaseService } from '../../electron/purchases';
import { drive, errorOf, harness } from '../../electron/client/testing';
import type { FakeAction, FakeRequest } from '../../electron/client/testing';

const purchase = (extra: Record<string, unknown> = {}) => ({ id: 'p_1', asset_id: 7, state: 'registered', price: 9.5, currency: 'USD', ...extra });

function service(action: (req: FakeRequest) => FakeAction) {
  const h = harness({ action });
  let n = 0;
  return { h, purchases: new PurchaseService(h.client(), { newReference: () => `ref-${++n}` }) };
}

describe('PurchaseService.findByReference keeps only the reference asked for', () => {
  it('leaves out items of another reference, with no readable reference, or of another asset, and says so', async () => {
    const { h, purchases } = service(() => ({
      kind: 'answer',
      body: {
        items: [
          purchase({ id: 'p_other', client_reference: 'ref-A' }),
          purchase({ id: 'p_bare' }),
          purchase({ id: 'p_wrong_asset', asset_id: 8, client_reference: 'ref-B' }),
          purchase({ id: 'p_mine', client_reference: 'ref-B' }),
        ],
      },
    }));
    const found = await drive(h.clock, purchases.findByReference('ref-B', { assetId: '7' }));
    expect(found.items.map((p) => p.id)).toEqual(['p_mine']);
    expect(found.warnings.join(' ')).toMatch(/1 item\(s\) .* no readable reference/);
    expect(found.warnings.join(' ')).toMatch(/1 item\(s\) .* another reference than ref-B/);
    expect(found.warnings.join(' ')).toMatch(/1 item\(s\) with reference ref-B are of another asset than 7/);
    const none = await drive(h.clock, purchases.findByReference('ref-C'));
    expect(none.items).toEqual([]);
  });
});

describe('PurchaseService', () => {
  it('sends each operation to its endpoint with its parameters and returns typed results', async () => {
    const { h, purchases } = service((req) => {
      switch (req.endpoint) {
        case 'downloadUrl':
        case 'viewUrl':
          return { kind: 'answer', body: { purchase_id: 'p_1', url: 'https://cdn.example/x', expires_at: '2025-01-01T00:00:00Z' } };
        case 'purchaseInfo':
          return { kind: 'answer', body: req.url.searchParams.has('client_reference') ? { items: [purchase({ client_reference: 'ref-9' })] } : purchase() };
        default:
          return { kind: 'answer', body: purchase({ state: req.endpoint === 'cancelPurchase' ? 'cancelled' : 'validated' }) };
      }
    });
    expect(await drive(h.clock, purchases.info('p_1'))).toMatchObject({ id: 'p_1', state: 'registered' });
    expect((await drive(h.clock, purchases.findByReference('ref-9'))).items).toMatchObject([
      { id: 'p_1', asset_id: 7, state: 'registered', client_reference: 'ref-9' },
    ]);
    expect((await drive(h.clock, purchases.validate('p_1'))).state).toBe('validated');
    expect((await drive(h.clock, purchases.downloadUrl('p_1'))).url).toBe('https://cdn.example/x');
    expect((await drive(h.clock, purchases.viewUrl('p_1'))).url).toBe('https://cdn.example/x');
    expect((await drive(h.clock, purchases.cancel('p_1'))).state).toBe('cancelled');
    const sent = h.fake.received.map((r) => [r.endpoint, r.url.search, r.body]);
    expect(sent).toEqual([
      ['purchaseInfo', '?purchase_id=p_1', undefined],
      ['purchaseInfo', '?client_reference=ref-9', undefined],
      ['validatePurchase', '', { purchase_id: 'p_1' }],
      ['downloadUrl', '?purchase_id=p_1', undefined],
      ['viewUrl', '?purchase_id=p_1', undefined],
      ['cancelPurchase', '?purchase_id=p_1', undefined],
    ]);
  });

  it('register sets a fresh client_reference on every registration and keeps it on the result', async () => {
    const { h, purchases } = service(() => ({ kind: 'answer', body: purchase() })); // the service does not echo it
    const first = await drive(h.clock, purchases.register(7));
    const second = await drive(h.clock, purchases.register('8'));
    expect(first.client_reference).toBe('ref-1');
    expect(second.client_reference).toBe('ref-2');
    expect(h.fake.received.map((r) => r.body)).toEqual([
      { asset_id: 7, client_reference: 'ref-1' },
      { asset_id: '8', client_reference: 'ref-2' }, // an id is sent as the service gave it
    ]);
  });

  it('register with an unknown outcome: sent once, the error names the reference and how to check', async () => {
    const { h, purchases } = service(() => ({ kind: 'drop' }));
    const e = await errorOf(drive(h.clock, purchases.register(7)));
    expect(e.code).toBe('UNKNOWN_OUTCOME');
    expect(e.message).toContain('ref-1');
    expect(e.data.hint).toContain('look it up by its reference ref-1');
    expect(e.data.body).toMatchObject({ client_reference: 'ref-1' });
    await h.clock.advance(60_000);
    expect(h.fake.received).toHaveLength(1);
  });

  it('refuses bad arguments before sending', async () => {
    const { h, purchases } = service(() => ({ kind: 'answer', body: purchase() }));
    for (const p of [
      purchases.info(''),
      purchases.cancel('  '),
      purchases.validate(42 as never),
      purchases.register(-1),
      purchases.register(1.5),
      purchases.findByReference('x'.repeat(500)),
    ]) {
      expect((await errorOf(p)).code).toBe('BAD_REQUEST');
    }
    expect(h.fake.received).toHaveLength(0);
  });

  it('a 200 purchase that does not fit is read as far as it goes; a link that is not http(s) is INVALID_RESPONSE', async () => {
    const { h, purchases } = service((req) =>
      req.endpoint === 'viewUrl' ? { kind: 'answer', body: { url: 'javascript:alert(1)' } } : { kind: 'answer', body: { ok: true } },
    );
    const read = await drive(h.clock, purchases.info('p_1'));
    expect(read).toMatchObject({ id: 'p_1', stateKind: 'unknown', raw: { ok: true } });
    expect(read.missing).toEqual(expect.arrayContaining(['purchase.id', 'purchase.state']));
    const e2 = await errorOf(drive(h.clock, purchases.viewUrl('p_1')));
    expect(e2.code).toBe('INVALID_RESPONSE');
    expect(e2.message).toMatch(/without an http\(s\) link/);
  });

  it('passes the service errors through as typed codes (404, 409)', async () => {
    const { h, purchases } = service((req) =>
      req.endpoint === 'downloadUrl'
        ? { kind: 'answer', status: 409, body: { name: 'Conflict', message: 'Purchase p_1 is registered, not validated.', code: 0, status: 409 } }
        : { kind: 'answer', status: 404, body: { name: 'Not Found', message: 'Unknown purchase.', code: 0, status: 404 } },
    );
    expect((await errorOf(drive(h.clock, purchases.downloadUrl('p_1')))).code).toBe('CONFLICT');
    expect((await errorOf(drive(h.clock, purchases.info('p_404')))).code).toBe('NOT_FOUND');
  });
});
