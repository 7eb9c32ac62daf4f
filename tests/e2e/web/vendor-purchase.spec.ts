/**
 * Vendor staff run the purchase flow from an asset: register, validate, download URL, cancel; the
 * purchase ledger keeps it across a reload, and Register asks again, naming it (the guard is main's).
 */
import { expect, test } from './fixtures';
import type { Page } from '@playwright/test';
import { bridgeCall, openApp, screenshot } from './helpers';

// Leave no live purchase or unresolved registration behind: a later run must find Register asking as for a first time.
test.afterEach(async () => {
  // A real service (npm run test:e2e:real) has no simulator to reset.
  if (process.env.PARTNER_E2E_REAL !== '1') await bridgeCall('simSetFaults', { dropRate: 0 });
  const { items } = await bridgeCall('ledgerList', { limit: 1000 });
  for (const r of items) {
    if (r.state === 'sending' || r.state === 'unknown') await bridgeCall('ledgerResolve', { profileId: r.profileId, id: r.id, action: 'markChecked' });
    if (r.purchaseId && r.state === 'registered' && r.purchaseStateKind !== 'cancelled') {
      await bridgeCall('cancelPurchase', { profileId: r.profileId, purchaseId: r.purchaseId }).catch(() => undefined);
    }
  }
});

async function openAsset(page: Page, index: number) {
  await openApp(page, 'Catalog');
  const row = page.getByRole('table', { name: 'Assets' }).locator('tbody tr').nth(index);
  const id = await row.locator('th, td').first().innerText();
  await row.click();
  const detail = page.getByRole('complementary', { name: `Asset ${id}` });
  await expect(detail).toBeVisible();
  return { id, detail, button: (name: string) => detail.getByRole('button', { name, exact: true }) };
}

test('vendor staff register, validate, get a download URL and cancel a purchase; after a reload Register still asks, naming it @purchase', async ({ page }) => {
  test.setTimeout(150_000); // the whole flow, with a reload, on a shared machine
  let { id, detail, button } = await openAsset(page, 4);

  // No purchase yet: only Register is possible.
  await expect(detail.getByText('No purchase of this asset in the ledger.')).toBeVisible();
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
  await expect(detail.getByText('No purchase of this asset in the ledger.')).toBeVisible();

  await button('Register purchase').click();
  dialog = page.getByRole('dialog', { name: 'Register a purchase?' });
  await dialog.getByRole('button', { name: 'Register purchase' }).click();
  await expect(detail.getByText(/^Registered: p_/)).toBeVisible();
  const purchaseId = (await detail.getByText(/^Registered: p_/).innerText()).match(/p_\S+/)?.[0] ?? '';
  await expect(button('Validate before payment')).toBeEnabled();
  await expect(button('Get download URL')).toBeDisabled();
  await expect(button('Get view URL')).toBeEnabled();

  // A reload forgets the page's memory; the ledger (in main) does not: Register asks differently, naming the purchase.
  await page.reload();
  ({ id, detail, button } = await openAsset(page, 4));
  await expect(detail.getByText(purchaseId, { exact: true }).first()).toBeVisible();
  await button('Register purchase').click();
  dialog = page.getByRole('dialog', { name: 'Register this asset again?' });
  await expect(dialog).toContainText(`purchase ${purchaseId} (registered)`);
  await expect(dialog).toContainText('Registering again buys it a second time.');
  await expect(dialog.getByRole('button', { name: 'Register again' })).toBeVisible();
  await screenshot(page, 'vendor-purchase-register-again');
  await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
  // Main refuses a registration that does not name it, whatever a page sends.
  await expect(bridgeCall('registerPurchase', { profileId: 'demo', assetId: Number(id), assetTitle: null })).rejects.toThrow(
    /CONFIRMATION_REQUIRED .*already bought: purchase p_/,
  );

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

  // Cancel asks in words: "Keep purchase" changes nothing.
  await button('Cancel purchase').click();
  dialog = page.getByRole('dialog', { name: 'Cancel this purchase?' });
  await dialog.getByRole('button', { name: 'Keep purchase' }).click();
  await expect(dialog).toBeHidden();
  await expect(button('Get download URL')).toBeEnabled();
  await button('Cancel purchase').click();
  await dialog.getByRole('button', { name: 'Cancel purchase' }).click();
  await expect(detail.getByText(/^Cancelled: p_/)).toBeVisible();
  await expect(button('Purchase info')).toBeEnabled();
  for (const name of ['Validate before payment', 'Get download URL', 'Get view URL', 'Cancel purchase']) {
    await expect(button(name)).toBeDisabled();
  }
  // A cancelled purchase is not live: the asset can be bought again, asked as a first time.
  await button('Register purchase').click();
  await expect(page.getByRole('dialog', { name: 'Register a purchase?' })).toBeVisible();
  await page.getByRole('dialog', { name: 'Register a purchase?' }).getByRole('button', { name: 'Cancel', exact: true }).click();

  // The ledger lists it with its state; Find a purchase opens it by id.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Purchases' }).click();
  const purchaseRow = page.getByRole('table', { name: 'Purchase ledger' }).getByRole('row').filter({ hasText: purchaseId });
  await expect(purchaseRow).toContainText('cancelled');
  await purchaseRow.click();
  await expect(page.getByRole('complementary', { name: `Purchase ${purchaseId}` })).toBeVisible();
  const find = page.getByRole('region', { name: 'Find a purchase' });
  await find.getByRole('textbox', { name: 'Purchase id' }).fill(purchaseId);
  await find.getByRole('button', { name: 'Find' }).click();
  await expect(find.getByText(`Found: ${purchaseId}`)).toBeVisible();
  await screenshot(page, 'vendor-purchases-list');
  await page.setViewportSize({ width: 1024, height: 700 });
  await screenshot(page, 'vendor-purchases-list-1024');
});

test('a registration whose answer is lost is listed as unresolved, looked up, and then named by Register', async ({ page }) => {
  const { detail, button } = await openAsset(page, 6);
  // The simulator registers it, then drops the connection: the app cannot know.
  await bridgeCall('simSetFaults', { dropRate: 1 });
  await button('Register purchase').click();
  await page.getByRole('dialog', { name: 'Register a purchase?' }).getByRole('button', { name: 'Register purchase' }).click();
  const unresolved = detail.getByRole('status', { name: /^Unresolved registration pc-/ });
  await expect(unresolved).toBeVisible();
  await bridgeCall('simSetFaults', { dropRate: 0 });
  const reference = ((await unresolved.getAttribute('aria-label')) ?? '').replace('Unresolved registration ', '');
  // The reference is stated once, with no internal name and no stray colon.
  const text = await unresolved.innerText();
  expect(text.split(reference)).toHaveLength(2);
  expect(text).not.toMatch(/PurchaseService|findByReference|: check/);
  await screenshot(page, 'vendor-purchase-unresolved');

  // Register asks, naming the unresolved registration.
  await button('Register purchase').click();
  const dialog = page.getByRole('dialog', { name: 'Register this asset again?' });
  await expect(dialog).toContainText(`registration ${reference}`);
  await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();

  // The Purchases view lists it on top; the lookup (an enabled button) finds the purchase the service made.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Purchases' }).click();
  const listed = page.getByRole('region', { name: 'Unresolved registrations' }).getByRole('status', { name: `Unresolved registration ${reference}` });
  await expect(listed).toBeVisible();
  await screenshot(page, 'vendor-purchases-unresolved');
  await expect(listed.getByRole('button', { name: 'Look it up' })).toBeEnabled();
  await listed.getByRole('button', { name: 'Look it up' }).click();
  await expect(page.getByText(/^Found purchase p_\S+ \(registered\)\.$/)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Unresolved registrations' })).toBeHidden();
});
