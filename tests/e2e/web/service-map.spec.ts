/**
 * Service maps in the UI (issue 9 §1): answers that do not fit the map are shown as far as they can be
 * read, with the fields not found and the raw answer; the Service map panel detects, edits and saves
 * a map, after which the same answers read whole.
 */
import { expect, test } from './fixtures';
import type { Page } from '@playwright/test';
import { startSimulator } from '../../../electron/simulator';
import type { RunningSimulator } from '../../../electron/simulator';
import { bridgeCall, openApp, screenshot } from './helpers';

const NAME = 'Acme QA map (e2e)';

test.describe.configure({ timeout: 120_000 });

let own: RunningSimulator | null = null;

test.afterEach(async () => {
  await own?.stop();
  own = null;
  if (!(await bridgeCall('simState', {}).catch(() => null)) && !(await bridgeCall('listProfiles', {})).items.some((p) => p.demo)) return;
  await bridgeCall('selectProfile', { id: 'demo' });
  const { items } = await bridgeCall('listProfiles', {});
  for (const p of items) if (p.name.startsWith('Acme QA map')) await bridgeCall('removeProfile', { id: p.id });
  await bridgeCall('simSetDialect', { dialect: 'default' });
});

async function noSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth')).toBeLessThanOrEqual(0);
}

test('an answer the map does not fit shows what was read, what was not found, and the raw JSON', async ({ page }) => {
  const sim = await bridgeCall('simState', {});
  test.skip(sim === null, 'needs the embedded simulator');
  // The demo profile reads the default dialect; its simulator now speaks another.
  await bridgeCall('simSetDialect', { dialect: 'camel-minor' });
  await page.setViewportSize({ width: 1024, height: 700 });
  await openApp(page, 'Catalog');
  const notice = page.getByRole('status').filter({ hasText: 'Part of this page could not be read' });
  await expect(notice).toBeVisible();
  await expect(notice.getByText('asset.title', { exact: true })).toBeVisible();
  // What could be read is shown: ids, and the service's own fields as columns.
  const table = page.getByRole('table', { name: 'Assets' });
  await expect(table.locator('tbody tr').first().locator('td[data-col="id"]')).toHaveText(/\d+/);
  await expect(table.locator('th[data-col="field:name"]')).toBeVisible();

  // The raw answer, in the viewer: closed nodes open from the keyboard.
  await notice.getByText("The service's answer (raw JSON, tokens masked)").click();
  const viewer = notice.getByRole('group', { name: 'Raw answer: this page' });
  const items = viewer.getByRole('button', { name: /^items: \[/ });
  await expect(items).toHaveAttribute('aria-expanded', 'false');
  await items.focus();
  await page.keyboard.press('Enter');
  await expect(items).toHaveAttribute('aria-expanded', 'true');
  await expect(viewer.locator('.jv-toggle', { hasText: /^▸0: \{/ })).toBeVisible();
  await noSidewaysScroll(page);

  // The asset detail opens in view and lists the asset's other fields.
  await table.locator('tbody tr').nth(1).click();
  const detail = page.getByRole('complementary', { name: /^Asset / });
  await expect(detail).toBeInViewport();
  await expect(detail.locator('dt', { hasText: /^name$/i })).toBeVisible();
  await expect(detail.locator('dt', { hasText: /^priceCents$/i })).toBeVisible();
  await screenshot(page, 'catalog-tolerant-1024');
  await page.keyboard.press('Escape');

  // The notice links to the service map of the active profile.
  await notice.getByRole('link', { name: 'Open the service map in Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Service map · Built-in demo service' })).toBeVisible();
});

test('the service map panel detects a map, checks edits, and a saved map reads the answers whole', async ({ page }) => {
  // A service of its own (using a profile stops the demo's simulator), speaking another dialect.
  own = await startSimulator({ dialect: 'camel-minor', catalogSize: 300, seed: 3, tokens: [{ vendor: 'acme', token: 'acme-token-1' }] });
  const profile = await bridgeCall('saveProfile', { name: NAME, vendor: 'acme', baseUrl: own.url, addTokens: ['acme-token-1'] });
  await openApp(page, 'Settings');
  await page.getByRole('button', { name: `Service map of ${NAME}` }).click();
  const panel = page.getByRole('region', { name: `Service map · ${NAME}` });
  await expect(panel.getByText('default map')).toBeVisible();

  await panel.getByRole('button', { name: 'Detect' }).click();
  await expect(panel.getByText(/^Proposed map · confidence \d+%/)).toBeVisible({ timeout: 20_000 });
  await expect(panel.getByText(/[1-3] requests? spent/)).toBeVisible();
  // The proposal, field by field, with its confidence; and the preview of an asset read with it.
  const form = panel.locator('.map-form');
  await expect(form.getByRole('textbox', { name: /^Page-size parameter/ })).toHaveValue('limit');
  await expect(form.getByRole('textbox', { name: /^Title/ })).toHaveValue('name');
  await expect(form.locator('.map-conf').first()).toBeVisible();
  const preview = panel.getByRole('complementary', { name: 'Preview' });
  await expect(preview.locator('.kv-row', { hasText: /^price/i })).toContainText(/\$\d+\.\d\d/);
  await screenshot(page, 'settings-service-map');

  // JSON edits are checked by the map's schema and refused in words.
  await panel.getByRole('button', { name: 'JSON', exact: true }).click();
  const json = panel.getByRole('textbox', { name: /The map as JSON/ });
  const proposed = await json.inputValue();
  await json.fill(proposed.replace('"priceUnit": "minor"', '"priceUnit": "cents"'));
  const problems = panel.getByRole('alert').filter({ hasText: 'The map cannot be used as it is' });
  await expect(problems).toContainText('asset.priceUnit');
  await json.fill(proposed);
  await expect(problems).toHaveCount(0);

  await panel.getByRole('button', { name: 'Accept and save' }).click();
  await expect(panel.getByText('saved map')).toBeVisible();
  const saved = await bridgeCall('serviceMapGet', { profileId: profile.id });
  expect(saved.source).toBe('saved');
  expect(saved.map.asset.title).toBe('name');

  // Used: the catalog reads titles and prices, with no notice.
  await page.getByRole('listitem', { name: NAME }).getByRole('button', { name: 'Use' }).click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Catalog', exact: true }).click();
  const table = page.getByRole('table', { name: 'Assets' });
  await expect(table.locator('tbody tr').first().locator('td[data-col="title"]')).toHaveText(/\w+ \w+/);
  await expect(table.locator('tbody tr').first().locator('td[data-col="price"]')).toHaveText(/\$\d+\.\d\d/);
  await expect(page.getByText('Part of this page could not be read')).toHaveCount(0);
});
