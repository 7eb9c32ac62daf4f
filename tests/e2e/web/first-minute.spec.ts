/**
 * The first minute on the built-in demo: the Budget view says what the app is and offers the next two
 * steps; number shortcuts follow the header's order and open each view at its top; the column menu closes
 * on Esc and outside clicks; range buttons show a whole focus ring; Settings shows the demo's public tokens
 * beside the demo profile only.
 */
import { expect, test } from './fixtures';
import type { Locator, Page } from '@playwright/test';
import { bridgeCall, openApp, quietSimulator, screenshot } from './helpers';

const REAL = 'Acme real (first-minute e2e)';

test.beforeEach(async () => {
  const sim = await bridgeCall('simState', {});
  test.skip(sim === null, 'needs the embedded simulator');
  await bridgeCall('selectProfile', { id: 'demo' });
  await quietSimulator();
});

test.afterEach(async () => {
  await quietSimulator();
  const { items } = await bridgeCall('listProfiles', {});
  for (const p of items) if (p.name === REAL) await bridgeCall('removeProfile', { id: p.id });
});

function firstRun(page: Page): Locator {
  return page.getByRole('region', { name: 'See each endpoint’s request budget, live' });
}

test('on the demo with no traffic, Budget introduces the app and offers Start demo traffic and Add your vendor', async ({ page }) => {
  await openApp(page);
  const card = firstRun(page);
  await expect(card).toBeVisible();
  await expect(card).toContainText('Partner Console keeps every vendor inside');
  for (const [scheme, width, height] of [
    ['light', 1440, 900],
    ['dark', 1440, 900],
    ['light', 1024, 700],
  ] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width, height });
    const box = (await card.boundingBox())!;
    expect(box.width).toBeLessThanOrEqual(width); // never a sideways scroll
    await page.screenshot({ path: `tests/e2e/screenshots/first-run-${width}-${scheme}.png` });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1440, height: 900 });

  // Add your vendor: Settings with the add-profile form open, its first field focused.
  await card.getByRole('button', { name: 'Add your vendor' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  const form = page.getByRole('form', { name: 'New profile' });
  await expect(form).toBeVisible();
  await expect(form.getByRole('textbox', { name: /^Name/ })).toBeFocused();

  // Demo traffic started elsewhere (another window, the simulator panel): the card gives way, and comes back when it stops.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Budget', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Budget' })).toBeVisible();
  await bridgeCall('simSetDemoTraffic', { share: 0.1, endpoints: ['purchaseInfo'] });
  await expect(firstRun(page)).toHaveCount(0);
  await bridgeCall('simSetDemoTraffic', { share: 0, endpoints: [] });
  await expect(firstRun(page)).toBeVisible();

  // Start demo traffic: the demo's own traffic runs, the card gives way to the live figures.
  await firstRun(page).getByRole('button', { name: 'Start demo traffic' }).click();
  await expect(firstRun(page)).toHaveCount(0);
  const sim = await bridgeCall('simState', {});
  expect(sim!.demoTraffic.share).toBeGreaterThan(0);
  expect(sim!.demoTraffic.endpoints.length).toBe(10);
});

test('digits open the views in the header’s order, each at its top', async ({ page }) => {
  await openApp(page);
  const links = await page.getByRole('navigation', { name: 'Main' }).getByRole('link').allInnerTexts();
  expect(links).toHaveLength(8);
  await page.setViewportSize({ width: 1024, height: 700 });
  for (const [i, label] of links.entries()) {
    // Scrolled down on the view before (where it is long enough), the next one still opens at its top.
    await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
    await page.keyboard.press(String(i + 1));
    await expect(page.getByRole('heading', { level: 1, name: new RegExp(`^${label}`) })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true })).toHaveAttribute('aria-current', 'page');
    expect(await page.evaluate('window.scrollY')).toBe(0);
  }
  // Budget with the page scrolled to its charts: another view opens at its top.
  await page.keyboard.press('2');
  await expect(page.getByRole('heading', { level: 1, name: 'Budget' })).toBeVisible();
  await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
  expect(await page.evaluate('window.scrollY')).toBeGreaterThan(200);
  await page.keyboard.press('5');
  await expect(page.getByRole('heading', { level: 1, name: 'Requests' })).toBeVisible();
  expect(await page.evaluate('window.scrollY')).toBe(0);
});

/**
 * The focused element's ring, and whether an ancestor that clips cuts it (the range buttons' group did:
 * a 2 px sliver). Page code as a string: this file is type-checked without the DOM.
 */
const RING = `(el) => {
  const style = getComputedStyle(el);
  const width = parseFloat(style.outlineWidth);
  const reach = width + parseFloat(style.outlineOffset);
  const box = el.getBoundingClientRect();
  let clipped = false;
  for (let a = el.parentElement; a; a = a.parentElement) {
    const s = getComputedStyle(a);
    if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
    const r = a.getBoundingClientRect();
    if (box.left - reach < r.left || box.right + reach > r.right || box.top - reach < r.top || box.bottom + reach > r.bottom) clipped = true;
  }
  return { focusVisible: el.matches(':focus-visible'), style: style.outlineStyle, width, offset: parseFloat(style.outlineOffset), clipped };
}`;

test('the column menu closes on Esc and on a click outside it; a range button’s focus ring is whole', async ({ page }) => {
  await openApp(page);
  const button = page.getByLabel('Columns of Endpoint budgets').first();
  const menu = page.getByRole('group', { name: 'Columns of Endpoint budgets' });
  await button.click();
  await expect(menu).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(button).toBeFocused();
  await button.click();
  await expect(menu).toBeVisible();
  await page.getByRole('heading', { level: 1, name: 'Budget' }).click();
  await expect(menu).toHaveCount(0);

  // On the same view: a focused range button shows its whole 2 px ring, in light and dark.
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const range = page.getByRole('group', { name: 'Time range' }).getByRole('button', { name: '5 min', exact: true });
    await page.keyboard.press('Tab'); // keyboard use: focus is visible from here on
    await range.focus();
    const ring = (await page.evaluate(`(${RING})(document.activeElement)`)) as {
      focusVisible: boolean;
      style: string;
      width: number;
      offset: number;
      clipped: boolean;
    };
    expect(ring).toMatchObject({ focusVisible: true, style: 'solid', width: 2, clipped: false });
    expect(ring.offset).toBeGreaterThanOrEqual(1);
  }
  await page.emulateMedia({ colorScheme: 'light' });
});

test('Settings shows the built-in demo’s public tokens beside it, and masks a real profile’s', async ({ page }) => {
  const sim = await bridgeCall('simState', {});
  await bridgeCall('saveProfile', {
    name: REAL,
    vendor: 'demo',
    baseUrl: sim!.url,
    addTokens: ['demo-token-2'],
    tokenPresentation: { header: 'Authorization', scheme: 'Bearer' },
    pageSizeParam: 'per-page',
    idField: 'id',
  });
  await openApp(page, 'Settings');
  const profiles = page.getByRole('list', { name: 'Vendor profiles' });
  const demo = profiles.getByRole('listitem', { name: 'Built-in demo service', exact: true });
  await expect(demo).toContainText('demo-token-1, demo-token-2');
  await expect(demo).toContainText('public demo tokens');
  // The same token text, on a profile of the user's: masked.
  const real = profiles.getByRole('listitem', { name: REAL });
  await expect(real).toBeVisible();
  await expect(real).not.toContainText('demo-token-2');
  await expect(real).toContainText('…');
  await screenshot(page, 'settings-demo-tokens');
});
