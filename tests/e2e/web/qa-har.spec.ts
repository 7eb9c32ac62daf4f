/** QA export part of the request log as HAR 1.2 and replay it into the built-in simulator from Settings. */
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import harSdk from '@har-sdk/validator';
import type { Har } from 'har-format';
import { expect, test } from './fixtures';
import { openApp, screenshot } from './helpers';

test('QA export the filtered log as HAR, replay it in Settings, and get words for a file that is not a HAR', async ({ page }) => {
  // A search only this spec makes: its body holds a word the Requests search then finds (main searches bodies).
  const word = `qahar${Date.now().toString(36)}`;
  await openApp(page, 'Catalog');
  await page.getByRole('searchbox', { name: 'Search assets' }).fill(word);
  await expect(page.getByText(/No asset matches/i).first()).toBeVisible();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Requests' }).click();
  await page.getByRole('combobox', { name: 'Filter by endpoint' }).selectOption({ label: 'POST /assets/search' });
  await page.getByRole('searchbox', { name: 'Search requests' }).fill(word);
  await expect(page.getByRole('table', { name: 'Request log' }).locator('tbody tr[data-row-id]').first()).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export HAR' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^requests-.*\.har$/);
  const file = path.join(tmpdir(), `qa-${Date.now()}.har`);
  await download.saveAs(file);
  const text = readFileSync(file, 'utf8');
  const har = JSON.parse(text) as Har;
  // The validator has its own Har type; it checks the parsed text against the HAR 1.2 JSON schema.
  expect(await new harSdk.HarValidator().verify(JSON.parse(text))).toEqual([]);
  expect(har.log.entries.length).toBeGreaterThanOrEqual(1);
  for (const e of har.log.entries) {
    expect(new URL(e.request.url).pathname).toBe('/assets/search');
    expect(e.request.postData?.text).toContain(word);
  }
  expect(text).not.toContain('demo-token-1');
  await expect(page.getByRole('status').filter({ hasText: /requests exported/ })).toBeVisible();
  await screenshot(page, 'qa-har-export');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  const replay = page.getByRole('group', { name: 'Replay a HAR file' });
  await replay.getByLabel('HAR file to replay').setInputFiles(file);
  await expect(replay.getByText(new RegExp(`done: ${har.log.entries.length} of ${har.log.entries.length}`))).toBeVisible({ timeout: 20_000 });
  await expect(replay.getByRole('status')).toContainText(`POST /assets/search: ${har.log.entries.length}/${har.log.entries.length}`);

  const notHar = path.join(tmpdir(), `qa-${Date.now()}.csv`);
  writeFileSync(notHar, 'id,name\n1,castle\n');
  await replay.getByLabel('HAR file to replay').setInputFiles(notHar);
  await expect(replay.getByRole('alert')).toContainText('is not JSON, so it is not a HAR file');
  await replay.scrollIntoViewIfNeeded();
  await screenshot(page, 'qa-har-replay');
});
