/**
 * Payload dialects in browser mode. The simulator panel switches the built-in demo's dialect.
 */
import { expect, test } from '@playwright/test';
import { bridgeCall, openApp, screenshot } from './helpers';

test.describe('simulator panel', () => {
  test.afterEach(async () => {
    if (await bridgeCall('simState', {})) await bridgeCall('simSetDialect', { dialect: 'default' });
  });

  test('the payload dialect selector switches the demo simulator', async ({ page }) => {
    const sim = await bridgeCall('simState', {});
    test.skip(sim === null, 'needs the embedded simulator');
    await openApp(page, 'Settings');
    const select = page.getByRole('combobox', { name: 'Payload dialect' });
    await expect(select).toHaveValue('default');
    await select.selectOption('snake-envelope');
    await expect(select).toHaveValue('snake-envelope');
    expect((await bridgeCall('simState', {}))!.dialect).toBe('snake-envelope');
    const page1 = await fetch(`${sim!.url}/assets/list?page_size=1`, { headers: { Authorization: 'Bearer demo-token-1' } });
    expect(((await page1.json()) as { status: string }).status).toBe('ok');
    await select.scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-sim-dialect');
  });
});
