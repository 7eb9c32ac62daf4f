/**
 * Demo traffic's purchases: a purchase with a URL request in flight is not cancelled under it. Paced requests
 * wait up to a second, so a cancel taken later could reach the service first and the URL request would say 409
 * (about 5 a second each for download-url and view-url at full demo traffic).
 */
import { describe, expect, it } from 'vitest';
import { DemoPurchases } from '../../electron/app/demo-purchases';

const first = () => 0;

describe('DemoPurchases', () => {
  it('does not cancel a registered purchase while its view URL is asked for, and does once it is answered', () => {
    const purchases = new DemoPurchases();
    const p = purchases.add('p1', 7);
    expect(purchases.take('viewUrl', first)).toBe(p);
    expect(purchases.take('cancelPurchase', first)).toBeUndefined();
    expect(purchases.claim(p, 'cancelPurchase')).toBeUndefined();
    purchases.settle(p, 'viewUrl', true);
    expect(purchases.take('cancelPurchase', first)).toBe(p);
  });

  it('does not cancel a validated purchase while its download URL is asked for, even when the request fails', () => {
    const purchases = new DemoPurchases();
    const validated = ['a', 'b', 'c', 'd', 'e'].map((id) => {
      const p = purchases.add(id, 1);
      purchases.claim(p, 'validatePurchase');
      purchases.settle(p, 'validatePurchase', true);
      return p;
    });
    expect(purchases.take('downloadUrl', first)).toBe(validated[0]);
    // Cancel may take any validated purchase but the one being read.
    for (let i = 0; i < 4; i++) expect(purchases.take('cancelPurchase', first)).not.toBe(validated[0]);
    purchases.settle(validated[0]!, 'downloadUrl', false);
    expect(validated[0]!.readers).toBe(0);
    expect(validated[0]!.state).toBe('validated');
  });

  it('counts two URL requests on one purchase: cancel waits for both answers', () => {
    const purchases = new DemoPurchases();
    const p = purchases.add('p1', 7);
    purchases.take('viewUrl', first);
    purchases.take('viewUrl', first);
    purchases.settle(p, 'viewUrl', true);
    expect(purchases.take('cancelPurchase', first)).toBeUndefined();
    purchases.settle(p, 'viewUrl', true);
    expect(purchases.take('cancelPurchase', first)).toBe(p);
  });
});
