/** Vendor staff open an asset and read its history. */
import { expect, test } from '@playwright/test';
import { bridgeCall, openApp, screenshot } from './helpers';

/** Index on the first page of an asset whose history has at least two prices (so it has a chart). */
async function assetWithPriceHistory(): Promise<number> {
  const page = await bridgeCall('listAssets', { profileId: 'demo', lastId: null, pageSize: 20 });
  for (const [i, asset] of page.items.entries()) {
    const history = await bridgeCall('assetHistory', { profileId: 'demo', assetId: asset.id });
    if (history.items.filter((e) => typeof e.price === 'number').length >= 2) return i;
  }
  throw new Error('no asset on the first page has two prices in its history');
}

test('vendor staff open an asset and see its history', async ({ page }) => {
  const index = await assetWithPriceHistory();
  await openApp(page, 'Catalog');
  const rows = page.getByRole('table', { name: 'Assets' }).locator('tbody tr');
  const row = rows.nth(index);
  const id = await row.locator('td').first().innerText();
  const title = await row.locator('td').nth(1).innerText();
  // Keyboard: rows are focusable and open with Enter.
  await row.focus();
  await page.keyboard.press('Enter');

  const detail = page.getByRole('complementary', { name: `Asset ${id}` });
  await expect(detail.getByRole('heading', { name: title })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`#/catalog/${id}$`));
  const history = detail.getByRole('table', { name: 'Asset history' });
  await expect(history.locator('tbody tr').first()).toBeVisible();
  await expect(history.locator('tbody tr').first()).toContainText(/created|updated|price/);
  expect(await history.locator('tbody tr').count()).toBeGreaterThanOrEqual(2);
  await expect(detail.getByRole('img', { name: /Price history/ })).toBeVisible();
  await screenshot(page, 'vendor-asset');

  // A reload keeps the view and the asset.
  await page.reload();
  await expect(page.getByRole('complementary', { name: `Asset ${id}` })).toBeVisible();
  await detail.getByRole('button', { name: 'Close asset details' }).click();
  await expect(detail).toHaveCount(0);
});
