/** Budget: each endpoint's limit, use, 429s and waits, live or over a range, with a chart per endpoint. */
import type { Locator } from '@playwright/test';
import { ViewPage } from './view-page';

export class BudgetPage extends ViewPage {
  readonly name = 'Budget' as const;

  get endpoints(): Locator {
    return this.table('Endpoint budgets');
  }

  /** An endpoint's row, by its id (e.g. 'listAssets'). */
  row(endpoint: string): Locator {
    return this.endpoints.locator(`tr[data-endpoint="${endpoint}"]`);
  }

  /** An endpoint's chart, by its label (e.g. 'GET /assets/list'). */
  chart(label: string): Locator {
    return this.page.getByRole('region', { name: `${label} chart` });
  }

  get ranges(): Locator {
    return this.page.getByRole('group', { name: 'Time range' });
  }

  async range(label: string): Promise<void> {
    await this.ranges.getByRole('button', { name: label, exact: true }).click();
  }

  /** Live -> Paused or back: the button's name is the state shown. */
  async togglePause(): Promise<void> {
    await this.page.getByRole('button', { name: /^(Live|Paused)$/ }).click();
  }
}
