/**
 * Payload dialects in browser mode.
 *
 * 1. The simulator panel switches the built-in demo's dialect.
 * 2. For each dialect the app was NOT configured for: a simulator speaking it on loopback, browser
 *    mode started against it with nothing but `--base-url URL --token VENDOR:TOKEN`. No click in
 *    Settings: the map detected at first contact is in use and shown as detected, not yet reviewed;
 *    the user stories pass with it: browse pages, search, category filter, asset detail with its
 *    price chart, register -> validate -> download URL -> cancel, and the budget and request log
 *    showing the traffic. Last, the one-click review keeps the map as the user's saved map.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import type { Page } from '@playwright/test';
import { DEFAULT_RENDERER_DIR } from '../../../electron/web/server';
import { startSimulator } from '../../../electron/simulator';
import type { RunningSimulator, SimDialect } from '../../../electron/simulator';
import { startBrowserMode } from '../browser-mode';
import type { BrowserMode } from '../browser-mode';
import { bridgeCall, numberIn, openApp, screenshot } from './helpers';

test.describe('simulator panel', () => {
  test.afterEach(async () => {
    if (await bridgeCall('simState', {})) await bridgeCall('simSetDialect', { dialect: 'default' });
  });

  test('the payload dialect selector switches the demo simulator', async ({ page }) => {
    const sim = await bridgeCall('simState', {});
    test.skip(sim === null, 'needs the embedded simulator');
    await openApp(page, 'Settings');
    const select = page.getByRole('combobox', { name: 'Payload dialect' });
    await expect(select).toHaveValue('default');
    await select.selectOption('snake-envelope');
    await expect(select).toHaveValue('snake-envelope');
    expect((await bridgeCall('simState', {}))!.dialect).toBe('snake-envelope');
    const page1 = await fetch(`${sim!.url}/assets/list?page_size=1`, { headers: { Authorization: 'Bearer demo-token-1' } });
    expect(((await page1.json()) as { status: string }).status).toBe('ok');
    await select.scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-sim-dialect');
  });
});

const VENDOR = 'northwind';
const TOKEN = 'northwind-token-1';
const DIALECTS: SimDialect[] = ['jsonapi', 'camel-minor', 'snake-envelope'];

function nav(page: Page, view: string) {
  return page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: view, exact: true }).click();
}

interface Service {
  sim: RunningSimulator;
  web: BrowserMode;
}

/** A simulator speaking `dialect` and browser mode started against it with nothing but its URL and a token. */
async function startService(dialect: SimDialect, rendererDir: string): Promise<Service> {
  const sim = await startSimulator({ dialect, catalogSize: 400, seed: 7, tokens: [{ vendor: VENDOR, token: TOKEN }] });
  let web: BrowserMode | undefined;
  try {
    web = await startBrowserMode(['--no-simulator', '--renderer-dir', rendererDir, '--base-url', sim.url, '--token', `${VENDOR}:${TOKEN}`]);
    await bridgeCall('saveSettings', { pageSize: 20 }, web.url);
    return { sim, web };
  } catch (e) {
    await web?.stop();
    await sim.stop();
    throw e;
  }
}

/**
 * The three services start side by side when the first is needed, before its test (one after another, each
 * browser mode's start was ~2 s of the spec); each is stopped after its tests, any left at the end of the file.
 */
let rendererDir: string | undefined;
const services = new Map<SimDialect, Promise<Service>>();
async function service(dialect: SimDialect): Promise<Service> {
  if (rendererDir === undefined) {
    // A copy of the build, so that a rebuild while the spec runs cannot take the views' chunks away.
    rendererDir = mkdtempSync(join(tmpdir(), 'dialects-renderer-'));
    cpSync(DEFAULT_RENDERER_DIR, rendererDir, { recursive: true });
    for (const d of DIALECTS) {
      const started = startService(d, rendererDir);
      started.catch(() => {}); // reported by the tests that await it
      services.set(d, started);
    }
    // All started before any test runs: no start competes with a test for the CPU.
    await Promise.allSettled(services.values());
  }
  const started = services.get(dialect);
  if (!started) throw new Error(`the ${dialect} service was stopped`);
  return started;
}

async function stopService(dialect: SimDialect): Promise<void> {
  const started = services.get(dialect);
  services.delete(dialect);
  const running = await started?.catch(() => null);
  await running?.web.stop();
  await running?.sim.stop();
}

test.afterAll(async () => {
  for (const d of DIALECTS) await stopService(d);
  if (rendererDir) rmSync(rendererDir, { recursive: true, force: true });
});

for (const dialect of DIALECTS) {
  test.describe(`a service speaking ${dialect}`, () => {
    test.describe.configure({ timeout: 150_000 });
    let web: BrowserMode;

    test.beforeAll(async () => {
      ({ web } = await service(dialect));
    });

    test.afterAll(async () => {
      await stopService(dialect);
    });

    test('detected at first contact with no click: browse, search, filter, asset history, purchase flow, budget and request log; then the one-click review', async ({
      page,
    }) => {
      // No Detect, no Accept: the profile's map was detected when it first connected, and says so.
      await openApp(page, 'Settings', web.url);
      await expect(page.getByText('map detected, not yet reviewed', { exact: true })).toBeVisible({ timeout: 20_000 });
      await screenshot(page, `dialect-${dialect}-detected`);

      await nav(page, 'Catalog');
      await expect(page.getByRole('heading', { level: 1, name: 'Catalog' })).toBeVisible();
      const table = page.getByRole('table', { name: 'Assets' });
      const rows = table.locator('tbody tr');
      const idAt = (i: number) => rows.nth(i).locator('td').first().innerText();

      // Browse: pages of the size asked for, by cursor, no verification warning.
      await expect(rows).toHaveCount(20);
      const page1Last = numberIn(await idAt(19));
      await page.getByRole('button', { name: 'Next page' }).click();
      await expect(page.getByText(/^Page 2 · items 21–40/)).toBeVisible();
      await expect(rows).toHaveCount(20);
      // The rows follow the page's label once its answer is in (until then the page before stays shown).
      await expect.poll(async () => numberIn(await idAt(0))).toBeGreaterThan(page1Last);
      await page.getByRole('combobox', { name: 'Page size' }).selectOption('50');
      await expect(rows).toHaveCount(50);
      await expect(page.getByText(/^Page 1 · items 1–50/)).toBeVisible();
      await expect(page.getByText(/page.size parameter/i)).toHaveCount(0);
      // Prices are read (not "—").
      await expect(table.locator('tbody tr td:nth-child(4)').first()).toHaveText(/\d+\.\d\d/);
      await screenshot(page, `dialect-${dialect}-browse`);

      // Search by a word of the titles.
      await page.getByRole('searchbox', { name: 'Search assets' }).fill('castle');
      await expect(page.getByText(/shown of [\d,]+ matches/)).toBeVisible();
      const titles = await table.locator('tbody tr td:nth-child(2)').allInnerTexts();
      expect(titles.length).toBeGreaterThan(0);
      for (const title of titles) expect(title.toLowerCase()).toContain('castle');
      await page.getByRole('searchbox', { name: 'Search assets' }).fill('');

      // Category filter: the count the categories endpoint gave, every row in the category.
      const category = page.getByRole('combobox', { name: 'Category' });
      await expect(category.locator('option', { hasText: /^Audio \([\d,]+\)$/ })).toHaveCount(1);
      const label = await category.locator('option', { hasText: /^Audio / }).innerText();
      await category.selectOption({ label });
      const status = page.getByText(/shown of [\d,]+ matches/);
      await expect(status).toBeVisible();
      expect(numberIn((await status.innerText()).split('of')[1] ?? '')).toBe(numberIn(label.split('(')[1] ?? ''));
      await expect.poll(async () => new Set(await table.locator('tbody tr td:nth-child(3)').allInnerTexts())).toEqual(new Set(['Audio']));
      await expect(page.getByText(/category (filter|parameter)/i)).toHaveCount(0);
      await screenshot(page, `dialect-${dialect}-filter`);
      await category.selectOption({ index: 0 });
      await expect(page.getByRole('button', { name: 'Next page' })).toBeVisible();

      // Asset detail with its price history chart: an asset with at least two prices.
      const profileId = (await bridgeCall('connection', {}, web.url)).profileId!;
      const first = await bridgeCall('listAssets', { profileId, lastId: null, pageSize: 20 }, web.url);
      let index = -1;
      for (const [i, asset] of first.items.entries()) {
        const history = await bridgeCall('assetHistory', { profileId, assetId: asset.id }, web.url);
        if (history.items.filter((e) => typeof e.price === 'number').length >= 2) {
          index = i;
          break;
        }
      }
      expect(index).toBeGreaterThanOrEqual(0);
      await page.getByRole('combobox', { name: 'Page size' }).selectOption('20');
      await expect(rows).toHaveCount(20);
      const row = rows.nth(index);
      const id = await row.locator('td').first().innerText();
      await row.click();
      const detail = page.getByRole('complementary', { name: `Asset ${id}` });
      const history = detail.getByRole('table', { name: 'Asset history' });
      await expect(history.locator('tbody tr').first()).toBeVisible();
      expect(await history.locator('tbody tr').count()).toBeGreaterThanOrEqual(2);
      await expect(detail.getByRole('img', { name: /Price history/ })).toBeVisible();
      await screenshot(page, `dialect-${dialect}-asset`);

      // Purchase flow: register -> validate -> download URL -> cancel, each state read.
      const button = (name: string) => detail.getByRole('button', { name, exact: true });
      await expect(button('Register purchase')).toBeEnabled();
      await button('Register purchase').click();
      await page.getByRole('dialog', { name: 'Register a purchase?' }).getByRole('button', { name: 'Register purchase' }).click();
      const registered = detail.getByText(/^Registered: \S+/);
      await expect(registered).toBeVisible();
      await expect(detail.getByText(/id not readable/)).toHaveCount(0);
      const purchaseId = /^Registered:\s*(\S+)/.exec(await registered.innerText())?.[1] ?? '';
      // A second Register asks again, naming the purchase the service holds.
      await button('Register purchase').click();
      const again = page.getByRole('dialog', { name: 'Register this asset again?' });
      await expect(again).toContainText(purchaseId);
      await again.getByRole('button', { name: 'Cancel', exact: true }).click();
      await expect(button('Validate before payment')).toBeEnabled();
      await button('Validate before payment').click();
      await expect(detail.getByText(/^Validated:/)).toContainText(purchaseId);
      await expect(button('Get download URL')).toBeEnabled();
      await button('Get download URL').click();
      await expect(detail.getByRole('textbox', { name: 'Download URL' })).toHaveValue(/^https:\/\//);
      await expect(detail.getByText(/· expires /)).toBeVisible();
      await screenshot(page, `dialect-${dialect}-purchase`);
      await button('Cancel purchase').click();
      await page.getByRole('dialog', { name: 'Cancel this purchase?' }).getByRole('button', { name: 'Cancel purchase' }).click();
      await expect(detail.getByText(/^Cancelled:/)).toContainText(purchaseId);
      await expect(button('Validate before payment')).toBeDisabled();
      await expect(button('Get download URL')).toBeDisabled();

      // Budget: the list endpoint's row shows the service's limit and what was used.
      await nav(page, 'Budget');
      const listRow = page.getByRole('table', { name: 'Endpoint budgets' }).locator('tr[data-endpoint="listAssets"]');
      await expect(listRow).toContainText('20');
      await expect(page.getByRole('table', { name: 'Endpoint budgets' }).locator('tr[data-endpoint="registerPurchase"]')).toBeVisible();

      // Request log: the catalog pages and the purchase calls, answered 200.
      await nav(page, 'Requests');
      await page.getByRole('combobox', { name: 'Filter by endpoint' }).selectOption({ label: 'DELETE /purchase/cancel' });
      const log = page.getByRole('table', { name: 'Request log' }).locator('tbody tr');
      await expect(log.first()).toBeVisible();
      await expect(log.first().locator('td').nth(3)).toHaveText('200');
      await page.getByRole('combobox', { name: 'Filter by endpoint' }).selectOption({ label: 'GET /assets/list' });
      await expect.poll(() => log.count()).toBeGreaterThanOrEqual(3);
      await screenshot(page, `dialect-${dialect}-requests`);

      // The one-click review: the map in use becomes the user's saved map.
      await nav(page, 'Settings');
      await page.getByRole('button', { name: 'Review', exact: true }).click();
      const panel = page.getByRole('region', { name: `Service map · ${VENDOR}` });
      await expect(panel.getByText('detected, not yet reviewed', { exact: true })).toBeVisible();
      await expect(panel.getByRole('status').filter({ hasText: 'Detected, not yet reviewed' })).toBeVisible();
      await screenshot(page, `dialect-${dialect}-review`);
      await panel.getByRole('button', { name: 'Reviewed: keep this map' }).click();
      await expect(panel.getByText('saved map', { exact: true })).toBeVisible();
      await expect(page.getByText('map detected, not yet reviewed', { exact: true })).toHaveCount(0);
    });
  });
}
