/** The purchase state machine, per vendor, without HTTP. */
import { describe, expect, it } from 'vitest';
import { PurchaseBook } from '../../electron/simulator/purchases';
import type { PurchaseAction } from '../../electron/simulator/purchases';
import { PURCHASE_ACTIONS_BY_STATE } from '../../shared/catalog';
import type { PurchaseState } from '../../shared/catalog';

const asset = { id: 1001, price: 9.99 };
const T = Date.UTC(2026, 0, 1);

describe('PurchaseBook', () => {
  it('register creates a registered purchase with the asset price', () => {
    const book = new PurchaseBook();
    const p = book.register('demo', asset, 'ref-1', T);
    expect(p).toMatchObject({ asset_id: 1001, state: 'registered', price: 9.99, currency: 'USD', client_reference: 'ref-1' });
    expect(p.id).toMatch(/^p_[0-9a-z]+$/);
    expect(p.created_at).toBe(new Date(T).toISOString());
  });

  it('a repeat with the same client_reference creates another purchase (no idempotency)', () => {
    const book = new PurchaseBook();
    const a = book.register('demo', asset, 'same', T);
    const b = book.register('demo', asset, 'same', T);
    expect(a.id).not.toBe(b.id);
    expect(book.byReference('demo', 'same').map((p) => p.id)).toEqual([a.id, b.id]);
  });

  it('registered -> validated -> cancelled, with updated_at moving', () => {
    const book = new PurchaseBook();
    const p = book.register('demo', asset, undefined, T);
    expect(p).not.toHaveProperty('client_reference');
    const v = book.act('demo', p.id, 'validate', T + 1000);
    expect(v).toMatchObject({ ok: true, purchase: { state: 'validated', updated_at: new Date(T + 1000).toISOString() } });
    expect(book.act('demo', p.id, 'cancel', T + 2000)).toMatchObject({ ok: true, purchase: { state: 'cancelled' } });
  });

  it('registered -> cancelled directly', () => {
    const book = new PurchaseBook();
    const p = book.register('demo', asset, undefined, T);
    expect(book.act('demo', p.id, 'cancel', T)).toMatchObject({ ok: true, purchase: { state: 'cancelled' } });
  });

  /** Which actions each state allows, as the dashboard reads it from shared/catalog.ts. */
  const ACTION_IDS: Record<PurchaseAction, string> = { validate: 'validatePurchase', cancel: 'cancelPurchase', downloadUrl: 'downloadUrl', viewUrl: 'viewUrl' };

  function inState(book: PurchaseBook, state: PurchaseState): string {
    const p = book.register('demo', asset, undefined, T);
    if (state === 'validated') book.act('demo', p.id, 'validate', T);
    if (state === 'cancelled') book.act('demo', p.id, 'cancel', T);
    return p.id;
  }

  for (const state of ['registered', 'validated', 'cancelled'] as const) {
    for (const action of ['validate', 'cancel', 'downloadUrl', 'viewUrl'] as const) {
      const allowed = PURCHASE_ACTIONS_BY_STATE[state].includes(ACTION_IDS[action]);
      it(`${action} on a ${state} purchase is ${allowed ? 'allowed' : '409 naming the state'}`, () => {
        const book = new PurchaseBook();
        const id = inState(book, state);
        const r = book.act('demo', id, action, T);
        if (allowed) {
          expect(r.ok).toBe(true);
        } else {
          expect(r).toMatchObject({ ok: false, status: 409 });
          expect(!r.ok && r.message).toContain(`is ${state}`);
          expect(book.get('demo', id)).toMatchObject({ ok: true, purchase: { state } }); // unchanged
        }
      });
    }
  }

  it('unknown purchases are 404, and a vendor never sees another vendor purchase', () => {
    const book = new PurchaseBook();
    const p = book.register('demo', asset, 'r', T);
    expect(book.get('demo', 'p_nope')).toMatchObject({ ok: false, status: 404 });
    expect(book.get('acme', p.id)).toMatchObject({ ok: false, status: 404 });
    expect(book.act('acme', p.id, 'cancel', T)).toMatchObject({ ok: false, status: 404 });
    expect(book.byReference('acme', 'r')).toEqual([]);
  });

  it('returned purchases are copies: changing one does not change the book', () => {
    const book = new PurchaseBook();
    const p = book.register('demo', asset, undefined, T);
    p.state = 'cancelled';
    expect(book.get('demo', p.id)).toMatchObject({ ok: true, purchase: { state: 'registered' } });
  });

  it('reset forgets purchases but never reuses an id', () => {
    const book = new PurchaseBook();
    const a = book.register('demo', asset, undefined, T);
    book.reset();
    expect(book.get('demo', a.id)).toMatchObject({ ok: false, status: 404 });
    expect(book.register('demo', asset, undefined, T).id).not.toBe(a.id);
  });
});
