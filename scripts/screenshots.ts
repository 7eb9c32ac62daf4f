/**
 * `npm run screenshots`: the views an account manager judges, as they look, in every size and theme we
 * support: Budget (live, its charts, and 6 h), Overview, Requests and the first run, at 1440x900 and 1024x700, light
 * and dark. Browser mode on a fresh data folder with six hours of seeded history, then the demo traffic
 * at full rate and another consumer at 8/s on /assets/categories. Writes screenshots/NAME-WxH-THEME.png.
 * Not a test: it asserts nothing beyond reaching each view; people look at the pictures.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from '@playwright/test';
import type { Page } from '@playwright/test';
import { startBrowserMode } from '../tests/e2e/browser-mode';
import { CHROMIUM_ARGS, chromiumExecutable } from '../tests/e2e/chromium-path';
import { seedRecentHours } from '../tests/e2e/seed-usage';
import { bridgeCall } from '../tests/e2e/web/helpers';

const OUT = resolve(process.argv[2] ?? 'screenshots');
const SIZES = [
  [1440, 900],
  [1024, 700],
] as const;
const THEMES = ['light', 'dark'] as const;
const BUSY = ['listAssets', 'searchAssets', 'categories', 'purchaseInfo'] as const;
/** Seconds of traffic before the live shots: the 60 s live charts are two-thirds full. */
const WARM_UP_S = 40;

async function go(page: Page, view: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: view, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: view }).waitFor();
}

/** Every size and theme of what the page shows now; `prepare` runs after each change (a redraw, a hover). */
async function shoot(page: Page, name: string, prepare: () => Promise<void> = async () => {}): Promise<void> {
  for (const theme of THEMES) {
    await page.emulateMedia({ colorScheme: theme });
    for (const [w, h] of SIZES) {
      await page.setViewportSize({ width: w, height: h });
      await page.evaluate('window.scrollTo(0, 0)');
      await page.waitForTimeout(600); // charts redraw at the new width
      await prepare();
      const file = join(OUT, `${name}-${w}x${h}-${theme}.png`);
      await page.screenshot({ path: file });
      console.log(file);
    }
  }
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const dataDir = mkdtempSync(join(tmpdir(), 'partner-console-shots-'));
  seedRecentHours(dataDir);
  const server = await startBrowserMode([], { dataDir });
  const browser = await chromium.launch({ executablePath: chromiumExecutable(), args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: SIZES[0][0], height: SIZES[0][1] } });
    await page.goto(server.url);
    await page.getByRole('status', { name: /^Connection: Connected/ }).waitFor({ timeout: 30_000 });
    await page.getByRole('heading', { level: 1, name: 'Budget' }).waitFor();
    await page.getByText('Start demo traffic').first().waitFor();
    await shoot(page, 'first-run');

    await bridgeCall('simSetDemoTraffic', { share: 1, endpoints: [...BUSY] }, server.url);
    await bridgeCall('simSetCompetitors', { competitors: [{ vendor: 'demo', endpoint: 'categories', rps: 8 }] }, server.url);
    console.log(`traffic on; waiting ${WARM_UP_S} s`);
    await page.waitForTimeout(WARM_UP_S * 1000);

    await shoot(page, 'budget-live');
    // The live panels themselves (below the table): ours and the others' stacked under each limit.
    await shoot(page, 'budget-live-charts', async () => {
      await page.getByRole('heading', { level: 2, name: 'Live charts' }).evaluate((e) => e.scrollIntoView({ block: 'start' }));
    });
    await go(page, 'Overview');
    const cell = page.locator('tr.ov-row[data-profile="demo"] [data-cell]').nth(3);
    await shoot(page, 'overview', async () => {
      await cell.hover();
    });
    await page.mouse.move(0, 0);
    await go(page, 'Requests');
    await shoot(page, 'requests');
    await go(page, 'Budget');
    await page.getByRole('group', { name: 'Time range' }).getByRole('button', { name: '6 h', exact: true }).click();
    await page.getByRole('table', { name: 'Usage per endpoint over the range' }).waitFor({ timeout: 30_000 });
    await shoot(page, 'budget-6h');
  } finally {
    await bridgeCall('simSetDemoTraffic', { share: 0, endpoints: [] }, server.url).catch(() => {});
    await browser.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
