/** Vendor staff search the catalog and filter it by category. */
import { expect, test } from '@playwright/test';
import { numberIn, openApp, screenshot } from './helpers';

test('vendor staff search assets by a word of the title', async ({ page }) => {
  await openApp(page, 'Catalog');
  const table = page.getByRole('table', { name: 'Assets' });
  const rows = table.locator('tbody tr');
  await expect(rows.first()).toBeVisible();

  await page.getByRole('searchbox', { name: 'Search assets' }).fill('castle');
  const status = page.getByText(/shown of [\d,]+ matches/);
  await expect(status).toBeVisible();
  const titles = await table.locator('tbody tr td:nth-child(2)').allInnerTexts();
  expect(titles.length).toBeGreaterThan(0);
  for (const title of titles) expect(title.toLowerCase()).toContain('castle');
  // Paging by cursor is for the whole catalog; a search shows its matches instead.
  await expect(page.getByRole('button', { name: 'Next page' })).toHaveCount(0);

  await page.getByRole('searchbox', { name: 'Search assets' }).fill('no-such-asset-zzz');
  await expect(page.getByText('No asset matches.')).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search assets' }).fill('castle');
  await expect(table.locator('tbody tr td:nth-child(2)').first()).toContainText(/castle/i);
  await expect(status).not.toHaveText(/^0 shown/);
  await screenshot(page, 'vendor-search');
});

test('vendor staff filter the catalog by category', async ({ page }) => {
  await openApp(page, 'Catalog');
  const table = page.getByRole('table', { name: 'Assets' });
  const category = page.getByRole('combobox', { name: 'Category' });
  // The categories endpoint feeds the filter, with counts.
  await expect(category.locator('option', { hasText: /^Audio \([\d,]+\)$/ })).toHaveCount(1);
  const label = await category.locator('option', { hasText: /^Audio / }).innerText();
  await category.selectOption({ label });

  await expect(page.getByText(/shown of [\d,]+ matches/)).toBeVisible();
  const matches = numberIn((await page.getByText(/shown of [\d,]+ matches/).innerText()).split('of')[1] ?? '');
  expect(matches).toBe(numberIn(label.split('(')[1] ?? ''));
  const categories = await table.locator('tbody tr td:nth-child(3)').allInnerTexts();
  expect(categories.length).toBeGreaterThan(0);
  expect(new Set(categories)).toEqual(new Set(['Audio']));
  await screenshot(page, 'vendor-filter');

  await category.selectOption({ index: 0 });
  await expect(page.getByRole('button', { name: 'Next page' })).toBeVisible();
});
