/** The Purchases view's result of an action: a purchase the ledger has yet to record shows the warning in words. */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { PurchaseResult } from '../../../renderer/src/views/purchases/PurchaseActions';

const purchase = { id: 'p_000001', asset_id: 7, state: 'registered', price: 9.5, currency: 'USD' as const };

describe('PurchaseResult', () => {
  it('shows the purchase id and the ledger warning, not as a field', () => {
    const warning = 'Purchase p_000001 is registered at the service, but the purchase ledger could not be written just now (database is locked).';
    const html = renderToStaticMarkup(createElement(PurchaseResult, { action: 'registerPurchase', purchase: { ...purchase, ledgerWarning: warning } }));
    expect(html).toContain('p_000001');
    expect(html).toContain('Purchase ledger not updated yet');
    expect(html).toContain('could not be written just now (database is locked)');
    expect(html).not.toContain('<dt>ledgerWarning</dt>');
    expect(renderToStaticMarkup(createElement(PurchaseResult, { action: 'registerPurchase', purchase }))).not.toContain('Purchase ledger not updated yet');
  });
});
