/**
 * The app as a spec sees it: open it (the URL browser mode printed), wait for the connection, and
 * reach each view's page object. `const app = await openConsole(page); await app.catalog.open();`
 */
import type { Page } from '@playwright/test';
import { bridgeCall, waitConnected, webUrl } from '../web/helpers';
import { AlertsPage } from './alerts-page';
import { BudgetPage } from './budget-page';
import { CatalogPage } from './catalog-page';
import { OverviewPage } from './overview-page';
import { PurchasesPage } from './purchases-page';
import { RequestsPage } from './requests-page';
import { SettingsPage } from './settings-page';
import { UsagePage } from './usage-page';

export class ConsoleApp {
  readonly overview: OverviewPage;
  readonly budget: BudgetPage;
  readonly catalog: CatalogPage;
  readonly purchases: PurchasesPage;
  readonly requests: RequestsPage;
  readonly alerts: AlertsPage;
  readonly usage: UsagePage;
  readonly settings: SettingsPage;

  constructor(readonly page: Page) {
    this.overview = new OverviewPage(page);
    this.budget = new BudgetPage(page);
    this.catalog = new CatalogPage(page);
    this.purchases = new PurchasesPage(page);
    this.requests = new RequestsPage(page);
    this.alerts = new AlertsPage(page);
    this.usage = new UsagePage(page);
    this.settings = new SettingsPage(page);
  }

  get connection() {
    return this.page.getByRole('status', { name: /^Connection: / });
  }
}

/** Opens the app and waits until it is connected (a degraded connection still works). */
export async function openConsole(page: Page, url: string = webUrl()): Promise<ConsoleApp> {
  await page.goto(url);
  await waitConnected(page);
  return new ConsoleApp(page);
}

/** The profile the app shows (the demo's or, against a real service, the one made from PARTNER_VENDOR): for bridge calls. */
export async function activeProfileId(): Promise<string> {
  const { activeId } = await bridgeCall('listProfiles', {});
  if (!activeId) throw new Error('no active profile');
  return activeId;
}
