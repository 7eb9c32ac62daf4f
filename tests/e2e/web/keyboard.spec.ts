/**
 * Keyboard and resilience, as a power user meets them: shortcuts and their `?` list, table rows by
 * arrow keys, preferences remembered per view, a malformed link and a view whose code cannot load.
 */
import { expect, test } from './fixtures';
import { openApp, screenshot } from './helpers';

test('shortcuts: ? lists them, digits and g+letter open views, / searches, space pauses, ] widens the range', async ({ page }) => {
  await openApp(page);
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  await expect(help.getByRole('row', { name: /Open Requests/ })).toBeVisible();
  await screenshot(page, 'keyboard-help');
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();

  // Right after a dialog closes its Close button still holds focus until the browser's focus fixup: a digit pressed
  // then is a shortcut, not a key for the closed dialog (sent from there at once here; by chance, 1 run in 15 before).
  await page.evaluate(
    `document.querySelector('dialog.shortcuts button').dispatchEvent(new KeyboardEvent('keydown', { key: '3', bubbles: true, cancelable: true }))`,
  );
  await expect(page.getByRole('heading', { level: 1, name: 'Catalog' })).toBeVisible();
  await page.keyboard.press('5');
  await expect(page.getByRole('heading', { level: 1, name: 'Requests' })).toBeVisible();
  await page.keyboard.press('/');
  await expect(page.getByRole('searchbox', { name: 'Search requests' })).toBeFocused();
  await page.keyboard.type('assets');
  await page.evaluate('document.activeElement && document.activeElement.blur()'); // leave the field: keys are shortcuts again
  await page.keyboard.press(' ');
  await expect(page.getByRole('button', { name: 'Paused' })).toBeVisible();
  await page.keyboard.press(' ');
  await expect(page.getByRole('button', { name: 'Live' })).toBeVisible();

  const ranges = page.getByRole('group', { name: 'Time range' });
  await expect(ranges.getByRole('button', { name: 'All kept' })).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press(']');
  await expect(ranges.getByRole('button', { name: '10 s' })).toHaveAttribute('aria-pressed', 'true');
  // Remembered per view: a reload keeps the range (and resets it for the next spec).
  await page.reload();
  await expect(page.getByRole('group', { name: 'Time range' }).getByRole('button', { name: '10 s' })).toHaveAttribute('aria-pressed', 'true', {
    timeout: 20_000,
  });
  await page.keyboard.press('[');
  await expect(page.getByRole('group', { name: 'Time range' }).getByRole('button', { name: 'All kept' })).toHaveAttribute('aria-pressed', 'true');

  await page.keyboard.press('g');
  await page.keyboard.press('b');
  await expect(page.getByRole('heading', { level: 1, name: 'Budget' })).toBeVisible();
});

test('table rows by keyboard: arrows move, Enter opens the detail of the row reached', async ({ page }) => {
  await openApp(page, 'Catalog'); // browsing fills the request log
  await expect(page.getByRole('table', { name: 'Assets' }).locator('tbody tr').first()).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Requests' }).click();
  const rows = page.getByRole('table', { name: 'Request log' }).locator('tbody tr[data-row-id]');
  await expect(rows.nth(1)).toBeVisible();
  await page.getByRole('button', { name: 'Live' }).click(); // hold the list still while we move
  await expect(page.getByRole('button', { name: 'Paused' })).toBeVisible();
  // Read once the list is held: a live row arriving between the read and the pause would shift the second row.
  const second = await rows.nth(1).getAttribute('data-row-id');
  await rows.first().focus();
  await page.keyboard.press('ArrowDown');
  await expect(rows.nth(1)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('complementary', { name: 'Request detail' }).getByText(`Request #${second}`)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('complementary', { name: 'Request detail' })).toHaveCount(0);
});

test('a malformed link shows the view with the navigation, never a blank page', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await openApp(page);
  await page.evaluate("window.location.hash = '#/catalog/%E0%A4%A'");
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Catalog' })).toBeVisible();
  expect(errors.filter((m) => /URI malformed/i.test(m))).toEqual([]);
});

test('a view whose code cannot be fetched says so, keeps the navigation, and loads on "Try again"', async ({ page }) => {
  await openApp(page);
  // As when the service went away before this view was first opened: its chunk does not arrive.
  await page.route(/PurchasesView-[\w-]+\.js$/, (route) => route.abort('connectionrefused'));
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Purchases' }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'Purchases could not be loaded.' });
  await expect(alert).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await screenshot(page, 'view-not-loaded');
  await page.unroute(/PurchasesView-[\w-]+\.js$/);
  await alert.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Purchases' })).toBeVisible();
});

test('the request log sorts by a column, and the sort is remembered for the view', async ({ page }) => {
  await openApp(page, 'Catalog'); // browsing fills the request log
  await expect(page.getByRole('table', { name: 'Assets' }).locator('tbody tr').first()).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Requests' }).click();
  const log = page.getByRole('table', { name: 'Request log' });
  await expect(log.locator('tbody tr[data-row-id]').nth(2)).toBeVisible();
  await page.getByRole('button', { name: 'Live' }).click();
  const header = log.getByRole('columnheader', { name: /Latency/ });
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', /ascending|descending/);
  const direction = await header.getAttribute('aria-sort');
  const ms = (await log.locator('tbody tr[data-row-id] td[data-col="latency"]').allInnerTexts()).map((t) =>
    t.endsWith(' s') ? parseFloat(t) * 1000 : parseFloat(t),
  );
  const sorted = [...ms].sort((a, b) => (direction === 'ascending' ? a - b : b - a));
  expect(ms).toEqual(sorted);
  await page.reload();
  await expect(page.getByRole('table', { name: 'Request log' }).getByRole('columnheader', { name: /Latency/ })).toHaveAttribute('aria-sort', direction!, {
    timeout: 20_000,
  });
});
