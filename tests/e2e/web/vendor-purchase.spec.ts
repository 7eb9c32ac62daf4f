/** Vendor staff run the purchase flow from an asset: register, validate, download URL, cancel. */
import { expect, test } from '@playwright/test';
import { bridgeCall, openApp, screenshot } from './helpers';

// Leave no live purchase behind: a later run must find Register enabled.
test.afterEach(async () => {
  const { items } = await bridgeCall('sessionPurchases', {});
  for (const p of items) {
    if (p.purchase.state !== 'cancelled') await bridgeCall('cancelPurchase', { purchaseId: p.purchase.id }).catch(() => undefined);
  }
});

test('vendor staff register, validate, get a download URL and cancel a purchase', async ({ page }) => {
  await openApp(page, 'Catalog');
  const row = page.getByRole('table', { name: 'Assets' }).locator('tbody tr').nth(4);
  const id = await row.locator('td').first().innerText();
  await row.click();
  const detail = page.getByRole('complementary', { name: `Asset ${id}` });
  const button = (name: string) => detail.getByRole('button', { name, exact: true });

  // No purchase yet: only Register is possible.
  await expect(button('Register purchase')).toBeEnabled();
  for (const name of ['Validate before payment', 'Get download URL', 'Get view URL', 'Purchase info', 'Cancel purchase']) {
    await expect(button(name)).toBeDisabled();
  }

  // Register asks first; Cancel in the dialog changes nothing.
  await button('Register purchase').click();
  let dialog = page.getByRole('dialog', { name: 'Register a purchase?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(detail.getByText('No purchase of this asset in this session.')).toBeVisible();

  await button('Register purchase').click();
  dialog = page.getByRole('dialog', { name: 'Register a purchase?' });
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(detail.getByText(/^Registered: p_/)).toBeVisible();
  await expect(button('Register purchase')).toBeDisabled();
  await expect(button('Validate before payment')).toBeEnabled();
  await expect(button('Get download URL')).toBeDisabled();
  await expect(button('Get view URL')).toBeEnabled();

  await button('Validate before payment').click();
  await expect(detail.getByText(/^Validated: p_/)).toBeVisible();
  await expect(button('Validate before payment')).toBeDisabled();
  await expect(button('Get download URL')).toBeEnabled();

  await button('Get download URL').click();
  const url = detail.getByRole('textbox', { name: 'Download URL' });
  await expect(url).toHaveValue(/^https:\/\//);
  await expect(url).toHaveAttribute('readonly', '');
  await expect(detail.getByRole('button', { name: 'Copy' })).toBeVisible();
  await expect(detail.getByRole('button', { name: 'Open in browser' })).toBeVisible();
  await screenshot(page, 'vendor-purchase-download-url');

  await button('Cancel purchase').click();
  dialog = page.getByRole('dialog', { name: 'Cancel this purchase?' });
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(detail.getByText(/^Cancelled: p_/)).toBeVisible();
  await expect(button('Purchase info')).toBeEnabled();
  for (const name of ['Validate before payment', 'Get download URL', 'Get view URL', 'Cancel purchase']) {
    await expect(button(name)).toBeDisabled();
  }
  // A cancelled purchase is not live: the asset can be bought again.
  await expect(button('Register purchase')).toBeEnabled();
  const purchaseId = (await detail.getByText(/^Cancelled: p_/).innerText()).match(/p_\S+/)?.[0] ?? '';

  // The session's purchases list shows it with its state.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Purchases' }).click();
  const purchaseRow = page.getByRole('table', { name: 'Session purchases' }).getByRole('row').filter({ hasText: purchaseId });
  await expect(purchaseRow).toContainText('cancelled');
  await purchaseRow.click();
  await expect(page.getByRole('complementary', { name: `Purchase ${purchaseId}` })).toBeVisible();
  await screenshot(page, 'vendor-purchases-list');
});
