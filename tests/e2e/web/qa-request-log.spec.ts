/** QA find a request in the log and read its headers (tokens masked). */
import { expect, test } from '@playwright/test';
import { openApp, screenshot } from './helpers';

test('QA find a catalog request in the log and read its headers', async ({ page }) => {
  // Browsing the catalog sends requests that the log records.
  await openApp(page, 'Catalog');
  await expect(page.getByRole('table', { name: 'Assets' }).locator('tbody tr').first()).toBeVisible();
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page.getByText(/^Page 2 ·/)).toBeVisible();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Requests' }).click();
  await page.getByRole('combobox', { name: 'Filter by endpoint' }).selectOption({ label: 'GET /assets/list' });
  await page.getByRole('combobox', { name: 'Filter by status' }).selectOption({ label: '2xx success' });
  const log = page.getByRole('table', { name: 'Request log' });
  const rows = log.locator('tbody tr[data-row-id]');
  await expect(rows.first()).toBeVisible();
  // The endpoint column shows the path with its query string (the page asked for).
  const endpoints = await rows.locator('td:nth-child(3)').allInnerTexts();
  for (const text of endpoints) expect(text).toMatch(/^GET\s+\/assets\/list(\?.*)?$/);
  expect(endpoints.some((text) => text.includes('?'))).toBe(true);
  await expect(rows.first().locator('td').nth(3)).toHaveText('200');

  await rows.first().click();
  const detail = page.getByRole('complementary', { name: 'Request detail' });
  await expect(detail.getByRole('heading', { name: /GET \/assets\/list/ })).toBeVisible();
  const response = detail.getByRole('table', { name: 'Response headers' });
  await expect(response.getByRole('row', { name: /x-rate-limit-limit\s+20/i })).toBeVisible();
  await expect(response.getByRole('row', { name: /x-rate-limit-remaining/i })).toBeVisible();
  await expect(response.getByRole('row', { name: /x-rate-limit-reset/i })).toBeVisible();
  const request = detail.getByRole('table', { name: 'Request headers' });
  await expect(request).toBeVisible();
  // The token never reaches the page in full.
  await expect(detail).not.toContainText('demo-token-1');
  await expect(detail.getByLabel('Response body')).toContainText('items');
  await screenshot(page, 'qa-request-log');
});
