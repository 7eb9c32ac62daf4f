/**
 * An account manager's alert (issue 12 §3): with a low "use above" rule, demo traffic above it fires
 * an alert that shows as a browser notification (the app's own Web Notifications call, permission
 * granted in the context), in the header's count, on the Budget row, and in the Alerts view, where it
 * is acknowledged. Screenshots of the Alerts view at 1440x900 and 1024x700.
 */
import { expect, test } from './fixtures';
import type { Page } from '@playwright/test';
import type { AlertRule } from '../../../shared/bridge/alert-schemas';
import { bridgeCall, openApp, quietSimulator, screenshot, STATE_POLL } from './helpers';

/** The "use above" rule as the spec found it: put back after it, passed or failed, for the other specs. */
let useRuleBefore: AlertRule | undefined;
test.beforeEach(async () => {
  await quietSimulator();
  useRuleBefore = (await bridgeCall('alertRules', {})).rules.find((r) => r.kind === 'use-above');
});
test.afterEach(async () => {
  await quietSimulator();
  if (useRuleBefore) await bridgeCall('alertRuleSave', useRuleBefore);
});

interface Recorded {
  title: string;
  body: string;
}

/** Records each Notification the page constructs, then lets the real one be made. */
const RECORD_NOTIFICATIONS = `(() => {
  const Real = window.Notification;
  const seen = [];
  window.__notifications = seen;
  class Recording extends Real {
    constructor(title, options) {
      super(title, options);
      seen.push({ title, body: (options && options.body) || '' });
    }
  }
  Object.defineProperty(window, 'Notification', { value: Recording, configurable: true, writable: true });
})();`;

async function notifications(page: Page): Promise<Recorded[]> {
  return (await page.evaluate('window.__notifications || []')) as Recorded[];
}

function useRuleRow(page: Page) {
  return page.getByRole('region', { name: 'Alert rules' }).locator('tr[data-kind="use-above"]');
}

test('an alert fires above the threshold, notifies, shows in the header, Budget and Alerts view, and is acknowledged', async ({ page, context }) => {
  // The rule reads the table's 5-second use: firing and ending each take a few seconds of traffic.
  test.setTimeout(90_000);
  await context.grantPermissions(['notifications']);
  await page.addInitScript(RECORD_NOTIFICATIONS);
  await openApp(page, 'Budget');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Alerts', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Alerts' })).toBeVisible();
  await expect(page.getByText('Browser notifications are on.')).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Quiet mode' })).not.toBeChecked();

  // The demo's rules are on by default; make "use above" low and immediate, on one endpoint.
  const row = useRuleRow(page);
  await expect(row.getByRole('checkbox')).toBeChecked();
  await row.getByRole('combobox').selectOption('listAssets');
  await row.getByRole('spinbutton', { name: /percent of the limit/ }).fill('30');
  await row.getByRole('spinbutton', { name: /minutes/ }).fill('0');
  await row.getByRole('button', { name: 'Save' }).click();
  await expect(row.getByRole('button', { name: 'Save' })).toBeDisabled();
  const rules = await bridgeCall('alertRules', {});
  expect(rules.rules.find((r) => r.kind === 'use-above')).toMatchObject({ endpoint: 'listAssets', thresholdPct: 30, minutes: 0, enabled: true });

  // Traffic at 80% of the limit on that endpoint: its seconds peak above 30%.
  await bridgeCall('simSetDemoTraffic', { share: 0.8, endpoints: ['listAssets'] });

  const firing = page.getByRole('table', { name: 'Alerts' }).locator('tr[data-state="firing"][data-kind="use-above"]');
  await expect(firing).toHaveCount(1, { timeout: 20_000 });
  await expect(firing.locator('[data-col="message"]')).toContainText('GET /assets/list above 30% of its limit');
  // The header counts it and links here.
  const badge = page.getByRole('link', { name: /alerts? firing/ });
  await expect(badge).toBeVisible();
  await expect.poll(async () => Number(await badge.getAttribute('data-count'))).toBeGreaterThanOrEqual(1);

  // The app's own code raised a browser notification for it.
  await expect
    .poll(async () => (await notifications(page)).map((n) => n.body), { timeout: 10_000, intervals: STATE_POLL })
    .toContain('GET /assets/list above 30% of its limit');
  expect((await notifications(page))[0]!.title).toBe('Partner Console: demo');

  await page.setViewportSize({ width: 1440, height: 900 });
  await screenshot(page, 'alerts-1440');
  await page.setViewportSize({ width: 1024, height: 700 });
  await screenshot(page, 'alerts-1024');
  await page.setViewportSize({ width: 1440, height: 900 });

  // The Budget view marks the endpoint's row.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Budget', exact: true }).click();
  await expect(page.getByRole('table', { name: 'Endpoint budgets' }).locator('tr[data-endpoint="listAssets"] .alert-marker')).toBeVisible();
  await badge.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Alerts' })).toBeVisible();

  // Acknowledge: stored, and shown as such.
  await firing.getByRole('button', { name: /^Acknowledge/ }).click();
  await expect(firing.locator('[data-col="ack"]')).toHaveText('Acknowledged');
  const stored = await bridgeCall('alertsList', {});
  expect(stored.items.find((a) => a.kind === 'use-above' && a.endedAt === null)?.acknowledgedAt).toEqual(expect.any(Number));

  // Traffic drops to 10%: the table's 5-second use falls below the band (30 - 5 points), so the alert ends
  // and moves to the history; no second notification (traffic that stops ends it the same way:
  // tests/unit/alerts-service.test.ts proves that path on the manual clock).
  await bridgeCall('simSetDemoTraffic', { share: 0.1, endpoints: ['listAssets'] });
  await expect(page.getByRole('table', { name: 'Alerts' }).locator('tr[data-state="ended"][data-kind="use-above"]').first()).toBeVisible({ timeout: 20_000 });
  expect((await notifications(page)).filter((n) => n.body.includes('GET /assets/list above'))).toHaveLength(1);
});
