/** Vendor staff page through the catalog by cursor (next, previous) and choose a page size. */
import { expect, test } from '@playwright/test';
import { bridgeCall, numberIn, openApp, screenshot } from './helpers';

test.afterEach(async () => {
  await bridgeCall('saveSettings', { pageSize: 20 });
});

test('vendor staff browse the catalog page by page', async ({ page }) => {
  await bridgeCall('saveSettings', { pageSize: 20 });
  await openApp(page, 'Catalog');
  const rows = page.getByRole('table', { name: 'Assets' }).locator('tbody tr');
  const firstId = () => rows.first().locator('td').first().innerText();
  const lastId = () => rows.last().locator('td').first().innerText();
  const next = page.getByRole('button', { name: 'Next page' });
  const previous = page.getByRole('button', { name: 'Previous page' });

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
  await expect(page.getByText(/^Page 2 ·/)).toBeVisible();
  await expect(rows.first().locator('td').first()).toHaveText(page2First);
  await previous.click();
  await expect(page.getByText(/^Page 1 ·/)).toBeVisible();
  await expect(rows.first().locator('td').first()).toHaveText(page1First);
  await expect(previous).toBeDisabled();

  // The page size is a setting; a larger page restarts at the first page.
  await page.getByRole('combobox', { name: 'Page size' }).selectOption('50');
  await expect(rows).toHaveCount(50);
  await expect(page.getByText(/^Page 1 · items 1–50/)).toBeVisible();
  await screenshot(page, 'vendor-browse');
});
