/**
 * The simulator's purchase store is bounded per vendor (issue 21 item 12): full demo traffic registers
 * ~30 purchases a second, and an app left open all day must not hold them all. Cancelled purchases go
 * first; a purchase a client may still move goes only when nothing cancelled is left.
 */
import { describe, expect, it } from 'vitest';
import { MAX_PURCHASES_PER_VENDOR, PurchaseBook } from '../../electron/simulator/purchases';

const asset = { id: 1001, price: 9.99 };
const T = Date.UTC(2026, 0, 1);

const kept = (book: PurchaseBook, vendor: string, id: string) => book.get(vendor, id).ok;

describe('PurchaseBook bound', () => {
  it('keeps at most maxPerVendor purchases per vendor, forgetting the oldest registration (and its reference)', () => {
    const book = new PurchaseBook({ maxPerVendor: 3 });
    const ids = [1, 2, 3, 4, 5].map((i) => book.register('demo', asset, `ref-${i}`, T + i).id);
    const other = book.register('acme', asset, 'ref-1', T).id;
    expect(ids.map((id) => kept(book, 'demo', id))).toEqual([false, false, true, true, true]);
    expect(book.byReference('demo', 'ref-1')).toEqual([]);
    expect(book.byReference('demo', 'ref-5')).toHaveLength(1);
    // Another vendor's purchases are counted apart.
    expect(kept(book, 'acme', other)).toBe(true);
    expect(book.byReference('acme', 'ref-1')).toHaveLength(1);
  });

  it('forgets cancelled purchases first, longest cancelled first; registered and validated ones outlive them', () => {
    const book = new PurchaseBook({ maxPerVendor: 4 });
    const registered = book.register('demo', asset, 'a', T).id;
    const validated = book.register('demo', asset, 'b', T).id;
    const cancelledLater = book.register('demo', asset, 'c', T).id;
    const cancelledFirst = book.register('demo', asset, 'd', T).id;
    expect(book.act('demo', validated, 'validate', T).ok).toBe(true);
    expect(book.act('demo', cancelledFirst, 'cancel', T).ok).toBe(true);
    expect(book.act('demo', cancelledLater, 'cancel', T + 1).ok).toBe(true);

    const fifth = book.register('demo', asset, 'e', T + 2).id;
    expect(kept(book, 'demo', cancelledFirst)).toBe(false);
    expect([registered, validated, cancelledLater, fifth].every((id) => kept(book, 'demo', id))).toBe(true);

    const sixth = book.register('demo', asset, 'f', T + 3).id;
    expect(kept(book, 'demo', cancelledLater)).toBe(false);
    expect(book.byReference('demo', 'c')).toEqual([]);
    expect([registered, validated, fifth, sixth].every((id) => kept(book, 'demo', id))).toBe(true);

    // Nothing cancelled left: the oldest registration goes, never the one just made.
    const seventh = book.register('demo', asset, 'g', T + 4).id;
    expect(kept(book, 'demo', registered)).toBe(false);
    expect([validated, fifth, sixth, seventh].every((id) => kept(book, 'demo', id))).toBe(true);
    // A state machine that still works on what is kept.
    expect(book.act('demo', validated, 'downloadUrl', T).ok).toBe(true);
  });

  it('by default holds a working day of full demo traffic in ~10 MiB: at most 20,000 per vendor', () => {
    expect(MAX_PURCHASES_PER_VENDOR).toBeLessThanOrEqual(20_000);
    const book = new PurchaseBook();
    const first = book.register('demo', asset, 'demo-traffic-0', T).id;
    let last = first;
    for (let i = 1; i <= 20_000; i++) last = book.register('demo', asset, `demo-traffic-${i}`, T + i).id;
    expect(kept(book, 'demo', first)).toBe(false);
    expect(kept(book, 'demo', last)).toBe(true);
  });
});
