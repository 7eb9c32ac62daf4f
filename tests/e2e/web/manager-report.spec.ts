/**
 * An account manager opens yesterday's Usage report (issue 12 §2): usage is written into the browser-mode
 * data folder through the app's own store (LocalStore.openUsage, UsageStore.recordAggregate) before the
 * app starts; the table, heat map and busiest minutes show the seeded figures; CSV and PNG export.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import type { Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { LocalStore, STORE_FILE_NAME } from '../../../electron/store';
import { syntheticAggregate } from '../../../electron/usage/synthetic-usage';
import { timerClock } from '../../../shared/clock';
import { ENDPOINTS } from '../../../shared/endpoints';
import { nextDay, startOfDay, zonedTime } from '../../../shared/time-zone';
import { budgetUseSeconds } from '../../../shared/usage-report';
import { startBrowserMode } from '../browser-mode';
import type { BrowserMode } from '../browser-mode';
import { WEB_BRIDGE_PATH } from '../../../shared/bridge/websocket-protocol';
import { openApp, screenshot, SCREENSHOT_DIR } from './helpers';

const MINUTE = 60_000;
const TZ = Intl.DateTimeFormat().resolvedOptions().timeZone;
test.use({ timezoneId: TZ, locale: 'en-US' });

const dataDir = mkdtempSync(join(tmpdir(), 'partner-console-report-'));
let server: BrowserMode | null = null;
test.afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/**
 * Yesterday (local): GET /assets/list at 10% of its limit all day with a 10-minute spike at 14:00 (95%, 7 × 429, others' use); purchase info 09:00–18:00 at 5%.
 * Three days ago, 10:00: one minute of GET /assets/categories as an earlier version stored it (the per-answer measure only).
 */
function seed() {
  const yesterday = (() => {
    const today = zonedTime(Date.now(), TZ).day;
    const [y, m, d] = today.split('-').map(Number) as [number, number, number];
    return new Date(Date.UTC(y, m - 1, d - 1)).toISOString().slice(0, 10);
  })();
  const fromMs = startOfDay(yesterday, TZ);
  const toMs = startOfDay(nextDay(yesterday), TZ);
  const spikeStartMs = fromMs + 14 * 60 * MINUTE;
  const local = new LocalStore(dataDir);
  const usage = local.openUsage({ clock: timerClock })!;
  // Mean use is of the whole budget (ours and the others') per second with requests: the seconds' use summed over the seconds
  // (the seed spreads each minute over all 60); ours beside it.
  const expected = {
    listRequests: 0,
    listUseSeconds: 0,
    listOursSeconds: 0,
    listActiveSeconds: 0,
    spikeHourUseSeconds: 0,
    spikeHourActiveSeconds: 0,
    spikeMinuteRequests: 0,
  };
  for (let t = fromMs; t < toMs; t += MINUTE) {
    const spike = t >= spikeStartMs && t < spikeStartMs + 10 * MINUTE;
    const share = spike ? 0.95 : 0.1;
    const list = syntheticAggregate(ENDPOINTS.listAssets, 60, spike ? { share, throttled: t === spikeStartMs ? 7 : 0, foreign: 40 } : { share });
    usage.recordAggregate({ profileId: 'demo', vendor: 'demo', endpoint: 'listAssets' }, t, list);
    expected.listRequests += list.requests;
    expected.listUseSeconds += budgetUseSeconds(list, ENDPOINTS.listAssets.limit);
    expected.listOursSeconds += list.useSeconds;
    expected.listActiveSeconds += list.activeSeconds;
    if (zonedTime(t, TZ).hour === 14) {
      expected.spikeHourUseSeconds += budgetUseSeconds(list, ENDPOINTS.listAssets.limit);
      expected.spikeHourActiveSeconds += list.activeSeconds;
    }
    const hour = zonedTime(t, TZ).hour;
    if (hour >= 9 && hour < 18) {
      const info = syntheticAggregate(ENDPOINTS.purchaseInfo, 60, { share: 0.05 });
      usage.recordAggregate({ profileId: 'demo', vendor: 'demo', endpoint: 'purchaseInfo' }, t, info);
      if (t === spikeStartMs) expected.spikeMinuteRequests = list.requests + info.requests;
    }
  }
  usage.downsample(Date.now());
  local.close();
  const olderDay = daysBefore(yesterday, 2);
  seedOlderMinute(startOfDay(olderDay, TZ) + 10 * 60 * MINUTE);
  return { yesterday, olderDay, spikeStartMs, ...expected };
}

function daysBefore(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d - n)).toISOString().slice(0, 10);
}

/** A minute GET /assets/categories ran flat out, as an earlier version stored it: 1,200 answers whose 1 − Remaining/Limit averaged 47.5%, no per-second use. */
function seedOlderMinute(startMs: number): void {
  const db = new Database(join(dataDir, STORE_FILE_NAME));
  db.prepare(
    `INSERT INTO usage_minute (profile_id, vendor, endpoint, start_ms, requests, throttled, failures, lowest_remaining, use_sum, use_count, use_peak, waited_ms, foreign_requests, latency)
     VALUES ('demo', 'demo', 'categories', ?, 1200, 0, 0, 0, 570, 1200, 1, 0, 0, '[]')`,
  ).run(startMs);
  db.close();
}

const fmt = (n: number) => new Intl.NumberFormat('en-US').format(n);
const cell = (page: Page, endpoint: string, col: string) =>
  page.getByRole('table', { name: 'Usage per endpoint and day' }).locator(`tr[data-endpoint="${endpoint}"] [data-col="${col}"]`);

test("an account manager opens yesterday's usage report, reads it and exports CSV and PNG", async ({ page }) => {
  test.setTimeout(120_000);
  const seeded = seed();
  server = await startBrowserMode([], { dataDir });
  await openApp(page, 'Budget', server.url);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Usage', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Usage report' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Period' }).getByRole('button', { name: 'Yesterday' })).toHaveAttribute('aria-pressed', 'true');

  // Per endpoint and day: the seeded figures.
  await expect(cell(page, 'listAssets', 'requests')).toHaveText(fmt(seeded.listRequests));
  await expect(cell(page, 'listAssets', 'throttled')).toHaveText('7');
  await expect(cell(page, 'listAssets', 'peakUse')).toHaveText('100%');
  const listMeanUse = Math.round((seeded.listUseSeconds / seeded.listActiveSeconds) * 100);
  const listOurs = Math.round((seeded.listOursSeconds / seeded.listActiveSeconds) * 100);
  await expect(cell(page, 'listAssets', 'meanUse')).toHaveText(listMeanUse === listOurs ? `${listMeanUse}%` : `${listMeanUse}% (ours ${listOurs}%)`);
  await expect(cell(page, 'purchaseInfo', 'peakUse')).toHaveText('15%');

  // Heat map: the spike's hour is the hot cell of GET /assets/list.
  const hot = page.locator('.heatmap g[data-endpoint="listAssets"] g[data-hour="14"]');
  await expect(hot).toHaveAttribute('data-use', (seeded.spikeHourUseSeconds / seeded.spikeHourActiveSeconds).toFixed(3));
  await expect(page.locator('.heatmap g[data-endpoint="listAssets"] g[data-hour="3"]')).toHaveAttribute('data-use', '0.100');

  // Busiest minutes: the spike's first minute leads, with a link into the Budget view.
  const first = page.getByRole('table', { name: 'Busiest minutes' }).locator('tbody tr').first();
  await expect(first).toHaveAttribute('data-start', String(seeded.spikeStartMs));
  await expect(first.locator('td').first()).toHaveText(fmt(seeded.spikeMinuteRequests));
  await expect(first.getByRole('link', { name: 'Budget' })).toHaveAttribute('href', `#/budget/at%3D${seeded.spikeStartMs}`);

  for (const [width, height] of [
    [1440, 900],
    [1024, 700],
  ] as const) {
    await page.setViewportSize({ width, height });
    await screenshot(page, `usage-report-${width}`);
  }
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, 'usage-report-1024-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  // CSV export: one line per endpoint and day, the same figures.
  const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
  expect(csvDownload.suggestedFilename()).toBe(`usage-Built-in-demo-service-${seeded.yesterday}.csv`);
  const csv = readFileSync((await csvDownload.path())!, 'utf8').split('\r\n');
  expect(csv[0]).toMatch(/^day,endpoint,requests,mean_use_pct,peak_use_pct,our_429s,/);
  const listLine = csv.find((l) => l.startsWith(`${seeded.yesterday},listAssets,`))!.split(',');
  const pct = (useSeconds: number) => ((useSeconds / seeded.listActiveSeconds) * 100).toFixed(1);
  expect(listLine.slice(2, 8)).toEqual([String(seeded.listRequests), pct(seeded.listUseSeconds), '100.0', '7', '7', '400']);
  expect(listLine.slice(-2)).toEqual(['per_second', pct(seeded.listOursSeconds)]);
  expect(csv.filter((l) => l.startsWith(seeded.yesterday))).toHaveLength(2);

  // PNG export of the whole report: a real PNG.
  const [pngDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export PNG' }).click()]);
  const png = readFileSync((await pngDownload.path())!);
  expect(png.subarray(1, 4).toString()).toBe('PNG');
  expect(png.length).toBeGreaterThan(20_000);
  await pngDownload.saveAs(join(SCREENSHOT_DIR, 'usage-report-export.png'));

  // The busiest minute's link opens the Budget view on the hour around it.
  await page.getByRole('table', { name: 'Busiest minutes' }).locator('tbody tr').first().getByRole('link', { name: 'Budget' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Showing / })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Time range' }).getByRole('button', { name: 'Custom' })).toHaveAttribute('aria-pressed', 'true');
  // The spike's endpoint is in the range's summary (reads may take seconds on a loaded machine).
  await expect(page.getByRole('table', { name: 'Usage per endpoint over the range' }).locator('tr[data-endpoint="listAssets"]')).toBeVisible({
    timeout: 20_000,
  });
  await screenshot(page, 'budget-at-busiest-minute');
});

// The same server and seeded history as the test above (the file's tests run in order, in one worker).
test("while another period's report loads, the one on screen is dimmed and inert, and not exported under the new period's name", async ({ page }) => {
  test.skip(server === null, 'needs the seeded server of the test above');
  // The bridge's usageReport answers held back 3 s once `slow` is set: a report that takes a while to read.
  let slow = false;
  const held = new Set<number>();
  await page.routeWebSocket(
    (url) => url.pathname === WEB_BRIDGE_PATH,
    (ws) => {
      const service = ws.connectToServer();
      ws.onMessage((m) => {
        const message = JSON.parse(String(m)) as { t: string; id?: number; name?: string };
        if (slow && message.t === 'call' && message.name === 'usageReport' && message.id !== undefined) held.add(message.id);
        service.send(m);
      });
      service.onMessage((m) => {
        const message = JSON.parse(String(m)) as { t: string; id?: number };
        if (message.t === 'result' && message.id !== undefined && held.has(message.id)) setTimeout(() => ws.send(m), 3_000);
        else ws.send(m);
      });
    },
  );
  await openApp(page, 'Budget', server!.url);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Usage', exact: true }).click();
  await expect(cell(page, 'listAssets', 'throttled')).toHaveText('7');
  const csv = page.getByRole('button', { name: 'Export CSV' });
  await expect(csv).toBeEnabled();

  slow = true;
  await page.getByRole('group', { name: 'Period' }).getByRole('button', { name: 'Last 7 days' }).click();
  // Yesterday's report stays on screen while the week's loads: dimmed, busy, and not exportable as the week.
  await expect(csv).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Export PNG' })).toBeDisabled();
  const shown = page.locator('.report-stale[inert]');
  await expect(shown.getByRole('table', { name: 'Usage per endpoint and day' })).toBeVisible();
  await expect(cell(page, 'listAssets', 'throttled')).toHaveText('7');
  await expect(page.getByText(/loading, the report below is the one before$/)).toBeVisible();
  await screenshot(page, 'usage-report-loading');

  // The week's report arrived: exportable again.
  await expect(csv).toBeEnabled({ timeout: 10_000 });
  await expect(page.locator('.report-stale')).toHaveCount(0);
  await expect(page.getByText(/loading, the report below is the one before$/)).toHaveCount(0);
});

// The same server and seeded history as the first test.
test('a day stored by an earlier version says its mean use is the older measure, in the table and the heat map', async ({ page }) => {
  test.skip(server === null, 'needs the seeded server of the first test');
  await openApp(page, 'Budget', server!.url);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Usage', exact: true }).click();
  await page.getByRole('group', { name: 'Period' }).getByRole('button', { name: 'Last 7 days' }).click();
  const olderDay = seededOlderDay();
  const older = page
    .getByRole('table', { name: 'Usage per endpoint and day' })
    .locator(`tr[data-day="${olderDay}"][data-endpoint="categories"] [data-col="meanUse"]`);
  await expect(older).toHaveText('48%*');
  await expect(page.getByRole('note').filter({ hasText: /older measure, the mean of 1 − Remaining \/ Limit over the answers/ })).toBeVisible();
  // Yesterday's figures are the per-second measure: not marked.
  await expect(page.locator(`tr[data-day="${daysBefore(olderDay, -2)}"][data-endpoint="listAssets"] [data-col="meanUse"]`)).toHaveText(/^\d+%$/);
  await expect(page.locator('.heatmap g[data-endpoint="categories"] g[data-hour="10"]')).toHaveAttribute('data-older', 'true');
  await expect(page.locator('.heatmap g[data-endpoint="categories"] g[data-hour="10"] text')).toHaveText('48*');
  await expect(page.locator('.heatmap-legend')).toContainText('(* the older measure)');
});

function seededOlderDay(): string {
  const today = zonedTime(Date.now(), TZ).day;
  return daysBefore(today, 3);
}
