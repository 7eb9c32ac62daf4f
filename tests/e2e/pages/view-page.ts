/**
 * The base of the page objects (one per view, as VS Code's smoke tests have): how a spec reaches a
 * view and what every view has (its level-1 heading, the main navigation). Page objects find things by
 * role and accessible name, as a user of a screen reader would, so a spec reads as the user story.
 */
import { expect } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';

/** The views in the navigation's order (renderer/src/lib/nav.ts). */
export type ViewName = 'Overview' | 'Budget' | 'Catalog' | 'Purchases' | 'Requests' | 'Alerts' | 'Usage' | 'Settings';

export abstract class ViewPage {
  abstract readonly name: ViewName;

  constructor(readonly page: Page) {}

  get heading(): Locator {
    return this.page.getByRole('heading', { level: 1, name: this.name });
  }

  /** Opens this view from the main navigation and waits for its heading. */
  async open(): Promise<this> {
    await this.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: this.name, exact: true }).click();
    await expect(this.heading).toBeVisible();
    return this;
  }

  /** A table of this view by its accessible name. */
  table(name: string): Locator {
    return this.page.getByRole('table', { name });
  }
}
