/**
 * A cursor names a place in one service's catalog: the Catalog paged on one profile, then another profile chosen in
 * the header, shows the other one's first page, never its page after the first profile's cursor under "Page 3".
 */
import { expect, test } from './fixtures';
import { openConsole } from '../pages/app';
import { bridgeCall } from './helpers';

const ACME = 'demo-acme';

async function backToDemo(): Promise<void> {
  const connected = (await bridgeCall('connectedProfiles', {})).items;
  if (!connected.some((p) => p.profileId === 'demo' && p.active)) await bridgeCall('selectProfile', { id: 'demo' });
  if (connected.some((p) => p.profileId === ACME)) await bridgeCall('disconnectProfile', { id: ACME });
}

test.beforeEach(backToDemo);
test.afterEach(backToDemo);

test('another profile chosen while paging starts at its own first page', async ({ page }) => {
  await bridgeCall('saveSettings', { pageSize: 20 });
  await bridgeCall('connectProfile', { id: ACME });
  await bridgeCall('selectProfile', { id: 'demo' });
  const catalog = await (await openConsole(page)).catalog.open();
  await expect(catalog.position(1)).toBeVisible();
  await catalog.nextPage.click();
  await expect(catalog.position(2)).toBeVisible();
  await catalog.nextPage.click();
  await expect(catalog.position(3)).toBeVisible();

  await page.getByRole('combobox', { name: 'Active profile' }).selectOption(ACME);
  await expect(page.getByRole('status', { name: /Connection:/ })).toContainText('acme');
  await expect(catalog.position(1)).toBeVisible();
  await expect(catalog.position(3)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Previous page' })).toBeDisabled();
});
