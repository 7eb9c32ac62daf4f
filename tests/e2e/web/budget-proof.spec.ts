/**
 * Proof that the Budget view's figures agree with the server: known traffic in phases that end in
 * quiet seconds, a second page opened in the middle of it, and each page's CSV export and table
 * compared with the simulator's own counters over the same whole seconds (within 2%).
 */
import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import type { Browser, Page } from '@playwright/test';
import { ENDPOINTS } from '../../../shared/endpoints';
import type { EndpointId } from '../../../shared/endpoints';
import { bridgeCall, numberIn, openApp, quietSimulator, screenshot, STATE_POLL } from './helpers';

test.beforeEach(quietSimulator);
test.afterEach(quietSimulator);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Tally {
  requests: number;
  rateLimited: number;
  /** Attempts the page never heard back from (the server may or may not have counted them). */
  noAnswer: number;
}
type Tallies = Partial<Record<EndpointId, Tally>>;

interface Counter {
  vendor: string | null;
  endpoint: EndpointId | null;
  status: number;
  count: number;
  competitor?: true;
}

async function simCounters(baseUrl: string): Promise<Counter[]> {
  const res = await fetch(`${baseUrl}/_sim/counters`);
  expect(res.ok).toBe(true);
  return ((await res.json()) as { counters: Counter[] }).counters;
}

/** What the simulator answered the app (not the competitor) between two snapshots, per endpoint. */
function simDiff(before: Counter[], after: Counter[]): Tallies {
  const out: Tallies = {};
  const add = (list: Counter[], sign: number) => {
    for (const c of list) {
      // The app's answers: the demo vendor's, and those refused before the token was read (vendor null, e.g. a 401).
      if ((c.vendor !== 'demo' && c.vendor !== null) || c.endpoint === null || c.competitor) continue;
      const t = (out[c.endpoint] ??= { requests: 0, rateLimited: 0, noAnswer: 0 });
      t.requests += sign * c.count;
      if (c.status === 429) t.rateLimited += sign * c.count;
    }
  };
  add(after, 1);
  add(before, -1);
  return out;
}

/** The page's CSV export, summed per endpoint over the whole seconds [from, to). */
async function pageCsv(page: Page, from: number, to: number): Promise<Tallies> {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const text = readFileSync((await (await download).path())!, 'utf8');
  const [head, ...lines] = text.trim().split(/\r?\n/);
  const cols = head!.split(',');
  const at = (name: string) => cols.indexOf(name);
  const out: Tallies = {};
  for (const line of lines) {
    const cells = line.split(',');
    const t = Date.parse(cells[at('time')]!);
    if (t < from || t >= to || cells[at('vendor')] !== 'demo') continue;
    const endpoint = cells[at('endpoint')] as EndpointId;
    const tally = (out[endpoint] ??= { requests: 0, rateLimited: 0, noAnswer: 0 });
    tally.requests += Number(cells[at('requests')]);
    tally.rateLimited += Number(cells[at('rate_limited')]);
    tally.noAnswer += Number(cells[at('no_answer')]);
  }
  return out;
}

/**
 * Within 2% (and exact below 50): requests, 429s and utilisation (served / (limit x seconds)). An
 * attempt the page never heard back from (stopping demo traffic aborts those in flight) may or may
 * not have been counted by the server: those are the only extra leeway.
 */
function expectAgree(label: string, page: Tallies, sim: Tallies, seconds: number): void {
  const endpoints = new Set([...Object.keys(page), ...Object.keys(sim)] as EndpointId[]);
  for (const endpoint of endpoints) {
    const p = page[endpoint] ?? { requests: 0, rateLimited: 0, noAnswer: 0 };
    const s = sim[endpoint] ?? { requests: 0, rateLimited: 0, noAnswer: 0 };
    const close = (a: number, b: number) => Math.abs(a - b) <= Math.floor(0.02 * b) + p.noAnswer;
    const limit = ENDPOINTS[endpoint].limit;
    const util = (t: Tally) => (t.requests - t.rateLimited) / (limit * seconds);
    expect.soft(close(p.requests, s.requests), `${label} ${endpoint} requests: page ${p.requests}, simulator ${s.requests}`).toBe(true);
    expect.soft(close(p.rateLimited, s.rateLimited), `${label} ${endpoint} 429s: page ${p.rateLimited}, simulator ${s.rateLimited}`).toBe(true);
    expect.soft(Math.abs(util(p) - util(s)) <= 0.02 * util(s) + (p.noAnswer + 1e-9) / (limit * seconds), `${label} ${endpoint} utilisation`).toBe(true);
  }
}

async function drained(): Promise<void> {
  for (;;) {
    const { buckets } = await bridgeCall('budgetSnapshot', {});
    if (buckets.every((b) => b.queued === 0 && b.inFlight === 0)) return;
    await sleep(100);
  }
}

/** The simulator's counters once two reads 250 ms apart agree: nothing is being answered. */
async function quietCounters(baseUrl: string): Promise<Counter[]> {
  let last = JSON.stringify(await simCounters(baseUrl));
  for (;;) {
    await sleep(250);
    const now = await simCounters(baseUrl);
    if (JSON.stringify(now) === last) return now;
    last = JSON.stringify(now);
  }
}

/** Sleeps until `ms` past the next whole second: a phase starts in a second of its own. */
async function nextSecond(ms = 50): Promise<void> {
  await sleep(Math.ceil(Date.now() / 1000) * 1000 + ms - Date.now());
}

async function openSecondPage(browser: Browser): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await openApp(page, 'Budget');
  return page;
}

test("each page's Budget figures and CSV agree with the simulator's counters, a page opened mid-traffic too", async ({ page, browser }) => {
  test.setTimeout(180_000);
  const demo = (await bridgeCall('listProfiles', {})).items.find((p) => p.id === 'demo')!;
  await openApp(page, 'Budget');
  await bridgeCall('simSetRefill', { model: 'whole-second' });
  await drained();
  // Quiet before: the server answers nothing more (its counters stand still), then the range starts.
  const before = await quietCounters(demo.baseUrl);
  const from = Math.ceil(Date.now() / 1000) * 1000;
  await sleep(from + 50 - Date.now());

  // Phase 1: half of the limit on two endpoints, then quiet. Two whole seconds (20 and 50 requests) are
  // compared request for request as four were: below 50 the comparison is exact, at 50 within one.
  await bridgeCall('simSetDemoTraffic', { share: 0.5, endpoints: ['listAssets', 'purchaseInfo'] });
  await sleep(2000);
  await bridgeCall('simSetDemoTraffic', { share: 0, endpoints: [] });
  await drained();
  await nextSecond();
  // Phase 2: the whole limit with a competitor on the same vendor (429s), the second page opens in the middle.
  await bridgeCall('simSetCompetitors', { competitors: [{ vendor: 'demo', endpoint: 'categories', rps: 12 }] });
  await bridgeCall('simSetDemoTraffic', { share: 1, endpoints: ['categories', 'searchAssets'] });
  await sleep(2300);
  const late = await openSecondPage(browser);
  await sleep(2700);
  await bridgeCall('simSetDemoTraffic', { share: 0, endpoints: [] });
  await bridgeCall('simSetCompetitors', { competitors: [] });
  await drained();
  await nextSecond();
  // Phase 3: 80% on one endpoint (two whole seconds, as phase 1), then quiet seconds at the end.
  await bridgeCall('simSetDemoTraffic', { share: 0.8, endpoints: ['assetHistory'] });
  await sleep(2000);
  await bridgeCall('simSetDemoTraffic', { share: 0, endpoints: [] });
  await drained();
  // Every answer came before the end of this second: the range ends with it. Both pages hold its figures
  // a second later (they settle a second 600 ms after its end).
  const to = Math.ceil(Date.now() / 1000) * 1000;
  await sleep(to + 1000 - Date.now());
  const after = await quietCounters(demo.baseUrl);
  const seconds = (to - from) / 1000;

  const sim = simDiff(before, after);
  expect(sim.categories?.requests ?? 0, 'traffic flowed').toBeGreaterThan(40);
  for (const [label, p] of [
    ['page open from the start', page],
    ['page opened mid-traffic', late],
  ] as const) {
    const csv = await pageCsv(p, from, to);
    expectAgree(label, csv, sim, seconds);
    // The table's 429s (the last 5 min) are the CSV's over the same range.
    const all = await pageCsv(p, 0, Date.now());
    const table429 = numberIn(await p.getByRole('table', { name: 'Endpoint budgets' }).locator('tr[data-endpoint="categories"] [data-col="429s"]').innerText());
    expect(table429, `${label}: table 429s`).toBe(all.categories?.rateLimited ?? 0);
  }
  await screenshot(late, 'budget-proof-late-page');
  await late.close();
});

/** The Budget view as an account manager sees it at 100% demo traffic with a competing consumer. */
test('Budget view screenshots at 100% traffic with a competitor, wide and narrow, light and dark', async ({ page }) => {
  test.setTimeout(180_000);
  await bridgeCall('simSetDemoTraffic', { share: 1, endpoints: ['listAssets', 'searchAssets', 'categories', 'purchaseInfo'] });
  await bridgeCall('simSetCompetitors', { competitors: [{ vendor: 'demo', endpoint: 'categories', rps: 5 }] });
  await openApp(page, 'Budget');
  // Shots once every busy endpoint shows its traffic in the table (above a quarter of its limit over its 5 s
  // window: categories, shared with the competitor, climbs slower than the rest).
  for (const endpoint of ['listAssets', 'searchAssets', 'categories', 'purchaseInfo']) {
    const util = page.getByRole('table', { name: 'Endpoint budgets' }).locator(`tr[data-endpoint="${endpoint}"] [data-col="utilisation"]`);
    await expect.poll(async () => numberIn(await util.innerText()), { timeout: 20_000, intervals: STATE_POLL }).toBeGreaterThan(25);
  }
  // Others' use is drawn on the shared endpoint: stacked on ours, hatched, and worded as an estimate ("about").
  const shared = page.getByRole('region', { name: 'GET /assets/categories chart' });
  await expect
    .poll(async () => ((await shared.locator('path.lc-others').getAttribute('d')) ?? '').length, { timeout: 15_000, intervals: STATE_POLL })
    .toBeGreaterThan(0);
  await expect(shared.locator('text.lc-others-label')).toHaveText(/^others about \d+(\.\d)? req\/s$/);
  await expect(page.locator('.chart-key')).toContainText('others (about: estimated from the headers)');
  // Alone, an endpoint draws no others.
  expect(await page.getByRole('region', { name: 'GET /assets/list chart' }).locator('path.lc-others').getAttribute('d')).toBe('');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [w, h] of [
      [1440, 900],
      [1024, 700],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      const chart = page.getByRole('region', { name: 'GET /assets/categories chart' }).locator('svg');
      // The charts have redrawn at the new width: two reads 100 ms apart agree.
      let width = -1;
      await expect
        .poll(
          async () => {
            const now = (await chart.boundingBox())?.width ?? -1;
            const same = now === width && now > 0;
            width = now;
            return same;
          },
          { intervals: [100] },
        )
        .toBe(true);
      // Hover one chart: one tooltip, crosshairs elsewhere.
      await chart.scrollIntoViewIfNeeded();
      const box = (await chart.boundingBox())!;
      await page.mouse.move(box.x + box.width * 0.7, box.y + box.height / 2);
      await expect(page.locator('.lc-tooltip')).toHaveCount(1);
      expect(await page.locator('.lc-cursor').count()).toBeGreaterThan(1);
      await page.screenshot({ path: `tests/e2e/screenshots/budget-proof-${w}-${scheme}-charts.png` });
      await page.mouse.move(0, 0);
      await screenshot(page, `budget-proof-${w}-${scheme}`);
    }
  }
  // The table's figures never exceed the limit without 429s.
  for (const row of await page.getByRole('table', { name: 'Endpoint budgets' }).locator('tbody tr').all()) {
    const util = numberIn(await row.locator('[data-col="utilisation"]').innerText());
    expect(util).toBeLessThanOrEqual(100);
  }
});
