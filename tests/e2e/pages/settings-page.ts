/** Settings: vendor profiles, theme, the demo simulator's traffic, and preferences. */
import type { Locator } from '@playwright/test';
import { ViewPage } from './view-page';

export class SettingsPage extends ViewPage {
  readonly name = 'Settings' as const;

  get profiles(): Locator {
    return this.page.getByRole('list', { name: 'Vendor profiles' });
  }

  profile(name: string): Locator {
    return this.profiles.getByRole('listitem').filter({ hasText: name });
  }

  get theme(): Locator {
    return this.page.getByRole('combobox', { name: 'Theme' });
  }

  async addProfile(fields: { name: string; vendor: string; baseUrl: string; token: string }): Promise<void> {
    await this.page.getByRole('button', { name: 'Add profile' }).click();
    await this.page.getByRole('textbox', { name: 'Name' }).fill(fields.name);
    await this.page.getByRole('textbox', { name: 'Vendor' }).fill(fields.vendor);
    await this.page.getByRole('textbox', { name: 'Base URL' }).fill(fields.baseUrl);
    await this.page.getByLabel('New token 1').fill(fields.token);
    await this.page.getByRole('button', { name: 'Save profile' }).click();
  }

  /** Demo traffic at `percent` of each endpoint's limit (the built-in demo only). */
  async startDemoTraffic(percent: number): Promise<void> {
    await this.page.getByRole('slider', { name: "Demo traffic share of each endpoint's limit" }).fill(String(percent));
    await this.page.getByRole('button', { name: 'Start demo traffic' }).click();
  }
}
