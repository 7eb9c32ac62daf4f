/** Vendor staff open an asset and read its history. Read-only: @real. */
import { expect, test } from './fixtures';
import { activeProfileId, openConsole } from '../pages/app';
import { bridgeCall, screenshot } from './helpers';

/** Index on the first page of an asset whose history has at least two prices (so it has a chart). */
async function assetWithPriceHistory(): Promise<number> {
  const profileId = await activeProfileId();
  const page = await bridgeCall('listAssets', { profileId, lastId: null, pageSize: 20 });
  for (const [i, asset] of page.items.entries()) {
    const history = await bridgeCall('assetHistory', { profileId, assetId: asset.id });
    if (history.items.filter((e) => typeof e.price === 'number').length >= 2) return i;
  }
  throw new Error('no asset on the first page has two prices in its history');
}

test('vendor staff open an asset and see its history @real', async ({ page }) => {
  const index = await assetWithPriceHistory();
  const catalog = await (await openConsole(page)).catalog.open();
  const row = catalog.rows.nth(index);
  const id = await catalog.idOf(row);
  const title = await row.locator('td').nth(1).innerText();
  // Keyboard: rows are focusable and open with Enter.
  await catalog.openRow(row);

  const detail = catalog.detail(id);
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
  await expect(catalog.detail(id)).toBeVisible();
  await detail.getByRole('button', { name: 'Close asset details' }).click();
  await expect(detail).toHaveCount(0);
});
