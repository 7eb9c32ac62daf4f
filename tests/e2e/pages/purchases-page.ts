/** Purchases: the ledger of this app's purchases, finding one by id or reference, and unresolved registrations. */
import type { Locator } from '@playwright/test';
import { ViewPage } from './view-page';

export class PurchasesPage extends ViewPage {
  readonly name = 'Purchases' as const;

  get ledger(): Locator {
    return this.table('Purchase ledger');
  }

  get find(): Locator {
    return this.page.getByRole('region', { name: 'Find a purchase' });
  }

  get unresolved(): Locator {
    return this.page.getByRole('region', { name: 'Unresolved registrations' });
  }
}
