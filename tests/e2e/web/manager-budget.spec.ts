/** Account managers watch each endpoint's budget live, and see a competing consumer's effect. */
import { expect, test } from './fixtures';
import type { Page } from '@playwright/test';
import { numberIn, openApp, quietSimulator, screenshot, STATE_POLL } from './helpers';

test.beforeEach(quietSimulator);
test.afterEach(quietSimulator);

function budgetRow(page: Page, endpoint: string) {
  return page.getByRole('table', { name: 'Endpoint budgets' }).locator(`tr[data-endpoint="${endpoint}"]`);
}

async function cell(page: Page, endpoint: string, col: string): Promise<string> {
  return budgetRow(page, endpoint).locator(`[data-col="${col}"]`).innerText();
}

async function startDemoTraffic(page: Page, percent: number, only?: string[]) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('slider', { name: "Demo traffic share of each endpoint's limit" }).fill(String(percent));
  if (only) {
    const boxes = page.getByRole('group', { name: 'Demo traffic endpoints' }).getByRole('checkbox');
    for (const box of await boxes.all()) await box.uncheck();
    for (const label of only) await page.getByRole('group', { name: 'Demo traffic endpoints' }).getByRole('checkbox', { name: label }).check();
  }
  await page.getByRole('button', { name: 'Start demo traffic' }).click();
  await expect(page.getByText(/^running: /)).toBeVisible();
}

test('an account manager sees the budget table and charts move while traffic flows', async ({ page }) => {
  // About 50 steps, each waiting for its own condition: 25-31 s with two CPU hogs on 2 cores (21 s on a quiet
  // CI machine), and a loaded CI run reached the default 60 s. The whole, not any step, gets the headroom.
  test.setTimeout(120_000);
  await openApp(page, 'Budget');
  const table = page.getByRole('table', { name: 'Endpoint budgets' });
  await expect(table.locator('tbody tr')).toHaveCount(10);

  await startDemoTraffic(page, 60, ['GET /assets/list', 'POST /assets/search', 'GET /purchase/info']);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Budget' }).click();

  // One clock, one source: while the rates climb (they change every second), each panel's "5 s avg" is the
  // table row's Req/s at every reading, never a second behind it.
  const mismatches: string[] = [];
  for (let i = 0; i < 40; i++) {
    const pairs = await page.evaluate(`['listAssets', 'searchAssets', 'purchaseInfo'].map((ep) => [
      ep,
      document.querySelector('tr[data-endpoint="' + ep + '"] [data-col="rps"]')?.textContent ?? '',
      document.querySelector('#chart-' + ep + ' .chart-meta')?.textContent ?? '',
    ])`);
    for (const [ep, table, chart] of pairs as [string, string, string][]) {
      const panel = /avg:\s*([^/]+)\//.exec(chart)?.[1]?.trim() ?? chart;
      if (table.split(' ')[0] !== panel) mismatches.push(`${ep}: table ${table}, panel ${panel}`);
    }
    await page.waitForTimeout(150);
  }
  expect(mismatches).toEqual([]);

  // Requests per second climb towards 60% of the limit on every endpoint.
  await expect.poll(async () => numberIn(await cell(page, 'listAssets', 'rps')), { timeout: 15_000, intervals: STATE_POLL }).toBeGreaterThan(5);
  await expect.poll(async () => numberIn(await cell(page, 'purchaseInfo', 'rps')), { timeout: 15_000, intervals: STATE_POLL }).toBeGreaterThan(10);
  // Errors have a column beside the 429s (its figures: tests/unit/renderer/budget-figures.test.ts).
  await expect(table.locator('thead th[data-col="errors"]')).toContainText('Errors');
  expect(numberIn(await cell(page, 'listAssets', 'errors'))).toBeGreaterThanOrEqual(0);
  // Remaining moves: it is read from the service's headers as requests flow.
  const seen = new Set<string>();
  await expect
    .poll(
      async () => {
        seen.add(await cell(page, 'purchaseInfo', 'remaining'));
        return seen.size;
      },
      { timeout: 15_000, intervals: [200] },
    )
    .toBeGreaterThan(1);

  // The chart of an endpoint draws its requests and moves with time.
  const chart = page.getByRole('region', { name: 'GET /assets/list chart' });
  const area = chart.locator('path.lc-rps').first();
  await expect(area).toBeVisible();
  const before = await area.getAttribute('d');
  await expect.poll(async () => area.getAttribute('d'), { timeout: 5_000, intervals: STATE_POLL }).not.toBe(before);
  await expect(chart.getByText(/limit 20/)).toBeVisible();

  // One averaging window, stated once on the view.
  await expect(page.getByText('Rates average over 5 s', { exact: true })).toBeVisible();
  // Remaining: on its own strip, off by default.
  await expect(chart.locator('path.lc-remaining')).toHaveCount(0);
  await page.getByRole('checkbox', { name: 'Show Remaining' }).check();
  await expect(chart.getByRole('img', { name: /^Lowest remaining/ }).locator('path.lc-remaining')).toHaveCount(1);
  await page.getByRole('checkbox', { name: 'Show Remaining' }).uncheck();
  // A panel expands to a large view (its button, by Enter) with the same crosshair, and Esc brings it back.
  await page.getByRole('button', { name: 'Expand GET /assets/list' }).focus();
  await page.keyboard.press('Enter');
  await expect(chart).toHaveClass(/chart-expanded/);
  await expect(chart.getByRole('img', { name: /^Requests per second/ })).toHaveAttribute('height', '380');
  await page.keyboard.press('Escape');
  await expect(chart).not.toHaveClass(/chart-expanded/);

  // Live / paused: paused charts and the table stop moving, and the view says so.
  await page.getByRole('button', { name: 'Live' }).click();
  await expect(page.getByRole('button', { name: 'Paused' })).toBeVisible();
  await expect(page.getByText(/Paused at \d\d:\d\d:\d\d: figures frozen/)).toBeVisible();
  const frozen = await area.getAttribute('d');
  const frozenRemaining = await cell(page, 'purchaseInfo', 'remaining');
  await page.waitForTimeout(1500);
  expect(await area.getAttribute('d')).toBe(frozen);
  expect(await cell(page, 'purchaseInfo', 'remaining')).toBe(frozenRemaining);
  await page.getByRole('button', { name: 'Paused' }).click();

  // The legend hides and shows an endpoint's chart.
  const legend = page.getByRole('group', { name: 'Show or hide endpoints' });
  await legend.getByRole('button', { name: 'GET /assets/categories' }).click();
  await expect(page.getByRole('region', { name: 'GET /assets/categories chart' })).toHaveCount(0);
  await legend.getByRole('button', { name: 'GET /assets/categories' }).click();
  await expect(page.getByRole('region', { name: 'GET /assets/categories chart' })).toBeVisible();

  // Time ranges: the axis spans the chosen minutes.
  await page.getByRole('group', { name: 'Time range' }).getByRole('button', { name: '1 min' }).click();
  await expect(page.getByRole('group', { name: 'Time range' }).getByRole('button', { name: '1 min' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByText(/^Last 1 min, updated every second/)).toBeVisible();

  // Export the shown samples as CSV.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^budget-.*\.csv$/);
  await screenshot(page, 'manager-budget-live');
});

/** Paths and state pills of the Budget table that are cut: by an ellipsis, or by their cell's edge. Page code as a string (no DOM types here). */
const CUT_IN_BUDGET_TABLE = `(() => {
  // Not yet fitted to the new width: not read yet.
  if (document.querySelector('table.dt thead th:last-child').getBoundingClientRect().right > document.documentElement.clientWidth) return ['(the table is not fitted yet)'];
  return [...document.querySelectorAll('table.dt tbody [data-col="endpoint"] .mono, table.dt tbody [data-col="state"] .pill')].flatMap((el) => {
    // Past the cell's content box, the line ends in an ellipsis ("Queued 10 …").
    const cell = el.closest('td, th');
    const end = cell.getBoundingClientRect().right - parseFloat(getComputedStyle(cell).paddingRight);
    return el.scrollWidth > el.clientWidth + 1 || el.getBoundingClientRect().right > end + 0.5 ? [el.textContent] : [];
  });
})()`;

/** A duration as fmtMs writes it: "160 ms", "2.10 s", "1 min 05 s" (a squeeze on a slow machine may pass a minute). */
const DURATION = String.raw`(?:[\d.]+ m?s|\d+ min \d+ s)`;

test('an account manager sees 429s and a pause when a competing consumer spends the budget', async ({ page }) => {
  test.setTimeout(120_000);
  await openApp(page, 'Settings');
  await startDemoTraffic(page, 80, ['GET /assets/list']);
  await page.getByRole('combobox', { name: 'Competitor endpoint' }).selectOption('listAssets');
  // A competitor at five times the whole limit: the budget is gone moments after it comes back, so fair
  // pacing cannot avoid every 429 (at 25/s it often shares without one, at 14/s always).
  await page.getByRole('spinbutton', { name: 'Competitor requests per second' }).fill('100');
  await page.getByRole('button', { name: 'Turn on competitor' }).click();
  await expect(page.getByText(/^on: 100\/s on GET \/assets\/list/)).toBeVisible();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Budget' }).click();
  await expect.poll(async () => numberIn(await cell(page, 'listAssets', '429s')), { timeout: 20_000, intervals: STATE_POLL }).toBeGreaterThan(0);
  // The client pauses the whole bucket after a 429: the state shows it while it lasts.
  await expect.poll(async () => cell(page, 'listAssets', 'state'), { timeout: 20_000, intervals: [100] }).toMatch(/Paused|Queued/);
  // Squeezed at 1024 px: every endpoint's path is read whole (wrapped, not "/purchase/validat…") and the state pill whole.
  await page.setViewportSize({ width: 1024, height: 700 });
  await expect.poll(() => page.evaluate<string[]>(CUT_IN_BUDGET_TABLE), { timeout: 5_000, intervals: STATE_POLL }).toEqual([]);
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect.poll(async () => numberIn(await cell(page, 'listAssets', 'waited')), { timeout: 10_000, intervals: STATE_POLL }).toBeGreaterThan(0);
  // Why held back, in words: the Wait tooltip names the causes (issue 22), and the panel says it too. At 100/s
  // against 20 Remaining is 0 most of the time, so "budget used up" may come first: a cause of waiting while
  // Remaining is above 0 must be among them. A wait is counted when its request is sent: squeezed like this
  // on a loaded machine, the client sent a held request only every 2-12 s (measured with two CPU hogs), so
  // the words (and the panel's line, over the last 5 s) may need more than one such gap to appear.
  await expect
    .poll(async () => budgetRow(page, 'listAssets').locator('[data-col="waited"]').getAttribute('title'), { timeout: 30_000, intervals: STATE_POLL })
    .toMatch(new RegExp(`held back ${DURATION}: (.+, )?${DURATION} (pacing for another consumer|pause after a 429|whole-second window end)`));
  await expect(
    page.getByRole('region', { name: 'GET /assets/list chart' }).getByRole('status', { name: /^Held back \d+% of the last 5 s with Remaining above 0: / }),
  ).toContainText(/^Held back \d+% (for|after|by) /, { timeout: 30_000 });
  // Worded by cause: another consumer of the vendor (the Budget banner, or the app-wide one while 429s come).
  await expect(page.getByText(/Another consumer is using demo's budget on GET \/assets\/list|Budget shared with another consumer/).first()).toBeVisible({
    timeout: 20_000,
  });
  await page.getByRole('group', { name: 'Time range' }).getByRole('button', { name: '1 min' }).click();
  // 429s are marked on the chart's time axis.
  await expect(page.getByRole('region', { name: 'GET /assets/list chart' }).locator('path.lc-429').first()).toBeVisible();
  await screenshot(page, 'manager-budget-competitor');
});
