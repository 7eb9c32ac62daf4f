/** Vendor staff search the catalog and filter it by category. */
import { expect, test } from './fixtures';
import { bridgeCall, numberIn, openApp, screenshot } from './helpers';

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

test('search results are paged, say where each hit matched, and sort by a column', async ({ page }) => {
  await bridgeCall('saveSettings', { pageSize: 20 });
  await openApp(page, 'Catalog');
  const table = page.getByRole('table', { name: 'Assets' });
  const rows = table.locator('tbody tr');
  await expect(rows.first()).toBeVisible();
  // A word of the titles: more than one page of matches.
  await page.getByRole('searchbox', { name: 'Search assets' }).fill('castle');
  const status = page.getByText(/shown of [\d,]+ matches/);
  await expect(status).toHaveText(/^1–20 shown of/);
  const firstPageIds = await rows.locator('td[data-col="id"]').allInnerTexts();
  await page.getByRole('button', { name: 'Next matches' }).click();
  await expect(status).toHaveText(/^21–40 shown of/);
  const secondPageIds = await rows.locator('td[data-col="id"]').allInnerTexts();
  expect(secondPageIds.some((id) => firstPageIds.includes(id))).toBe(false);
  await page.getByRole('button', { name: 'Previous matches' }).click();
  await expect(status).toHaveText(/^1–20 shown of/);

  // Every hit has the words in its title: no "Matched in" column to read.
  await expect(table.locator('th[data-col="matched"]')).toHaveCount(0);

  // A tag the table does not show: every row says the match is in its tags.
  await page.getByRole('searchbox', { name: 'Search assets' }).fill('medieval');
  await expect(status).toHaveText(/^1–20 shown of/);
  await expect(rows.locator('td[data-col="matched"]').first()).toHaveText(/^tags: medieval/);
  const matched = await rows.locator('td[data-col="matched"]').allInnerTexts();
  expect(matched.length).toBe(20);
  for (const m of matched) expect(m).toMatch(/^tags: medieval/);
  for (const title of await rows.locator('td[data-col="title"]').allInnerTexts()) expect(title.toLowerCase()).not.toContain('medieval');

  // Sorting by price orders the rows shown, one way then the other (figures start with the largest).
  const prices = async () => (await rows.locator('td[data-col="price"]').allInnerTexts()).map(numberIn);
  const ordered = async (dir: 'ascending' | 'descending') => {
    const p = await prices();
    return p.every((v, i) => i === 0 || (dir === 'ascending' ? v >= p[i - 1]! : v <= p[i - 1]!));
  };
  const header = table.locator('th[data-col="price"]');
  await table.getByRole('button', { name: /^Price/ }).click();
  await expect(header).toHaveAttribute('aria-sort', /ascending|descending/);
  const first = (await header.getAttribute('aria-sort')) as 'ascending' | 'descending';
  await expect.poll(() => ordered(first)).toBe(true);
  await table.getByRole('button', { name: /^Price/ }).click();
  const second = first === 'ascending' ? 'descending' : 'ascending';
  await expect(header).toHaveAttribute('aria-sort', second);
  await expect.poll(() => ordered(second)).toBe(true);
  await screenshot(page, 'vendor-search-paged');
  // Back to the service's order for the other specs (sorting is remembered per view).
  await table.getByRole('button', { name: /^Price/ }).click();
  await expect(header).not.toHaveAttribute('aria-sort', /./);
});
