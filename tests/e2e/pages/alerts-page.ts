/** Alerts: what fired and ended, acknowledging, and the rules. */
import type { Locator } from '@playwright/test';
import { ViewPage } from './view-page';

export class AlertsPage extends ViewPage {
  readonly name = 'Alerts' as const;

  get alerts(): Locator {
    return this.table('Alerts');
  }

  /** Alerts in a state ('firing' or 'ended'), of a kind (e.g. 'use-above') if given. */
  inState(state: 'firing' | 'ended', kind?: string): Locator {
    return this.alerts.locator(`tr[data-state="${state}"]${kind ? `[data-kind="${kind}"]` : ''}`);
  }

  get rules(): Locator {
    return this.page.getByRole('region', { name: 'Alert rules' });
  }

  async acknowledge(row: Locator): Promise<void> {
    await row.getByRole('button', { name: /^Acknowledge/ }).click();
  }
}
