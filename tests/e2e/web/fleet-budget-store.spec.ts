/**
 * A fleet's Redis budget store in browser mode (issue 10 §2, issue 12 §4): the spec starts its own
 * redis-server and browser mode with `--budget-store`; the header says the fleet shares the budget,
 * the Budget table's Fleet column counts the demo traffic's granted slots; Redis killed: "headers
 * only", no counts; Redis back: shared again. The profile form takes a store URL and shows it masked.
 */
import { expect, test } from './fixtures';
import type { Page } from '@playwright/test';
import { startBrowserMode } from '../browser-mode';
import type { BrowserMode } from '../browser-mode';
import { hasRedisServer, startRedisServer } from '../../helpers/redis-server';
import type { RedisServer } from '../../helpers/redis-server';
import { bridgeCall, openApp, screenshot, STATE_POLL } from './helpers';

let redis: RedisServer | null = null;
let server: BrowserMode | null = null;

test.afterAll(async () => {
  await server?.stop();
  await redis?.stop();
});

const badge = (page: Page) => page.getByRole('status', { name: /^Connection:/ });
const fleetCells = (page: Page) => page.getByRole('table', { name: 'Endpoint budgets' }).locator('td[data-col="fleet"]');

test('the fleet budget store: shared, counted beside our own rate, fallen back to headers, back again', async ({ page }) => {
  test.skip(!hasRedisServer(), 'redis-server is not installed (apt-get install redis-server)');
  test.setTimeout(180_000);
  redis = await startRedisServer();
  server = await startBrowserMode(['--budget-store', redis.url(0)]);
  await openApp(page, 'Budget', server.url);

  await expect(badge(page)).toContainText('Fleet budget: Redis', { timeout: 20_000 });
  const header = page.getByRole('columnheader', { name: /^Fleet\/s/ });
  await expect(header).toBeVisible();
  await expect(header).toHaveAttribute('title', /granted per second, every worker of the fleet counted/);
  // Demo traffic at half of /assets/list's 20/s reserves its slots in the store: the only worker, so
  // the fleet's granted/s is about our own Req/s.
  await bridgeCall('simSetDemoTraffic', { share: 0.5, endpoints: ['listAssets'] }, server.url);
  const listFleet = page.getByRole('table', { name: 'Endpoint budgets' }).locator('tr[data-endpoint="listAssets"] td[data-col="fleet"]');
  await expect.poll(async () => parseFloat((await listFleet.textContent()) ?? ''), { timeout: 30_000, intervals: STATE_POLL }).toBeGreaterThanOrEqual(5);
  expect(parseFloat((await listFleet.textContent()) ?? '')).toBeLessThanOrEqual(20);
  const use = await bridgeCall('fleetUse', { seconds: 10 }, server.url);
  expect(use.store).toMatchObject({ kind: 'redis', state: 'connected', url: `redis://127.0.0.1:${redis.port}/0` });
  expect(use.endpoints.some((e) => e.granted.some((n) => n > 0))).toBe(true);
  await screenshot(page, 'fleet-budget-store');
  // At the narrowest supported width the Fleet column stays beside Req/s (Limit and Held back drop first).
  await page.setViewportSize({ width: 1024, height: 700 });
  await expect(header).toBeVisible();
  await expect(page.getByRole('columnheader', { name: /^Req\/s/ })).toBeVisible();
  // The header's short words fit: nothing is pushed out of the window.
  await expect(badge(page).getByText('Fleet: Redis')).toBeVisible();
  expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1024);
  await screenshot(page, 'fleet-budget-store-1024');
  await page.setViewportSize({ width: 1440, height: 900 });

  await redis.stop();
  await expect(badge(page)).toContainText('Redis unreachable: headers only', { timeout: 20_000 });
  await expect.poll(async () => (await fleetCells(page).allTextContents()).every((t) => t === '—'), { timeout: 10_000, intervals: STATE_POLL }).toBe(true);
  await screenshot(page, 'fleet-budget-store-fallback');

  await redis.start();
  await expect(badge(page)).toContainText('Fleet budget: Redis', { timeout: 30_000 });
  await expect.poll(async () => parseFloat((await listFleet.textContent()) ?? ''), { timeout: 30_000, intervals: STATE_POLL }).toBeGreaterThanOrEqual(5);
  await bridgeCall('simSetDemoTraffic', { share: 0, endpoints: [] }, server.url);
});

test('the profile form takes a budget store URL, refuses a wrong one in words, and shows a password masked', async ({ page }) => {
  test.skip(server === null, "needs the first test's browser mode");
  const sim = await bridgeCall('simState', {}, server!.url);
  test.skip(sim === null, 'needs the embedded simulator');
  await openApp(page, 'Settings', server!.url);
  await page.getByRole('button', { name: 'Add profile' }).click();
  const form = page.getByRole('form', { name: 'New profile' });
  await form.getByRole('textbox', { name: /^Name/ }).fill('Fleet QA');
  await form.getByRole('textbox', { name: /^Vendor/ }).fill('acme');
  await form.getByRole('textbox', { name: /^Base URL/ }).fill(sim!.url);
  await form.getByLabel('New token 1').fill('acme-token-1');
  const store = form.getByRole('textbox', { name: 'Budget store (optional)' });
  await expect(store).toHaveAccessibleDescription(/shares its budget/);
  await store.fill('http://redis.internal:6379');
  await form.getByRole('button', { name: 'Save profile' }).click();
  await expect(form.getByText(/The budget store must be a redis:\/\/host:port\/db URL or "machine", not http:/)).toBeVisible();
  await expect(store).toHaveAttribute('aria-invalid', 'true');

  await store.fill('redis://ops:s3cret-pw@redis.internal:6379/2');
  await form.getByRole('button', { name: 'Save profile' }).click();
  const row = page.getByRole('list', { name: 'Vendor profiles' }).getByRole('listitem').filter({ hasText: 'Fleet QA' });
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: 'Edit' }).click();
  await expect(page.getByRole('textbox', { name: 'Budget store (optional)' })).toHaveValue('redis://***@redis.internal:6379/2');
  await expect(page.locator('body')).not.toContainText('s3cret-pw');
  await screenshot(page, 'fleet-budget-store-profile');
});
