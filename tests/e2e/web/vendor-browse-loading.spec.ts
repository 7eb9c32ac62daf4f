/**
 * While the next page loads, the previous page's rows stay on screen (dimmed, busy) and the pager says it
 * is loading instead of naming items those rows are not. The demo only: a slow service is the simulator's latency.
 */
import { expect, test } from './fixtures';
import { openConsole } from '../pages/app';
import { bridgeCall, screenshot } from './helpers';

test.afterEach(async () => {
  await bridgeCall('simSetFaults', { latencyMs: 0, jitterMs: 0 });
  await bridgeCall('saveSettings', { pageSize: 20 });
});

test('while the next page loads the pager says so and names no items', async ({ page }) => {
  await bridgeCall('saveSettings', { pageSize: 20 });
  const catalog = await (await openConsole(page)).catalog.open();
  const { rows, nextPage: next } = catalog;
  await expect(rows).toHaveCount(20);
  await expect(catalog.position(1)).toBeVisible();
  const page1First = await catalog.idOf(rows.first());

  // Long enough for the checks below on a loaded machine.
  await bridgeCall('simSetFaults', { latencyMs: 3_000, jitterMs: 0 });
  await next.click();
  await expect(page.getByText('Loading page 2…')).toBeVisible();
  await expect(catalog.position(2)).toHaveCount(0);
  await expect(rows.first().locator('td').first()).toHaveText(page1First);
  await expect(page.locator('[aria-busy="true"]').filter({ has: page.getByRole('table', { name: 'Assets' }) })).toHaveCount(1);
  await screenshot(page, 'catalog-page-loading');

  await expect(page.getByText(/^Page 2 · items 21–40/)).toBeVisible({ timeout: 15_000 });
  expect(await catalog.idOf(rows.first())).not.toBe(page1First);
});
