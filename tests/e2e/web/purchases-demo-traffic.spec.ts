/**
 * Demo traffic registers purchases (tens a second) through the client, never through the ledger: the
 * Purchases view's empty ledger says so while it runs on the built-in demo, and nothing else changes.
 * Its own browser mode on a fresh data folder: the worker's server may hold other specs' purchases.
 */
import { expect, test } from './fixtures';
import { startBrowserMode } from '../browser-mode';
import type { BrowserMode } from '../browser-mode';
import { bridgeCall, openApp, screenshot } from './helpers';

let server: BrowserMode | null = null;
test.afterAll(async () => {
  await server?.stop();
});

test("the empty ledger says demo traffic's purchases are not recorded there, while demo traffic runs", async ({ page }) => {
  test.setTimeout(90_000);
  server = await startBrowserMode([]);
  await openApp(page, 'Purchases', server.url);
  const empty = page.getByText('No purchases yet.');
  const note = page.getByRole('note').filter({
    hasText: 'Demo traffic’s purchases are not recorded here: it registers them as test load, outside the ledger. Purchases you register appear here.',
  });
  await expect(empty).toBeVisible();
  await expect(note).toHaveCount(0);

  await bridgeCall('simSetDemoTraffic', { share: 0.5, endpoints: ['registerPurchase', 'purchaseInfo'] }, server.url);
  try {
    await expect(note).toBeVisible({ timeout: 10_000 });
    // Registrations go on beside it, and the ledger stays as it was: no behaviour changed.
    await expect
      .poll(async () => (await bridgeCall('requestLog', { endpoint: 'registerPurchase', status: null, limit: 5 }, server!.url)).entries.length)
      .toBeGreaterThan(0);
    expect((await bridgeCall('ledgerList', { limit: 5 }, server.url)).items).toEqual([]);
    await expect(empty).toBeVisible();
    for (const [width, height] of [
      [1440, 900],
      [1024, 700],
    ] as const) {
      await page.setViewportSize({ width, height });
      await screenshot(page, `purchases-demo-traffic-${width}`);
    }
  } finally {
    await bridgeCall('simSetDemoTraffic', { share: 0, endpoints: [] }, server.url);
  }
  await expect(note).toHaveCount(0, { timeout: 10_000 });
});
