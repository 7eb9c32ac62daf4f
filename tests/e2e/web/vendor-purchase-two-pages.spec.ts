/**
 * Two pages on one browser-mode server: page 1 opens a demo asset in the Catalog, page 2 switches the
 * connection to acme. Page 1's asset stays demo's (shown as another vendor's, its actions off) and
 * nothing of it is ever registered at acme; once demo is shown again, its Register goes to demo.
 */
import { expect, test } from './fixtures';
import { bridgeCall, openApp, screenshot } from './helpers';

const ACME = 'demo-acme';

/** No live purchase or unresolved registration left behind; demo the only connected profile. */
async function cleanUp(): Promise<void> {
  const { items } = await bridgeCall('ledgerList', { limit: 1000 });
  for (const r of items) {
    if (r.state === 'sending' || r.state === 'unknown')
      await bridgeCall('ledgerResolve', { profileId: r.profileId, id: r.id, action: 'markChecked' }).catch(() => undefined);
    if (r.purchaseId && r.state === 'registered' && r.purchaseStateKind !== 'cancelled') {
      await bridgeCall('cancelPurchase', { profileId: r.profileId, purchaseId: r.purchaseId }).catch(() => undefined);
    }
  }
  const connected = (await bridgeCall('connectedProfiles', {})).items;
  if (!connected.some((p) => p.profileId === 'demo' && p.active)) await bridgeCall('selectProfile', { id: 'demo' });
  if (connected.some((p) => p.profileId === ACME)) await bridgeCall('disconnectProfile', { id: ACME });
}

test.beforeEach(cleanUp);
test.afterEach(cleanUp);

test("a second page switching to acme never turns the first page's Register of a demo asset into acme's", async ({ browser }) => {
  test.setTimeout(120_000);
  await bridgeCall('connectProfile', { id: ACME });
  const page1 = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  const page2 = await browser.newPage({ viewport: { width: 1440, height: 900 } });

  await openApp(page1, 'Catalog');
  const row = page1.getByRole('table', { name: 'Assets' }).locator('tbody tr').nth(6);
  const id = (await row.locator('th, td').first().innerText()).trim();
  await row.click();
  const detail = page1.getByRole('complementary', { name: `Asset ${id}` });
  const register = detail.getByRole('button', { name: 'Register purchase', exact: true });
  await expect(register).toBeEnabled();
  const demoTitle = await detail.getByRole('heading', { level: 2 }).innerText();

  // Page 2 makes acme the active profile; page 1 hears of it (the connection event reaches every page).
  await openApp(page2, 'Budget');
  await page2.getByRole('combobox', { name: 'Active profile' }).selectOption(ACME);
  await expect(page2.getByRole('status', { name: /Connection:/ })).toContainText('acme');
  await expect(page1.getByRole('status', { name: /Connection:/ })).toContainText('acme');

  // Whatever page 1 still offers, Register must not reach acme: press it if it is there (the old defect did).
  if (await register.isVisible()) {
    await register.click();
    await page1
      .getByRole('dialog')
      .getByRole('button', { name: /^Register (purchase|again)$/ })
      .click();
    await expect(detail.getByText(/^Registered: |registration/).first()).toBeVisible();
  }
  const atAcme = (await bridgeCall('ledgerList', { vendor: 'acme', limit: 1000 })).items.filter((r) => r.assetId === id);
  expect(atAcme).toEqual([]);

  // Page 1 still shows demo's asset, says so, and offers no action on it.
  await expect(detail.getByRole('heading', { level: 2 })).toHaveText(demoTitle);
  await expect(detail.getByText(/This asset is from vendor demo, which this page does not show now/)).toBeVisible();
  await expect(register).toBeHidden();
  await screenshot(page1, 'vendor-purchase-other-page-switched');

  // Demo shown again: the asset's actions are back, and its Register goes to demo.
  await page2.getByRole('combobox', { name: 'Active profile' }).selectOption('demo');
  await expect(page1.getByRole('status', { name: /Connection:/ })).not.toContainText('acme');
  await expect(register).toBeEnabled();
  await register.click();
  await page1
    .getByRole('dialog')
    .getByRole('button', { name: /^Register (purchase|again)$/ })
    .click();
  await expect(detail.getByText(/^Registered: p_/)).toBeVisible();
  const records = (await bridgeCall('ledgerList', { assetId: id, limit: 1000 })).items.filter(
    (r) => r.state === 'registered' && r.purchaseStateKind !== 'cancelled',
  );
  expect(records.map((r) => [r.vendor, r.profileId])).toEqual([['demo', 'demo']]);

  await page1.close();
  await page2.close();
});
