/**
 * axe-core's WCAG 2.1 A/AA rules on every view the navigation offers, light and dark: no serious or
 * critical violation. One page, moved by the nav links as a user would, in one theme and then the other.
 */
import AxeBuilder from '@axe-core/playwright';
import axe from 'axe-core';
import { expect, test } from './fixtures';
import type { Page } from '@playwright/test';
import { drawnTheme, openApp } from './helpers';

const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const BLOCKING = new Set(['serious', 'critical']);

/**
 * axe-core goes into the page once (the views change by the hash, the document stays): AxeBuilder would
 * evaluate its 1.5 MB again on every check, and once more in a blank page to merge the frames' results.
 * The app has no frames, so axe.run in the page (legacy mode) checks the same elements with the same rules.
 */
async function injectAxe(page: Page): Promise<void> {
  await page.evaluate(axe.source);
}

/** The serious and critical violations on the page as it is (or in `only`, a selector), one line per rule with its targets. */
async function blockingViolations(page: Page, view: string, only?: string): Promise<string[]> {
  // `window.axe` throws (and the check fails) if the page lost the injected axe.
  const builder = new AxeBuilder({ page, axeSource: 'window.axe.version' }).setLegacyMode().withTags(WCAG_21_AA);
  const { violations } = await (only ? builder.include(only) : builder).analyze();
  return violations
    .filter((v) => BLOCKING.has(v.impact ?? ''))
    .map((v) => {
      const nodes = v.nodes.slice(0, 5).map((n) => `    ${n.target.join(' ')}: ${(n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 220)}`);
      const more = v.nodes.length > 5 ? [`    ... and ${v.nodes.length - 5} more`] : [];
      return [`${view}: ${v.id} (${v.impact}, ${v.nodes.length} elements) ${v.help}`, ...nodes, ...more].join('\n');
    });
}

// One page for both themes (the theme is the system's, switched as a user would): the app is opened, axe
// injected and each view's code fetched once.
test('no serious or critical WCAG 2.1 A/AA violation on any view, light and dark', async ({ page }) => {
  test.setTimeout(180_000);
  await openApp(page);
  await injectAxe(page);
  expect(await page.evaluate('window.frames.length'), 'no frames: axe.run in the page checks everything').toBe(0);
  const links = page.getByRole('navigation', { name: 'Main' }).getByRole('link');
  const count = await links.count();
  expect(count).toBeGreaterThanOrEqual(8);
  const failures: string[] = [];
  for (const theme of ['light', 'dark'] as const) {
    // A step per theme: a check that stops the walk names the theme it stopped at.
    await test.step(theme, async () => {
      await page.emulateMedia({ colorScheme: theme });
      await expect.poll(() => page.evaluate<boolean>(`matchMedia('(prefers-color-scheme: ${theme})').matches`)).toBe(true);
      await expect.poll(() => drawnTheme(page)).toBe(theme);
      for (let i = 0; i < count; i++) {
        await links.nth(i).click();
        await expect(links.nth(i)).toHaveAttribute('aria-current', 'page');
        const heading = page.locator('main h1').first();
        await expect(heading).toBeVisible();
        await expect(page.locator('main .state-loading, main [aria-busy="true"]')).toHaveCount(0);
        const view = `${(await heading.innerText()).trim()}, ${theme}`;
        // A view that redraws every second makes axe re-lay out the page for each element (minutes under
        // load): its Live control is checked while live, then the view is paused and checked whole.
        const live = page.locator('main [data-shortcut="live"]');
        if ((await live.count()) > 0) {
          // Live again if the view kept the pause of the theme before.
          if ((await live.getAttribute('aria-pressed')) === 'true') await live.click();
          await expect(live).toHaveAttribute('aria-pressed', 'false');
          failures.push(...(await blockingViolations(page, `${view} (Live control)`, '[data-shortcut="live"]')));
          await live.click();
          await expect(live).toHaveAttribute('aria-pressed', 'true');
        }
        failures.push(...(await blockingViolations(page, view)));
      }
    });
  }
  expect(failures, `${failures.length} rules violated:\n${failures.join('\n')}`).toEqual([]);
});
