/** Settings: a vendor profile is added (token masked), tested, edited and removed; the theme follows the setting. */
import { expect, test } from './fixtures';
import { bridgeCall, openApp, screenshot } from './helpers';

const NAME = 'Acme QA (e2e)';

test.afterEach(async () => {
  const { items } = await bridgeCall('listProfiles', {});
  for (const p of items) if (p.name.startsWith('Acme QA')) await bridgeCall('removeProfile', { id: p.id });
  await bridgeCall('saveSettings', { theme: 'system', giveUpAfterMinutes: 10 });
});

test('a profile is added with a masked token, tested, edited and removed', async ({ page }) => {
  const sim = await bridgeCall('simState', {});
  test.skip(sim === null, 'needs the embedded simulator');
  await openApp(page, 'Settings');
  const profiles = page.getByRole('list', { name: 'Vendor profiles' });
  await expect(profiles.getByRole('listitem')).not.toHaveCount(0);

  await page.getByRole('button', { name: 'Add profile' }).click();
  await page.getByRole('textbox', { name: 'Name' }).fill(NAME);
  await page.getByRole('textbox', { name: 'Vendor' }).fill('acme');
  await page.getByRole('textbox', { name: 'Base URL' }).fill(sim!.url);
  const token = page.getByLabel('New token 1');
  await expect(token).toHaveAttribute('type', 'password');
  await token.fill('acme-token-1');
  await page.getByRole('button', { name: 'Save profile' }).click();

  const row = profiles.getByRole('listitem').filter({ hasText: NAME });
  await expect(row).toBeVisible();
  await expect(row).toContainText('acme');
  // The token never comes back in full (the built-in demo's card shows the same public token text: not this one's).
  await expect(row).not.toContainText('acme-token-1');
  await expect(row).toContainText('…');

  await row.getByRole('button', { name: 'Test' }).click();
  await expect(row).toContainText(/OK · 200 · .* · Limit \d+ · Remaining \d+ · Reset \d+/);
  await screenshot(page, 'settings-profiles');

  await row.getByRole('button', { name: 'Edit' }).click();
  await page.getByRole('textbox', { name: 'Name' }).fill(`${NAME} renamed`);
  await page.getByRole('button', { name: 'Save profile' }).click();
  const renamed = profiles.getByRole('listitem').filter({ hasText: `${NAME} renamed` });
  await expect(renamed).toBeVisible();

  await renamed.getByRole('button', { name: 'Remove' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove this profile?' });
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(renamed).toHaveCount(0);
});

test('renaming a profile in the form changes nothing else it sends: a bare token stays bare', async ({ page }) => {
  const sim = await bridgeCall('simState', {});
  test.skip(sim === null, 'needs the embedded simulator');
  const saved = await bridgeCall('saveProfile', {
    name: NAME,
    vendor: 'acme',
    baseUrl: sim!.url,
    addTokens: ['acme-token-1'],
    tokenPresentation: { header: 'X-Api-Key', scheme: null },
  });
  await openApp(page, 'Settings');
  const row = page.getByRole('list', { name: 'Vendor profiles' }).getByRole('listitem').filter({ hasText: NAME });
  await row.getByRole('button', { name: 'Edit' }).click();
  await page.getByRole('textbox', { name: 'Name' }).fill(`${NAME} renamed`);
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(
    page
      .getByRole('list', { name: 'Vendor profiles' })
      .getByRole('listitem')
      .filter({ hasText: `${NAME} renamed` }),
  ).toBeVisible();
  const after = (await bridgeCall('listProfiles', {})).items.find((p) => p.id === saved.id);
  expect(after).toMatchObject({ name: `${NAME} renamed`, tokenPresentation: { header: 'X-Api-Key', scheme: null } });
});

test('the profile form says what each field lacks, and refuses a second profile of the same name', async ({ page }) => {
  await openApp(page, 'Settings');
  await page.getByRole('button', { name: 'Add profile' }).click();
  await page.getByRole('button', { name: 'Save profile' }).click();
  const form = page.getByRole('form', { name: 'New profile' });
  await expect(form.getByText('Give the profile a name')).toBeVisible();
  await expect(form.getByText("Give the vendor's name")).toBeVisible();
  await expect(form.getByText("Give the service's base URL")).toBeVisible();
  await expect(form.getByText('Add at least one token')).toBeVisible();
  const nameBox = form.getByRole('textbox', { name: /^Name/ });
  await expect(nameBox).toHaveAttribute('aria-invalid', 'true');
  await expect(nameBox).toBeFocused();

  // The demo profile's name is taken.
  await nameBox.fill('built-in DEMO service');
  await form.getByRole('textbox', { name: /^Vendor/ }).fill('acme');
  await form.getByRole('textbox', { name: /^Base URL/ }).fill('https://partner.example.com/api');
  await form.getByLabel('New token 1').fill('acme-token-1');
  await form.getByRole('button', { name: 'Save profile' }).click();
  await expect(form.getByText(/A profile named "built-in DEMO service" exists already/)).toBeVisible();
  await expect(form.getByText("Give the vendor's name")).toHaveCount(0);
  const { items } = await bridgeCall('listProfiles', {});
  expect(items.filter((p) => p.name.toLowerCase() === 'built-in demo service')).toHaveLength(1);
  await screenshot(page, 'settings-form-problems');
});

test('the theme setting overrides the system theme', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await openApp(page, 'Settings');
  await page.getByRole('combobox', { name: 'Theme' }).selectOption('dark');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  const background = await page.evaluate('getComputedStyle(document.body).backgroundColor');
  expect(background).not.toBe('rgb(244, 245, 247)');
  await screenshot(page, 'settings-dark');
  await page.getByRole('combobox', { name: 'Theme' }).selectOption('system');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'system');
});

test('how long background work waits without any success is a preference, kept across a reload', async ({ page }) => {
  await openApp(page, 'Settings');
  const field = page.getByLabel('Give up background work after (min)');
  await expect(field).toHaveValue('10');
  await field.fill('30');
  await page.getByRole('button', { name: 'Save preferences' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  expect((await bridgeCall('getSettings', {})).giveUpAfterMinutes).toBe(30);
  await page.reload();
  await expect(page.getByLabel('Give up background work after (min)')).toHaveValue('30');
});
