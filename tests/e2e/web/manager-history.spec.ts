/**
 * An account manager opens yesterday's usage after a restart of the app (issue 12 §1): the history is
 * seeded through the app's own store into the data folder, browser mode starts on it, stops, starts
 * again; the 24 h and 7 d ranges show it; a drag zooms into the spike, a double-click goes back.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import type { Page } from '@playwright/test';
import { startBrowserMode } from '../browser-mode';
import type { BrowserMode } from '../browser-mode';
import { seedYesterday } from '../seed-usage';
import { openApp, screenshot } from './helpers';

const dataDir = mkdtempSync(join(tmpdir(), 'partner-console-history-'));
let server: BrowserMode | null = null;

test.afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

function summaryCell(page: Page, endpoint: string, column: number) {
  return page.getByRole('table', { name: 'Usage per endpoint over the range' }).locator(`tr[data-endpoint="${endpoint}"] td`).nth(column);
}
const REQUESTS = 0;
const THROTTLED = 5;
const fmt = (n: number) => new Intl.NumberFormat('en-US').format(n);

test("an account manager opens yesterday's usage after a restart, zooms into the spike and back", async ({ page }) => {
  test.setTimeout(420_000);
  const seeded = seedYesterday(dataDir);
  server = await startBrowserMode([], { dataDir });
  await openApp(page, 'Budget', server.url);
  const ranges = page.getByRole('group', { name: 'Time range' });

  await ranges.getByRole('button', { name: '24 h' }).click();
  await expect(summaryCell(page, 'listAssets', THROTTLED)).toHaveText(String(seeded.spike429s), { timeout: 30_000 });

  // The app restarts on the same data folder: the history is still there.
  await server.stop();
  server = await startBrowserMode([], { dataDir });
  await openApp(page, 'Budget', server.url);
  await ranges.getByRole('button', { name: '7 d' }).click();
  await expect(ranges.getByRole('button', { name: '7 d' })).toHaveAttribute('aria-pressed', 'true');
  await expect(summaryCell(page, 'listAssets', REQUESTS)).toHaveText(fmt(seeded.listRequests), { timeout: 30_000 });
  await expect(summaryCell(page, 'listAssets', THROTTLED)).toHaveText(String(seeded.spike429s), { timeout: 30_000 });
  await expect(page.getByText(/1 h points \(per-hour records\)/)).toBeVisible({ timeout: 30_000 });
  // The data starts yesterday, not 7 days ago: the axes start with it (no needle at the right edge), and say so.
  await expect(page.getByText(/^Data since .* \(the charts start there\)\.$/)).toBeVisible();
  await page.setViewportSize({ width: 1440, height: 900 });
  await screenshot(page, 'budget-history-7d');

  // Drag across the GET /assets/list chart from 5 h before the spike (14 h ago) to the right end: about 20 h.
  const chart = page.getByTestId('history-chart-listAssets');
  await chart.scrollIntoViewIfNeeded();
  const box = (await chart.boundingBox())!;
  const y = box.y + box.height / 2;
  // The plot spans between the two y axes (34 px each, 4 px margin right), from the first point of the
  // axis (fitted to the data: yesterday's first hour) to the last.
  const HOUR = 3_600_000;
  const first = Number(await chart.getAttribute('data-axis-from'));
  const last = Number(await chart.getAttribute('data-axis-to'));
  expect(first).toBeLessThanOrEqual(seeded.fromMs);
  expect(first).toBeGreaterThan(seeded.fromMs - HOUR);
  const plotX = (t: number) => box.x + 34 + ((t - first) / (last - first)) * (box.width - 72);
  const fromX = plotX(seeded.spikeStartMs - 5 * HOUR);
  const toX = plotX(last) - 1;
  await page.mouse.move(fromX, y);
  await page.mouse.down();
  // Two moves make the drag (each move redraws the crosshair on every chart, slow on a busy machine).
  await page.mouse.move((fromX + toX) / 2, y);
  await page.mouse.move(toX, y);
  await page.mouse.up();

  await expect(ranges.getByRole('button', { name: 'Custom' })).toHaveAttribute('aria-pressed', 'true');
  await expect(ranges.getByRole('button', { name: '7 d' })).toHaveAttribute('aria-pressed', 'false');
  // Zoomed to hours around the spike: finer points from the per-minute records, the spike's 429s all in it.
  await expect(page.getByText(/min points \(per-minute records\)/)).toBeVisible({ timeout: 30_000 });
  await expect(summaryCell(page, 'listAssets', THROTTLED)).toHaveText(String(seeded.spike429s), { timeout: 30_000 });
  const zoomedRequests = Number((await summaryCell(page, 'listAssets', REQUESTS).innerText()).replace(/\D/g, ''));
  expect(zoomedRequests).toBeLessThan(seeded.listRequests);
  await screenshot(page, 'budget-history-zoomed');
  // The spike's other consumers are drawn, stacked on this app's use under the limit line, and said to be an estimate.
  const listPanel = page.getByRole('region', { name: 'GET /assets/list history' });
  await expect(listPanel).toContainText('· others (about)');
  await expect(listPanel.locator('.recharts-area')).toHaveCount(2);
  await expect(listPanel.getByText('limit 20/s')).toBeVisible();

  // Double-click resets to the 7-day range.
  await page.getByTestId('history-chart-listAssets').dblclick();
  await expect(ranges.getByRole('button', { name: '7 d' })).toHaveAttribute('aria-pressed', 'true');
  await expect(summaryCell(page, 'listAssets', REQUESTS)).toHaveText(fmt(seeded.listRequests), { timeout: 30_000 });

  // A range with no history says so plainly.
  await ranges.getByRole('button', { name: 'Custom' }).click();
  const form = page.getByRole('form', { name: 'Custom range' });
  await form.getByLabel('From').fill('2020-01-01T00:00');
  await form.getByLabel('To').fill('2020-01-02T00:00');
  await form.getByRole('button', { name: 'Show' }).click();
  await expect(page.getByText(/No usage history for/)).toBeVisible({ timeout: 30_000 });
});
