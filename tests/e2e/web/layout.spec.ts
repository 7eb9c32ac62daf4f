/**
 * Every view at 1024x700 and 1440x900, light and dark, with classic and with overlay scrollbars (as on a
 * Mac with a trackpad: Chromium's OverlayScrollbar feature; MATRIX below says which combinations): no sideways scroll on the page or in any
 * box, no table whose last column is cut, and a detail that opens in view. A screenshot of each lands
 * in tests/e2e/screenshots/layout-*.png. Written by route, so views changed by others are checked too.
 */
import { chromium } from '@playwright/test';
import { expect, test } from './fixtures';
import type { Browser, Page } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumExecutable } from '../chromium-path';
import path from 'node:path';
import { drawnTheme, openApp, screenshot, SCREENSHOT_DIR } from './helpers';

const NARROW = { width: 1024, height: 700 };
const WIDE = { width: 1440, height: 900 };
/**
 * Layout changes with the width and the scrollbars, not with the theme (colours only), and overlay
 * scrollbars matter where room is short: four combinations instead of all eight keep the suite short.
 */
const MATRIX = {
  classic: [
    { size: NARROW, theme: 'light' },
    { size: NARROW, theme: 'dark' },
    { size: WIDE, theme: 'light' },
  ],
  overlay: [{ size: NARROW, theme: 'light' }],
} as const;

interface Overflow {
  what: string;
  scrollWidth: number;
  clientWidth: number;
}

/**
 * Boxes that scroll sideways (code blocks excepted: a long JSON line may), tables cut at their
 * container's edge, and headers cut short. Page code as a string: this file is type-checked without the DOM.
 */
const HORIZONTAL_PROBLEMS = `(() => {
  const describe = (el) => {
    const label = el.getAttribute('aria-label');
    return el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (label ? '[aria-label="' + label + '"]' : '') + '.' + [...el.classList].join('.');
  };
  const out = [];
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth) out.push({ what: 'page', scrollWidth: root.scrollWidth, clientWidth: root.clientWidth });
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('pre, .code-block, [data-allow-hscroll]')) continue;
    // A box that scrolls sideways (with overlay scrollbars: one whose end is simply cut off). Cells that
    // end in an ellipsis are meant to (their full text is the tooltip).
    const overflowX = getComputedStyle(el).overflowX;
    if (overflowX !== 'auto' && overflowX !== 'scroll') continue;
    if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) out.push({ what: describe(el), scrollWidth: el.scrollWidth, clientWidth: el.clientWidth });
  }
  for (const table of document.querySelectorAll('table')) {
    if (table.closest('pre, [data-allow-hscroll]') || table.getClientRects().length === 0) continue;
    const headers = table.querySelectorAll('thead th');
    const last = headers[headers.length - 1] || table;
    const edge = table.parentElement.getBoundingClientRect().right;
    const right = last.getBoundingClientRect().right;
    if (right > edge + 1) out.push({ what: 'last column of ' + describe(table), scrollWidth: Math.round(right), clientWidth: Math.round(edge) });
  }
  // Column headers are read in full: a header cut to "REMAI..." does not say what the column is.
  for (const th of document.querySelectorAll('main thead th')) {
    const label = th.querySelector('.dt-ellipsis') || th;
    if (th.getClientRects().length > 0 && label.scrollWidth > label.clientWidth + 1)
      out.push({ what: 'header "' + th.textContent.trim() + '"', scrollWidth: label.scrollWidth, clientWidth: label.clientWidth });
  }
  return out;
})()`;

/**
 * What the view looks like now: empty while anything says it is loading, else its size, rows, scroll and
 * opened detail. The view has settled when two reads 100 ms apart agree (data in, smooth scrolls ended).
 */
const LOOK = `(() => {
  if (document.querySelector('main .state-loading, main .spinner, main [aria-busy="true"]')) return '';
  const main = document.querySelector('main');
  const detail = document.querySelector('main aside.detail');
  const box = detail ? detail.getBoundingClientRect() : null;
  return [main.scrollWidth, main.scrollHeight, main.querySelectorAll('tr').length, window.scrollX, window.scrollY, box ? [box.top, box.left, box.width, box.height].join(' ') : ''].join('|');
})()`;

async function settled(page: Page): Promise<void> {
  let last = '';
  await expect
    .poll(
      async () => {
        const look = await page.evaluate<string>(LOOK);
        const same = look !== '' && look === last;
        last = look;
        return same;
      },
      { intervals: [100] },
    )
    .toBe(true);
}

async function horizontalProblems(page: Page): Promise<Overflow[]> {
  return page.evaluate<Overflow[]>(HORIZONTAL_PROBLEMS);
}

/** Opens the first clickable row's detail (if the view has one) and says where it landed. */
async function openFirstDetail(page: Page): Promise<{ top: number; bottom: number; left: number; right: number } | null> {
  const row = page.locator('main tbody tr.row-clickable').first();
  if ((await row.count()) === 0) return null;
  await row.click();
  const detail = page.locator('main aside.detail').first();
  if ((await detail.count()) === 0) return null;
  await expect(detail).toBeVisible();
  await settled(page); // smooth scrolls end
  const box = await detail.boundingBox(); // relative to the viewport
  return box ? { top: box.y, bottom: box.y + box.height, left: box.x, right: box.x + box.width } : null;
}

type Size = (typeof MATRIX)[keyof typeof MATRIX][number]['size'];
type Theme = (typeof MATRIX)[keyof typeof MATRIX][number]['theme'];

/**
 * Every view the navigation offers, in its order (Catalog before Requests: browsing fills the log), at one
 * size and theme: what is wrong is added to `failures`, and each view's screenshots are saved.
 */
async function walkViews(page: Page, size: Size, theme: Theme, scrollbars: 'classic' | 'overlay', failures: string[]): Promise<void> {
  const links = page.getByRole('navigation', { name: 'Main' }).getByRole('link');
  const count = await links.count();
  expect(count).toBeGreaterThanOrEqual(5);
  const at = `${size.width}x${size.height} ${theme}`;
  for (let i = 0; i < count; i++) {
    await links.nth(i).click();
    await expect(links.nth(i)).toHaveAttribute('aria-current', 'page');
    const heading = page.locator('main h1').first();
    await expect(heading).toBeVisible();
    const view = (await heading.innerText()).trim();
    await settled(page);
    const name = `layout-${view.toLowerCase().replace(/\W+/g, '-')}-${size.width}x${size.height}-${theme}${scrollbars === 'overlay' ? '-overlay' : ''}`;
    for (const p of await horizontalProblems(page)) failures.push(`${view} at ${at}: ${p.what} is ${p.scrollWidth} px wide in ${p.clientWidth} px`);
    await screenshot(page, name);
    const detail = await openFirstDetail(page);
    if (detail) {
      const inView = detail.top >= 0 && detail.top < size.height - 80 && detail.right <= size.width + 1 && detail.left >= 0;
      if (!inView)
        failures.push(
          `${view} at ${at}: the opened detail is not in view (top ${Math.round(detail.top)}, right ${Math.round(detail.right)} of ${size.width}x${size.height})`,
        );
      for (const p of await horizontalProblems(page))
        failures.push(`${view} at ${at} with its detail open: ${p.what} is ${p.scrollWidth} px wide in ${p.clientWidth} px`);
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-detail.png`) });
      await page.keyboard.press('Escape');
    }
  }
}

for (const scrollbars of ['classic', 'overlay'] as const) {
  test.describe(`layout with ${scrollbars} scrollbars`, () => {
    // Overlay scrollbars are a launch flag: those tests get a browser of their own.
    let overlayBrowser: Browser | null = null;
    test.beforeAll(async () => {
      if (scrollbars === 'overlay')
        overlayBrowser = await chromium.launch({ executablePath: chromiumExecutable(), args: [...CHROMIUM_ARGS, '--enable-features=OverlayScrollbar'] });
    });
    test.afterAll(async () => {
      await overlayBrowser?.close();
    });

    // One page walks every size and theme of the matrix (as a user resizes a window or switches the
    // system theme): the app is opened and each view's code is fetched once, not once per combination.
    const states = MATRIX[scrollbars];
    test(`every view at ${states.map(({ size, theme }) => `${size.width}x${size.height} ${theme}`).join(', ')}`, async ({ page: defaultPage }) => {
      test.setTimeout(120_000 * states.length);
      const page = overlayBrowser ? await overlayBrowser.newPage() : defaultPage;
      const failures: string[] = [];
      for (const [n, { size, theme }] of states.entries()) {
        // A step per state: a check that stops the walk names the size and theme it stopped at.
        await test.step(`${size.width}x${size.height} ${theme}`, async () => {
          await page.setViewportSize(size);
          await page.emulateMedia({ colorScheme: theme });
          if (n === 0) await openApp(page);
          await expect.poll(() => page.evaluate<boolean>(`matchMedia('(prefers-color-scheme: ${theme})').matches`)).toBe(true);
          await expect.poll(() => drawnTheme(page)).toBe(theme);
          if (scrollbars === 'overlay') {
            // The flag took: a scrolling box keeps its whole width (no scrollbar gutter).
            const gutter = await page.evaluate<number>(`(() => {
              const box = document.createElement('div');
              box.style.cssText = 'position:absolute;width:100px;height:50px;overflow:scroll';
              document.body.append(box);
              const g = box.offsetWidth - box.clientWidth;
              box.remove();
              return g;
            })()`);
            expect(gutter, 'overlay scrollbars take no width').toBe(0);
          }
          await walkViews(page, size, theme, scrollbars, failures);
        });
      }
      expect(failures, failures.join('\n')).toEqual([]);
    });
  });
}

test('a banner that appears neither scrolls the page nor hides under the header', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  await openApp(page);
  await page.evaluate('window.scrollTo(0, 240)');
  const before = await page.evaluate<number>('window.scrollY');
  expect(before).toBeGreaterThan(0);
  // The same element the app's status banners are: added at the top of the view, above what the user reads.
  await page.evaluate(`(() => {
    const banner = document.createElement('div');
    banner.className = 'banner banner-warn';
    banner.setAttribute('role', 'status');
    banner.textContent = 'Another consumer is using this vendor budget.';
    const view = document.querySelector('main .view');
    view.insertBefore(banner, view.children[1] || null);
  })()`);
  await page.waitForTimeout(200);
  expect(await page.evaluate<number>('window.scrollY')).toBe(before);
  // The app-wide banner sits in the sticky head with the top bar: whole and below the bar whatever the scroll.
  await expect(page.locator('.app-head')).toHaveCSS('position', 'sticky');
});

test("a table's column chooser (built only while open) shows, hides a column and closes", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openApp(page, 'Budget');
  const table = page.locator('main table.dt').first();
  const headers = table.locator('thead th[data-col]');
  await expect(headers).not.toHaveCount(0);
  const before = await headers.count();
  await table.locator('summary.dt-columns-button').click();
  const menu = table.getByRole('group', { name: /Columns of/ });
  await expect(menu).toBeVisible();
  const box = menu.locator('input[type=checkbox]:not([disabled])').last();
  await box.uncheck();
  await expect(headers).toHaveCount(before - 1);
  await box.check();
  await expect(headers).toHaveCount(before);
  await table.locator('summary.dt-columns-button').click();
  await expect(menu).toHaveCount(0);
});
