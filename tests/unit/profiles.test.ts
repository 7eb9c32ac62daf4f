import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { profileInputSchema, profileViewSchema } from '../../shared/bridge/schemas';
import { isPartnerError } from '../../shared/errors';
import { ProfileStore, SETTINGS_FILE_NAME } from '../../electron/profiles';
import { normalizeBaseUrl } from '../../electron/client';
import type { ProfileInputDraft } from '../../electron/profiles';
import { memoryVault } from '../../electron/app/token-vault';
import { profileServiceMap } from '../../electron/service-map/profile-map';
import type { TokenVault } from '../../electron/app/token-vault';

/** A vault that survives a restart (like safeStorage) without keeping the token readable. */
function reversibleVault(): TokenVault {
  return {
    kind: 'os-encrypted',
    seal: (plain) => Buffer.from([...plain].reverse().join(''), 'utf8').toString('base64'),
    open: (sealed) => [...Buffer.from(sealed, 'base64').toString('utf8')].reverse().join(''),
  };
}

const input = (draft: ProfileInputDraft) => profileInputSchema.parse(draft);
const TOKEN_A = 'acme-secret-token-AAAA';
const TOKEN_B = 'acme-secret-token-BBBB';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'profiles-test-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('ProfileStore', () => {
  it('persists profiles and settings and reloads them', () => {
    const vault = reversibleVault();
    const store = new ProfileStore({ dataDir: dir, vault });
    expect(store.settingsProblem).toBeNull();
    const view = store.save(input({ name: 'Acme', vendor: 'acme', baseUrl: 'https://partner.example.com/api/', addTokens: [TOKEN_A, TOKEN_B, TOKEN_A] }));
    expect(profileViewSchema.safeParse(view).success).toBe(true);
    expect(view).toMatchObject({
      name: 'Acme',
      vendor: 'acme',
      baseUrl: 'https://partner.example.com/api',
      demo: false,
      pageSizeParam: 'per-page',
      idField: 'id',
    });
    expect(view.tokens.map((t) => t.masked)).toEqual(['acme…AA', 'acme…BB']);
    store.setActive(view.id);
    store.saveSettings({ theme: 'dark', pageSize: 50 });
    expect(store.settings().giveUpAfterMinutes).toBeUndefined(); // absent: the default (DEFAULT_GIVE_UP_AFTER_MINUTES)
    store.saveSettings({ giveUpAfterMinutes: 30 });

    const again = new ProfileStore({ dataDir: dir, vault });
    expect(again.list()).toEqual([view]);
    expect(again.activeId).toBe(view.id);
    expect(again.settings()).toEqual({ theme: 'dark', pageSize: 50, timeoutMs: 15_000, downloadDir: join(dir, 'downloads'), giveUpAfterMinutes: 30 });
    expect(again.openTokens(view.id)).toEqual([TOKEN_A, TOKEN_B]);
  });

  it('keeps what a save leaves out (another window, a script, a form opened before the service taught a name)', () => {
    const store = new ProfileStore({ dataDir: dir, vault: memoryVault() });
    const first = store.save(
      input({ name: 'Acme', vendor: 'acme', baseUrl: 'https://p.example.com', addTokens: [TOKEN_A], tokenPresentation: { header: 'X-Api-Key', scheme: null } }),
    );
    // The service taught its page-size name since (a 400, or detection): saved into the profile's map.
    const record = store.get(first.id)!;
    store.saveServiceMap(first.id, { ...profileServiceMap(record), list: { ...profileServiceMap(record).list, pageSizeParam: 'limit' } });
    const renamed = store.save(input({ id: first.id, name: 'Acme EU', vendor: 'acme', baseUrl: 'https://p.example.com' }));
    expect(renamed).toMatchObject({ name: 'Acme EU', tokenPresentation: { header: 'X-Api-Key', scheme: null }, pageSizeParam: 'limit', idField: 'id' });
    // What a save does name is written; a new profile without them gets the defaults.
    expect(store.save(input({ id: first.id, name: 'Acme EU', vendor: 'acme', baseUrl: 'https://p.example.com', pageSizeParam: 'size' })).pageSizeParam).toBe(
      'size',
    );
    expect(store.save(input({ name: 'New', vendor: 'new', baseUrl: 'https://n.example.com', addTokens: [TOKEN_B] }))).toMatchObject({
      tokenPresentation: { header: 'Authorization', scheme: 'Bearer' },
      pageSizeParam: 'per-page',
      idField: 'id',
    });
  });

  it("stores the base URL in the client's spelling, the one the budget registry keys on", () => {
    const store = new ProfileStore({ dataDir: dir, vault: memoryVault() });
    const view = store.save(input({ name: 'Acme', vendor: 'acme', baseUrl: 'HTTPS://Partner.Example.com:443/api//?x=1#top', addTokens: [TOKEN_A] }));
    expect(view.baseUrl).toBe('https://partner.example.com/api');
    expect(view.baseUrl).toBe(normalizeBaseUrl('https://partner.example.com/api/'));
  });

  it('never writes a plain token to disk, and shows tokens masked only', () => {
    const store = new ProfileStore({ dataDir: dir, vault: memoryVault() });
    const view = store.save(input({ name: 'Acme', vendor: 'acme', baseUrl: 'https://x.example', addTokens: [TOKEN_A] }));
    store.save(input({ id: view.id, name: 'Acme 2', vendor: 'acme', baseUrl: 'https://x.example', addTokens: [TOKEN_B] }));
    const text = readFileSync(join(dir, SETTINGS_FILE_NAME), 'utf8');
    expect(text).not.toContain(TOKEN_A);
    expect(text).not.toContain(TOKEN_B);
    expect(text).not.toContain('secret-token');
    expect(JSON.stringify(store.list())).not.toContain('secret-token');
    expect(store.knownTokens()).toEqual(expect.arrayContaining([TOKEN_A, TOKEN_B]));
  });

  it('removes tokens by id and refuses a profile with no token, unknown ids and relative download dirs', () => {
    const store = new ProfileStore({ dataDir: dir, vault: memoryVault() });
    const view = store.save(input({ name: 'Acme', vendor: 'acme', baseUrl: 'https://x.example', addTokens: [TOKEN_A, TOKEN_B] }));
    const fewer = store.save(input({ id: view.id, name: 'Acme', vendor: 'acme', baseUrl: 'https://x.example', removeTokenIds: [view.tokens[0]!.id] }));
    expect(fewer.tokens.map((t) => t.id)).toEqual([view.tokens[1]!.id]);
    const refuse = (f: () => unknown, code: string, text: RegExp) => {
      try {
        f();
        expect.unreachable();
      } catch (e) {
        expect(isPartnerError(e) && e.code).toBe(code);
        expect((e as Error).message).toMatch(text);
      }
    };
    refuse(
      () => store.save(input({ id: view.id, name: 'Acme', vendor: 'acme', baseUrl: 'https://x.example', removeTokenIds: [fewer.tokens[0]!.id] })),
      'BAD_REQUEST',
      /at least one token/,
    );
    refuse(() => store.save(input({ id: view.id, name: 'A', vendor: 'a', baseUrl: 'https://x.example', removeTokenIds: ['t_nope'] })), 'BAD_REQUEST', /t_nope/);
    refuse(() => store.save(input({ id: 'p_unknown', name: 'A', vendor: 'a', baseUrl: 'https://x.example', addTokens: ['x'] })), 'NOT_FOUND', /p_unknown/);
    refuse(() => store.saveSettings({ downloadDir: 'relative/dir' }), 'BAD_REQUEST', /absolute/);
    refuse(
      () => store.save(input({ name: 'A', vendor: 'a', baseUrl: 'https://x.example', addTokens: ['two words'] })),
      'BAD_REQUEST',
      /addTokens\.0: .*visible ASCII/,
    );
    refuse(
      () =>
        store.save(
          input({ name: 'A', vendor: 'a', baseUrl: 'https://x.example', addTokens: ['ok'], tokenPresentation: { header: 'X-Key', scheme: 'Two words' } }),
        ),
      'BAD_REQUEST',
      /scheme/,
    );
    store.remove(view.id);
    expect(store.list()).toEqual([]);
  });

  it('keeps ephemeral profiles in memory only', () => {
    const store = new ProfileStore({ dataDir: dir, vault: memoryVault() });
    const eph = store.save(input({ name: 'Flag', vendor: 'acme', baseUrl: 'http://127.0.0.1:9', addTokens: [TOKEN_A] }), { ephemeral: true });
    expect(store.list().map((p) => p.id)).toEqual([eph.id]);
    expect(store.openTokens(eph.id)).toEqual([TOKEN_A]);
    expect(new ProfileStore({ dataDir: dir, vault: memoryVault() }).list()).toEqual([]);
  });

  it('moves a corrupt settings file aside, reports it, and starts on defaults', () => {
    mkdirSync(dir, { recursive: true });
    const garbage = '{"version":1,"profiles":[{"id": tru';
    writeFileSync(join(dir, SETTINGS_FILE_NAME), garbage);
    const store = new ProfileStore({ dataDir: dir, vault: memoryVault(), now: () => Date.UTC(2025, 0, 2, 3, 4, 5) });
    expect(store.settingsProblem).toMatch(/not valid JSON/);
    expect(store.settingsProblem).toContain('config.json.corrupt-2025-01-02T03-04-05-000Z');
    expect(store.list()).toEqual([]);
    const aside = readdirSync(dir).filter((f) => f.startsWith('config.json.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dir, aside[0]!), 'utf8')).toBe(garbage);
    // Saving afterwards writes a fresh file and leaves the corrupt copy alone.
    store.saveSettings({ theme: 'light' });
    expect(JSON.parse(readFileSync(join(dir, SETTINGS_FILE_NAME), 'utf8')).settings.theme).toBe('light');
    expect(readFileSync(join(dir, aside[0]!), 'utf8')).toBe(garbage);
  });

  it('puts invalid preferences of a hand-edited file back to their defaults, names them, and keeps the profiles', () => {
    const store = new ProfileStore({ dataDir: dir, vault: memoryVault() });
    const view = store.save(input({ name: 'Acme', vendor: 'acme', baseUrl: 'https://x.example', addTokens: [TOKEN_A] }));
    store.saveSettings({ theme: 'dark', pageSize: 50 });
    const file = JSON.parse(readFileSync(join(dir, SETTINGS_FILE_NAME), 'utf8'));
    writeFileSync(join(dir, SETTINGS_FILE_NAME), JSON.stringify({ ...file, settings: { ...file.settings, giveUpAfterMinutes: 0, timeoutMs: 'soon' } }));
    const again = new ProfileStore({ dataDir: dir, vault: memoryVault() });
    expect(again.list().map((p) => p.id)).toEqual([view.id]);
    expect(again.settings()).toMatchObject({ theme: 'dark', pageSize: 50, timeoutMs: 15_000 });
    expect(again.settings().giveUpAfterMinutes).toBeUndefined();
    expect(again.settingsProblem).toContain('settings.giveUpAfterMinutes = 0 (Too small');
    expect(again.settingsProblem).toContain('settings.timeoutMs = "soon" (Invalid input');
    expect(readdirSync(dir).some((f) => f.startsWith('config.json.corrupt-'))).toBe(false);
  });

  it('treats valid JSON of the wrong shape as corrupt and names the field', () => {
    writeFileSync(join(dir, SETTINGS_FILE_NAME), JSON.stringify({ version: 1, profiles: [{ id: 'p1' }], activeId: null, settings: {} }));
    const store = new ProfileStore({ dataDir: dir, vault: memoryVault() });
    expect(store.settingsProblem).toMatch(/profiles\.0\.name/);
    expect(readdirSync(dir).some((f) => f.startsWith('config.json.corrupt-'))).toBe(true);
  });

  it('reports tokens a vault cannot open without showing them', () => {
    const store = new ProfileStore({ dataDir: dir, vault: memoryVault() });
    const view = store.save(input({ name: 'Acme', vendor: 'acme', baseUrl: 'https://x.example', addTokens: [TOKEN_A] }));
    // Another run's memory vault cannot open these handles.
    const later = new ProfileStore({ dataDir: dir, vault: memoryVault() });
    try {
      later.openTokens(view.id);
      expect.unreachable();
    } catch (e) {
      expect(isPartnerError(e) && e.code).toBe('UNAUTHORIZED');
      expect((e as Error).message).toContain('acme…AA');
      expect((e as Error).message).not.toContain(TOKEN_A);
    }
  });
});
