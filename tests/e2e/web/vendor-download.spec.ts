/** Vendor staff download the whole catalog: start, pause, resume, and see where the file is. */
import { expect, test } from './fixtures';
import { bridgeCall, numberIn, openApp, screenshot } from './helpers';

test.afterEach(async () => {
  // The download is its profile's: cancelled (and its files deleted) as that profile's.
  const { profileId } = await bridgeCall('downloadStatus', {}).catch(() => ({ profileId: null }));
  if (profileId !== null) await bridgeCall('downloadCancel', { deleteFiles: true, profileId }).catch(() => undefined);
  await bridgeCall('simSetFaults', { latencyMs: 0, jitterMs: 0 });
});

test('vendor staff download the whole catalog with pause and resume', async ({ page }) => {
  // Some latency so that there is time to pause (5,000 items are otherwise ~3 s).
  await bridgeCall('simSetFaults', { latencyMs: 80, jitterMs: 0 });
  await openApp(page, 'Catalog');
  const panel = page.getByRole('region', { name: 'Download whole catalog' });
  await panel.getByRole('combobox', { name: 'Format' }).selectOption('csv');
  await panel.getByRole('button', { name: 'Start download' }).click();

  const progress = panel.getByRole('progressbar', { name: 'Catalog download progress' });
  await expect.poll(async () => Number(await progress.getAttribute('aria-valuenow'))).toBeGreaterThan(0);
  await panel.getByRole('button', { name: 'Pause' }).click();
  await expect(panel.getByText('Paused', { exact: true })).toBeVisible();
  const pausedAt = Number(await progress.getAttribute('aria-valuenow'));
  await page.waitForTimeout(700);
  expect(Number(await progress.getAttribute('aria-valuenow'))).toBe(pausedAt);
  await expect(panel.getByText(/Writing to/)).toBeVisible();

  await panel.getByRole('button', { name: 'Resume' }).click();
  await expect(panel.getByText('Complete', { exact: true })).toBeVisible({ timeout: 30_000 });
  const total = Number(await progress.getAttribute('aria-valuemax'));
  expect(total).toBeGreaterThan(1000);
  await expect(progress).toHaveAttribute('aria-valuenow', String(total));
  const pages = numberIn(await panel.getByText('Pages').locator('xpath=following-sibling::dd').innerText());
  expect(pages).toBeGreaterThanOrEqual(Math.ceil(total / 100));
  // Browser mode: the path to copy (the file is on the computer running browser mode).
  const saved = panel.getByRole('textbox', { name: /Saved to/ });
  await expect(saved).toHaveValue(/\.csv$/);
  await expect(panel.getByRole('button', { name: 'Copy' })).toBeVisible();
  await screenshot(page, 'vendor-download');

  // After the download, and after leaving the view, the format shown is still the one used.
  await expect(panel.getByRole('combobox', { name: 'Format' })).toHaveValue('csv');
  await page.reload();
  await expect(page.getByRole('region', { name: 'Download whole catalog' }).getByRole('combobox', { name: 'Format' })).toHaveValue('csv');
});

test('a download stopped by a disconnect is offered to resume, and a plain start does not replace it', async ({ page }) => {
  await bridgeCall('simSetFaults', { latencyMs: 80, jitterMs: 0 });
  await openApp(page, 'Catalog');
  const panel = page.getByRole('region', { name: 'Download whole catalog' });
  await panel.getByRole('combobox', { name: 'Format' }).selectOption('jsonl');
  await panel.getByRole('button', { name: 'Start download' }).click();
  // Until the start is answered the panel still shows the previous test's finished download and its pages.
  await expect(panel.getByText('Downloading', { exact: true })).toBeVisible();
  // Two pages written and checkpointed: what a disconnect leaves to resume.
  const pages = panel.getByText('Pages').locator('xpath=following-sibling::dd');
  await expect.poll(async () => numberIn(await pages.innerText())).toBeGreaterThanOrEqual(2);

  // Another demo profile keeps the built-in service running while this one is disconnected and connected again.
  const { profileId } = await bridgeCall('connection', {});
  await bridgeCall('connectProfile', { id: 'demo-acme' });
  try {
    await bridgeCall('disconnectProfile', { id: profileId! });
    await bridgeCall('selectProfile', { id: profileId! });
    await page.reload();
    await expect(panel.getByText('Interrupted', { exact: true })).toBeVisible();
    await expect(panel.getByText(/stopped at page \d+/)).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Start download' })).toHaveCount(0);
    await expect(panel.getByRole('button', { name: 'Start over' })).toBeVisible();
    await screenshot(page, 'vendor-download-interrupted');
    await panel.getByRole('button', { name: 'Resume', exact: true }).click();
    await expect(panel.getByText('Complete', { exact: true })).toBeVisible({ timeout: 30_000 });
  } finally {
    await bridgeCall('disconnectProfile', { id: 'demo-acme' }).catch(() => undefined);
  }
});
