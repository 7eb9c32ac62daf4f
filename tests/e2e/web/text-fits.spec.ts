/**
 * Texts that were cut at the edge of their box, at 1024x700 and 1440x900: the Usage heat map's row labels
 * ("ET /purchase/download-url", "POST" missing its P at 1440) and the Requests search's placeholder ("…id, refer").
 * Measured with the page's own fonts: an SVG label's box starts inside its drawing, a placeholder's width fits its field.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import type { Page } from '@playwright/test';
import { LocalStore } from '../../../electron/store';
import { syntheticAggregate } from '../../../electron/usage/synthetic-usage';
import { timerClock } from '../../../shared/clock';
import { ENDPOINT_IDS, ENDPOINTS } from '../../../shared/endpoints';
import { startBrowserMode } from '../browser-mode';
import type { BrowserMode } from '../browser-mode';
import { openApp, screenshot } from './helpers';

const MINUTE = 60_000;
const SIZES = [
  { width: 1024, height: 700 },
  { width: 1440, height: 900 },
] as const;

const dataDir = mkdtempSync(join(tmpdir(), 'partner-console-fits-'));
let server: BrowserMode | null = null;
test.afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Every endpoint busy for an hour, 26 h ago: yesterday's (or today's) report has a row for each. */
function seedEveryEndpoint(): void {
  const local = new LocalStore(dataDir);
  const usage = local.openUsage({ clock: timerClock })!;
  const from = Math.floor((Date.now() - 26 * 60 * MINUTE) / MINUTE) * MINUTE;
  for (let t = from; t < from + 60 * MINUTE; t += MINUTE) {
    for (const endpoint of ENDPOINT_IDS)
      usage.recordAggregate({ profileId: 'demo', vendor: 'demo', endpoint }, t, syntheticAggregate(ENDPOINTS[endpoint], 60, { share: 0.6 }));
  }
  usage.downsample(Date.now());
  local.close();
}

/** Heat map row labels whose drawn box starts left of the drawing (cut), with how far. Page code as a string: no DOM types here. */
const CUT_LABELS = `[...document.querySelectorAll('.heatmap svg g[data-endpoint] > text')]
  .map((t) => ({ label: t.textContent, x: Math.round(t.getBBox().x) }))
  .filter((l) => l.x < 0)`;

/** The search field's placeholder as its font draws it, and the room the field gives it. */
const PLACEHOLDER = `(() => {
  const input = document.querySelector('input.log-search');
  const style = getComputedStyle(input);
  const context = document.createElement('canvas').getContext('2d');
  context.font = style.fontStyle + ' ' + style.fontWeight + ' ' + style.fontSize + ' ' + style.fontFamily;
  const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return { text: input.placeholder, width: Math.ceil(context.measureText(input.placeholder).width), room };
})()`;

async function openView(page: Page, name: 'Usage' | 'Requests'): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
}

test('heat map row labels and the request search placeholder are whole at 1024x700 and 1440x900', async ({ page }) => {
  test.setTimeout(120_000);
  seedEveryEndpoint();
  server = await startBrowserMode([], { dataDir });
  await openApp(page, 'Budget', server.url);
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await openView(page, 'Usage');
    await expect(page.locator('.heatmap svg g[data-endpoint]')).toHaveCount(ENDPOINT_IDS.length);
    expect(await page.evaluate(CUT_LABELS)).toEqual([]);
    await page.locator('.heatmap').scrollIntoViewIfNeeded();
    await screenshot(page, `fits-usage-heatmap-${size.width}`);

    await openView(page, 'Requests');
    await expect(page.getByRole('searchbox', { name: 'Search requests' })).toBeVisible();
    const placeholder = (await page.evaluate(PLACEHOLDER)) as { text: string; width: number; room: number };
    expect(placeholder.text).toMatch(/reference/);
    expect(placeholder.width, `"${placeholder.text}" in ${placeholder.room} px`).toBeLessThanOrEqual(placeholder.room);
    await screenshot(page, `fits-requests-${size.width}`);
  }
});
