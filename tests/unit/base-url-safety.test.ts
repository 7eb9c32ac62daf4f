/**
 * Issue 11 item 13: credentials in a base URL are refused and never printed; link-local and cloud
 * metadata addresses are refused however they are written; a relative download folder is never used.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../electron/catalog/cli-args';
import { runCatalogCli } from '../../electron/catalog/cli-main';
import { ProfileStore, SETTINGS_FILE_NAME } from '../../electron/profiles';
import { memoryVault } from '../../electron/app/token-vault';
import { profileInputSchema } from '../../shared/bridge/schemas';
import { baseUrlProblem, hideUrlCredentials } from '../../shared/base-url';

const SECRET = 'pa55-w0rd-XYZ';
const LINK_LOCAL = [
  'http://169.254.169.254/latest/meta-data',
  'http://[::ffff:a9fe:a9fe]/',
  'http://[::ffff:169.254.169.254]/',
  'http://2852039166/', // 169.254.169.254 as one number
  'http://0xa9.0xfe.0xa9.0xfe/',
  'http://[fe80::1]/',
  'http://[FE80::]/',
  'http://metadata.google.internal/computeMetadata/v1/',
  'http://[fd00:ec2::254]/',
];

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'base-url-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('base URL safety', () => {
  it('accepts ordinary service URLs, loopback included', () => {
    for (const ok of ['http://127.0.0.1:8080', 'https://partner.example.com/api/v1', 'http://[::1]:9000', 'http://10.0.0.5', 'http://169.253.1.1'])
      expect(baseUrlProblem(ok)).toBeNull();
  });

  it('refuses link-local and metadata addresses however written', () => {
    for (const bad of LINK_LOCAL) expect(baseUrlProblem(bad), bad).toMatch(/link-local|metadata/);
  });

  it('a profile with credentials in its base URL is refused, and the message holds no credential', () => {
    const store = new ProfileStore({ dataDir: dir, vault: memoryVault() });
    let message = '';
    try {
      store.save(profileInputSchema.parse({ name: 'A', vendor: 'acme', baseUrl: `https://admin:${SECRET}@partner.example.com`, addTokens: ['tok-123456'] }));
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/must not carry a user name or password/);
    expect(message).not.toContain(SECRET);
    expect(store.list()).toHaveLength(0);
    for (const bad of LINK_LOCAL) {
      expect(() => store.save(profileInputSchema.parse({ name: 'A', vendor: 'acme', baseUrl: bad, addTokens: ['tok-123456'] })), bad).toThrow(
        /link-local|metadata/,
      );
    }
  });

  it('the catalog CLI refuses such a URL without printing the password', async () => {
    const parsed = parseCliArgs(['--base-url', `http://admin:${SECRET}@127.0.0.1:9`, '--token', 't'], {}, dir);
    expect(parsed.kind).toBe('error');
    let err = '';
    const code = await runCatalogCli(['--base-url', `http://admin:${SECRET}@127.0.0.1:9`, '--token', 't'], {
      stdout: { write: () => true },
      stderr: { write: (t: string) => (err += t) },
      env: {},
      cwd: dir,
      onInterrupt: () => () => undefined,
    });
    expect(code).toBe(2);
    expect(err).toMatch(/--base-url must not carry a user name or password/);
    expect(err).not.toContain(SECRET);
    expect(parseCliArgs(['--base-url', 'http://169.254.169.254', '--token', 't'], {}, dir)).toMatchObject({
      kind: 'error',
      message: expect.stringMatching(/link-local/),
    });
    expect(hideUrlCredentials(`failed at https://u:${SECRET}@h/x`)).toBe('failed at https://***@h/x');
  });

  it('a relative download folder is refused when saved and ignored when read from a hand-edited file', () => {
    const store = new ProfileStore({ dataDir: dir, vault: memoryVault() });
    expect(() => store.saveSettings({ downloadDir: '../../escape' })).toThrow(/absolute/);
    writeFileSync(join(dir, SETTINGS_FILE_NAME), JSON.stringify({ version: 1, profiles: [], activeId: null, settings: { downloadDir: '../../escape' } }));
    const reloaded = new ProfileStore({ dataDir: dir, vault: memoryVault() });
    expect(isAbsolute(reloaded.settings().downloadDir)).toBe(true);
    expect(reloaded.settings().downloadDir).toBe(join(dir, 'downloads'));
  });
});
