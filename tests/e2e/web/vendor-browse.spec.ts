/** Vendor staff page through the catalog by cursor (next, previous) and choose a page size. Read-only: @real. */
import { expect, test } from './fixtures';
import { openConsole } from '../pages/app';
import { bridgeCall, numberIn, screenshot } from './helpers';

test.afterEach(async () => {
  await bridgeCall('saveSettings', { pageSize: 20 });
});

test('vendor staff browse the catalog page by page @real', async ({ page }) => {
  await bridgeCall('saveSettings', { pageSize: 20 });
  const catalog = await (await openConsole(page)).catalog.open();
  const { rows, nextPage: next, previousPage: previous } = catalog;
  const firstId = () => catalog.idOf(rows.first());
  const lastId = () => catalog.idOf(rows.last());

  await expect(rows).toHaveCount(20);
  await expect(previous).toBeDisabled();
  const page1First = await firstId();
  const page1Last = numberIn(await lastId());

  await next.click();
  await expect(page.getByText(/^Page 2 · items 21–40/)).toBeVisible();
  await expect(rows).toHaveCount(20);
  const page2First = await firstId();
  // Cursor paging: page 2 starts after page 1's last id.
  expect(numberIn(page2First)).toBeGreaterThan(page1Last);
  await expect(previous).toBeEnabled();

  await next.click();
  await expect(page.getByText(/^Page 3 · items 41–60/)).toBeVisible();
  expect(numberIn(await firstId())).toBeGreaterThan(numberIn(page2First));

  await previous.click();
  await expect(catalog.position(2)).toBeVisible();
  await expect(rows.first().locator('td').first()).toHaveText(page2First);
  await previous.click();
  await expect(catalog.position(1)).toBeVisible();
  await expect(rows.first().locator('td').first()).toHaveText(page1First);
  await expect(previous).toBeDisabled();

  // The page size is a setting; a larger page restarts at the first page.
  await catalog.pageSize.selectOption('50');
  await expect(rows).toHaveCount(50);
  await expect(page.getByText(/^Page 1 · items 1–50/)).toBeVisible();
  await screenshot(page, 'vendor-browse');
});
