/** Overview: every connected profile's endpoints at a glance, coloured by the whole budget's use (this app's and others'). */
import type { Locator } from '@playwright/test';
import { ViewPage } from './view-page';

export class OverviewPage extends ViewPage {
  readonly name = 'Overview' as const;

  get grid(): Locator {
    return this.table("Use of each endpoint's limit by vendor");
  }

  get rows(): Locator {
    return this.grid.locator('tbody tr');
  }

  /** The cell of a profile's endpoint (a button that opens Budget at that endpoint). */
  cell(profileId: string, endpoint: string): Locator {
    return this.grid.locator(`tr[data-profile="${profileId}"] button[data-endpoint="${endpoint}"]`);
  }

  get connectForm(): Locator {
    return this.page.getByRole('form', { name: 'Connect a profile' });
  }

  async connect(profileLabel: string): Promise<void> {
    await this.connectForm.getByRole('combobox').selectOption({ label: profileLabel });
    await this.connectForm.getByRole('button', { name: 'Connect' }).click();
  }
}
