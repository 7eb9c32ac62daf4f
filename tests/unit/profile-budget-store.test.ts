/**
 * The profile's budget store field: redis:// and rediss:// URLs and `machine` accepted, anything else refused in
 * words; credentials sealed with the vault (never in the settings file), shown masked; the masked form
 * sent back keeps the stored URL, '' removes it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProfileStore, SETTINGS_FILE_NAME } from '../../electron/profiles';
import { memoryVault } from '../../electron/app/token-vault';
import { createSafeStorageVault } from '../../electron/shell/vault';
import { safeStorage } from '../fakes/electron';
import { profileInputSchema, profileViewSchema } from '../../shared/bridge/schemas';
import { maskStoreUrl } from '../../shared/budget-store-url';

const SECRET = 'r3dis-Pa55';
const base = { name: 'Acme', vendor: 'acme', baseUrl: 'https://partner.example.com', addTokens: ['tok-123456'] };

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'profile-store-url-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('profile budget store field', () => {
  it.each(['redis://10.0.0.5:6379/2', 'rediss://cache.example.com:6380', `redis://ops:${SECRET}@10.0.0.5/0`, ''])('accepts %s', (url) => {
    expect(profileInputSchema.safeParse({ ...base, budgetStore: url }).success).toBe(true);
  });

  it.each([
    ['http://10.0.0.5:6379', /must be a redis:\/\/host:port\/db URL or "machine", not http:/],
    ['10.0.0.5:6379', /must be a redis:\/\/host:port\/db URL/],
    [`redis://ops:${SECRET}@10.0.0.5:6379/cache`, /database "cache" that is not a number/],
    ['redis://169.254.169.254:6379/0', /link-local address \(169\.254\.169\.254\)/],
    ['redis://[fe80::1]:6379/0', /link-local address/],
    [`redis://ops:${SECRET}@metadata.google.internal/0`, /cloud metadata service/],
  ])('refuses %s in words, never repeating a password', (url, words) => {
    const parsed = profileInputSchema.safeParse({ ...base, budgetStore: url });
    expect(parsed.success).toBe(false);
    const message = parsed.error!.issues.map((i) => i.message).join(' ');
    expect(message).toMatch(words);
    expect(message).not.toContain(SECRET);
  });

  it('stores the URL whole, shows it masked, keeps it when the masked form comes back, removes it with ""', () => {
    const store = new ProfileStore({ dataDir: dir, vault: memoryVault() });
    const url = `redis://ops:${SECRET}@10.0.0.5:6379/2`;
    const view = store.save(profileInputSchema.parse({ ...base, budgetStore: url }));
    expect(profileViewSchema.parse(view).budgetStore).toBe('redis://***@10.0.0.5:6379/2');
    expect(JSON.stringify(store.list())).not.toContain(SECRET);
    expect(store.openBudgetStore(view.id)).toBe(url);

    // The form sends back what it showed, or nothing: the stored URL stays.
    store.save(profileInputSchema.parse({ ...base, id: view.id, addTokens: [], budgetStore: view.budgetStore }));
    expect(store.openBudgetStore(view.id)).toBe(url);
    store.save(profileInputSchema.parse({ ...base, id: view.id, addTokens: [] }));
    expect(store.openBudgetStore(view.id)).toBe(url);

    const cleared = store.save(profileInputSchema.parse({ ...base, id: view.id, addTokens: [], budgetStore: '' }));
    expect(cleared.budgetStore).toBeUndefined();
    expect(store.openBudgetStore(view.id)).toBeUndefined();
    expect(readFileSync(join(dir, SETTINGS_FILE_NAME), 'utf8')).not.toContain(SECRET);
  });

  it("takes `machine` (this machine's store) and keeps it as written", () => {
    const store = new ProfileStore({ dataDir: dir, vault: memoryVault() });
    const view = store.save(profileInputSchema.parse({ ...base, budgetStore: 'machine' }));
    expect(view.budgetStore).toBe('machine');
    expect(store.openBudgetStore(view.id)).toBe('machine');
    store.save(profileInputSchema.parse({ ...base, id: view.id, addTokens: [], budgetStore: view.budgetStore }));
    expect(store.openBudgetStore(view.id)).toBe('machine');
  });

  it('keeps a password out of the settings file (sealed with the vault, as tokens are); the URL survives a restart', () => {
    const vault = createSafeStorageVault(safeStorage as never, 'linux');
    const url = `redis://ops:${SECRET}@10.0.0.5:6379/2`;
    const view = new ProfileStore({ dataDir: dir, vault }).save(profileInputSchema.parse({ ...base, budgetStore: url }));
    expect(readFileSync(join(dir, SETTINGS_FILE_NAME), 'utf8')).not.toContain(SECRET);
    const again = new ProfileStore({ dataDir: dir, vault });
    expect(again.openBudgetStore(view.id)).toBe(url);
    expect(again.view(view.id).budgetStore).toBe('redis://***@10.0.0.5:6379/2');
    // A URL without credentials has nothing to seal and stays readable.
    const plain = again.save(profileInputSchema.parse({ ...base, id: view.id, addTokens: [], budgetStore: 'redis://10.0.0.6:6379/1' }));
    expect(again.openBudgetStore(plain.id)).toBe('redis://10.0.0.6:6379/1');
    expect(readFileSync(join(dir, SETTINGS_FILE_NAME), 'utf8')).not.toContain(SECRET);
  });

  it('seals a password written in plain by an earlier version the next time the profile is saved', () => {
    const vault = createSafeStorageVault(safeStorage as never, 'linux');
    const url = `redis://ops:${SECRET}@10.0.0.5:6379/2`;
    const view = new ProfileStore({ dataDir: dir, vault }).save(profileInputSchema.parse({ ...base, budgetStore: 'redis://10.0.0.5:6379/2' }));
    // As the earlier version wrote it: the whole URL in the file.
    const file = join(dir, SETTINGS_FILE_NAME);
    writeFileSync(file, readFileSync(file, 'utf8').replace('"redis://10.0.0.5:6379/2"', JSON.stringify(url)));
    const store = new ProfileStore({ dataDir: dir, vault });
    expect(store.openBudgetStore(view.id)).toBe(url);
    // The form sends back the masked form it showed.
    store.save(profileInputSchema.parse({ ...base, id: view.id, addTokens: [], budgetStore: store.view(view.id).budgetStore }));
    expect(readFileSync(file, 'utf8')).not.toContain(SECRET);
    expect(new ProfileStore({ dataDir: dir, vault }).openBudgetStore(view.id)).toBe(url);
  });

  it.each([
    [
      `redis://10.0.0.5:6379/0?password=${SECRET}`,
      /carries a password in its query: write credentials before the host \(redis:\/\/user:password@host:6379\/0\), where they are stored sealed/,
    ],
    [`redis://10.0.0.5:6379/0?username=ops&password=${SECRET}`, /carries a username in its query/],
    ['redis://10.0.0.5:6379/0?path=/var/run/redis.sock', /query option "path" that is not accepted \(only family, connectionName\)/],
    ['redis://10.0.0.5:6379/0?host=169.254.169.254', /query option "host" that is not accepted/],
    ['redis://10.0.0.5:6379/0?family=5', /query option family whose value is not accepted/],
  ])('refuses query credentials and options beyond the short list: %s', (url, words) => {
    const parsed = profileInputSchema.safeParse({ ...base, budgetStore: url });
    expect(parsed.success).toBe(false);
    const message = parsed.error!.issues.map((i) => i.message).join(' ');
    expect(message).toMatch(words);
    expect(message).not.toContain(SECRET);
  });

  it('accepts the short list of query options', () => {
    expect(profileInputSchema.safeParse({ ...base, budgetStore: 'redis://10.0.0.5:6379/0?family=6&connectionName=console-1' }).success).toBe(true);
  });

  it('a ?password= an earlier version wrote in plain leaves the settings file the next time the profile is saved', () => {
    const vault = createSafeStorageVault(safeStorage as never, 'linux');
    const url = `redis://10.0.0.5:6379/2?password=${SECRET}`;
    const view = new ProfileStore({ dataDir: dir, vault }).save(profileInputSchema.parse({ ...base, budgetStore: 'redis://10.0.0.5:6379/2' }));
    const file = join(dir, SETTINGS_FILE_NAME);
    writeFileSync(file, readFileSync(file, 'utf8').replace('"redis://10.0.0.5:6379/2"', JSON.stringify(url)));
    const store = new ProfileStore({ dataDir: dir, vault });
    expect(store.view(view.id).budgetStore).not.toContain(SECRET);
    store.save(profileInputSchema.parse({ ...base, id: view.id, addTokens: [], budgetStore: store.view(view.id).budgetStore }));
    expect(readFileSync(file, 'utf8')).not.toContain(SECRET);
  });

  it('masks user names and passwords, and spells out the default port', () => {
    expect(maskStoreUrl('redis://:pw@h/3')).toBe('redis://***@h:6379/3');
    expect(maskStoreUrl('rediss://h:6380')).toBe('rediss://h:6380');
  });
});
