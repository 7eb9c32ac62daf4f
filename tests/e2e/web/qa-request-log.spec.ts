/** QA find a request in the log and read its headers (tokens masked); the search finds a registration by the reference in its body. */
import { execFileSync } from 'node:child_process';
import { expect, test } from './fixtures';
import { bridgeCall, openApp, screenshot, webUrl } from './helpers';

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

  // A registration's client reference is only in its request body: the search (run in main) finds the row.
  const far = (await bridgeCall('listAssets', { profileId: 'demo', lastId: null, pageSize: 100 })).items[97]!; // no other spec buys it
  const registered = await bridgeCall('registerPurchase', { profileId: 'demo', assetId: far.id, assetTitle: null });
  try {
    const { reference } = (await bridgeCall('ledgerList', { limit: 50 })).items.find((r) => r.purchaseId === registered.id)!;
    await page.getByRole('combobox', { name: 'Filter by endpoint' }).selectOption({ label: 'All endpoints' });
    await page.getByRole('searchbox', { name: 'Search requests' }).fill(reference!);
    await expect(rows).toHaveCount(1);
    await expect(rows.first().locator('td:nth-child(3)')).toHaveText(/^POST\s+\/purchase\/register$/);
    await rows.first().click();
    await expect(detail.getByLabel('Request body')).toContainText(reference!);
    await screenshot(page, 'qa-request-log-search-body');

    // Copy as curl gives a command that runs: the token as "$PARTNER_TOKEN" (browser mode has no Copy with token).
    await expect(detail.getByRole('button', { name: /Copy with token/ })).toHaveCount(0);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(webUrl()).origin });
    await detail.getByRole('button', { name: 'Copy as curl' }).click();
    await expect(detail.getByRole('status').filter({ hasText: 'Set PARTNER_TOKEN' })).toBeVisible();
    await screenshot(page, 'qa-request-log-copy-curl');
    const command = String(await page.evaluate('navigator.clipboard.readText()'));
    expect(command).toContain(`'authorization: Bearer '"$PARTNER_TOKEN"`);
    expect(command).not.toContain('demo…');
    // Run once against the simulator (a purchase info read: nothing is bought twice).
    const info = await bridgeCall('purchaseInfo', { profileId: 'demo', purchaseId: registered.id });
    expect(info.id).toBe(registered.id);
    await page.getByRole('searchbox', { name: 'Search requests' }).fill(`purchase_id=${registered.id}`);
    await rows.first().click();
    await expect(detail.getByRole('heading', { name: /GET \/purchase\/info/ })).toBeVisible();
    await detail.getByRole('button', { name: 'Copy as curl' }).click();
    const read = String(await page.evaluate('navigator.clipboard.readText()'));
    expect(read).toMatch(/^curl --globoff --path-as-is '[^']*\/purchase\/info\?/);
    const status = execFileSync('/bin/sh', ['-c', `${read} --silent --output /dev/null --write-out '%{http_code}'`], {
      env: { PATH: '/usr/bin:/bin', PARTNER_TOKEN: 'demo-token-1' },
    });
    expect(String(status)).toBe('200');
  } finally {
    await bridgeCall('cancelPurchase', { profileId: 'demo', purchaseId: registered.id });
  }
});

test('the search says what it looks in; a catalog body that ages out is said to, a registration stays found for the whole log', async ({ page }) => {
  test.setTimeout(120_000);
  await openApp(page, 'Requests');
  const scope = page.locator('.log-search-scope');
  await expect(scope).toHaveText(
    /path, query, status and vendor of every kept request; bodies only of the newest 1,000 requests, and of purchase calls \(register, info, validate, cancel\)/,
  );
  // A registration (its reference only in the request body), then a catalog search whose word is only in its request body.
  const far = (await bridgeCall('listAssets', { profileId: 'demo', lastId: null, pageSize: 100 })).items[96]!;
  const registered = await bridgeCall('registerPurchase', { profileId: 'demo', assetId: far.id, assetTitle: null });
  const word = `qaaged${Date.now()}`;
  await bridgeCall('searchAssets', { profileId: 'demo', query: word, category: null, limit: 5 });
  const rows = page.getByRole('table', { name: 'Request log' }).locator('tbody tr[data-row-id]');
  const box = page.getByRole('searchbox', { name: 'Search requests' });
  try {
    const { reference } = (await bridgeCall('ledgerList', { limit: 50 })).items.find((r) => r.purchaseId === registered.id)!;
    await box.fill(word);
    await expect(rows).toHaveCount(1);
    await expect(scope).toContainText(/Bodies searched now: [\d,]+ of [\d,]+\./);
    // Catalog traffic only (no purchase call), over 1,000 requests: the search's body leaves main's window.
    await bridgeCall('simSetDemoTraffic', { share: 1, endpoints: ['listAssets', 'searchAssets', 'categories', 'assetHistory'] });
    const aged = page.getByRole('status').filter({ hasText: /^1 earlier match is no longer listed: its bodies aged out of the newest 1,000 requests/ });
    await expect(aged).toBeVisible({ timeout: 60_000 });
    await expect(rows).toHaveCount(0);
    await screenshot(page, 'qa-request-log-search-aged');
    // The registration is older still, and found by its reference: purchase calls keep their small bodies.
    await box.fill(reference!);
    await expect(rows).toHaveCount(1);
    await expect(rows.first().locator('td:nth-child(3)')).toHaveText(/^POST\s+\/purchase\/register$/);
    await expect(aged).toHaveCount(0);
  } finally {
    await bridgeCall('simSetDemoTraffic', { share: 0, endpoints: [] });
    await bridgeCall('cancelPurchase', { profileId: 'demo', purchaseId: registered.id });
  }
});
