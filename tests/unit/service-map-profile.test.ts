/** A profile's service map: stored with it, reloaded, kept in step with the profile form, and the web flags. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryVault } from '../../electron/app';
import { ProfileStore } from '../../electron/profiles';
import { profileServiceMap } from '../../electron/service-map/profile-map';
import { parseWebArgs } from '../../electron/web/args';
import { profileInputSchema } from '../../shared/bridge/schemas';
import { DEFAULT_SERVICE_MAP } from '../../shared/service-map/schema';

let dir: string | null = null;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = null;
});

const input = (extra: Record<string, unknown> = {}) =>
  profileInputSchema.parse({ name: 'Acme', vendor: 'acme', baseUrl: 'https://partner.example.com/api', addTokens: ['tok-123456789'], ...extra });

describe('service map with the profile', () => {
  it("no map saved: the default dialect; the form's two names, changed, are written into a map of the user's own", async () => {
    expect(profileServiceMap({})).toEqual(DEFAULT_SERVICE_MAP);
    dir = await mkdtemp(join(tmpdir(), 'map-profile-'));
    const store = new ProfileStore({ dataDir: dir, vault: memoryVault() });
    // The default names leave no map: the profile is still detected at its first contact.
    const plain = store.save(input());
    expect(store.get(plain.id)?.serviceMap).toBeUndefined();
    expect(plain).toMatchObject({ pageSizeParam: 'per-page', idField: 'id' });
    const named = store.save(input({ pageSizeParam: 'limit', idField: 'uuid' }));
    const map = store.get(named.id)?.serviceMap;
    expect(map?.list.pageSizeParam).toBe('limit');
    expect(map?.asset.id).toBe('uuid');
    expect(map?.search).toEqual(DEFAULT_SERVICE_MAP.search);
    expect(store.get(named.id)?.serviceMapDetected).toBeUndefined();
    expect(named).toMatchObject({ pageSizeParam: 'limit', idField: 'uuid' });
    expect(() => store.save(input({ idField: 'a..b' }))).toThrow(/id field cannot be used/);
  });

  it('a map that sends no page size shows the default name in the form, and stays without one unless it is changed', async () => {
    dir = await mkdtemp(join(tmpdir(), 'map-profile-'));
    const store = new ProfileStore({ dataDir: dir, vault: memoryVault() });
    const view = store.save(input());
    const none = store.saveServiceMap(view.id, { ...DEFAULT_SERVICE_MAP, list: { ...DEFAULT_SERVICE_MAP.list, pageSizeParam: null } });
    expect(none.pageSizeParam).toBe('per-page');
    store.save(input({ id: view.id, pageSizeParam: none.pageSizeParam, idField: none.idField, name: 'Renamed' }));
    expect(store.get(view.id)?.serviceMap?.list.pageSizeParam).toBeNull();
    store.save(input({ id: view.id, pageSizeParam: 'size', idField: none.idField }));
    expect(store.get(view.id)?.serviceMap?.list.pageSizeParam).toBe('size');
  });

  it("reads older profiles' two names into their maps once, and writes the file back with the maps' names marked as such", async () => {
    dir = await mkdtemp(join(tmpdir(), 'map-profile-'));
    const vault = memoryVault();
    const first = new ProfileStore({ dataDir: dir, vault });
    const ids = ['plain', 'named', 'mapped'].map((name) => first.save(input({ name })).id);
    const saved = { ...DEFAULT_SERVICE_MAP, list: { ...DEFAULT_SERVICE_MAP.list, pageSizeParam: 'page_size' } };
    first.saveServiceMap(ids[2]!, saved);
    const file = join(dir, 'config.json');
    // What the versions before wrote: the form's two names beside the map.
    const json = JSON.parse(await readFile(file, 'utf8')) as { profiles: Record<string, unknown>[] };
    const names = [
      { pageSizeParam: 'per-page', idField: 'id' },
      { pageSizeParam: 'limit', idField: 'uuid' },
      { pageSizeParam: 'per-page', idField: 'key' },
    ];
    json.profiles = json.profiles.map(({ namesFromMap: _mirror, ...p }, i) => ({ ...p, ...names[i] }));
    await writeFile(file, JSON.stringify(json));

    const store = new ProfileStore({ dataDir: dir, vault });
    expect(store.settingsProblem).toBeNull();
    expect(store.get(ids[0]!)?.serviceMap).toBeUndefined();
    expect(store.get(ids[1]!)?.serviceMap).toEqual({
      ...DEFAULT_SERVICE_MAP,
      list: { ...DEFAULT_SERVICE_MAP.list, pageSizeParam: 'limit' },
      asset: { ...DEFAULT_SERVICE_MAP.asset, id: 'uuid' },
    });
    // A saved map's names were what its requests sent: it stays as it is.
    expect(store.get(ids[2]!)?.serviceMap).toEqual(saved);
    expect(store.view(ids[2]!)).toMatchObject({ pageSizeParam: 'page_size', idField: 'id' });
    const written = JSON.parse(await readFile(file, 'utf8')) as { profiles: Record<string, unknown>[] };
    // Still written for an older build, which requires them: from the map now, marked so that they are not read in again;
    // names only (no saved map) as an older profile was, so that they read back names only whoever saves the file.
    expect(written.profiles.map((p) => [p.pageSizeParam, p.idField, p.namesFromMap, 'serviceMap' in p])).toEqual([
      ['per-page', 'id', true, false],
      ['limit', 'uuid', undefined, false],
      ['page_size', 'id', true, true],
    ]);
    expect(written.profiles.map((p) => p.tokens)).toEqual(json.profiles.map((p) => p.tokens));
  });

  it("is saved, survives a reload, follows the form's names, and a broken stored map is dropped, not fatal", async () => {
    dir = await mkdtemp(join(tmpdir(), 'map-profile-'));
    const vault = memoryVault();
    const store = new ProfileStore({ dataDir: dir, vault });
    const view = store.save(input());
    const map = {
      ...DEFAULT_SERVICE_MAP,
      list: { ...DEFAULT_SERVICE_MAP.list, pageSizeParam: 'page_size' },
      asset: { ...DEFAULT_SERVICE_MAP.asset, id: 'asset_id' },
    };
    const saved = store.saveServiceMap(view.id, map);
    expect(saved).toMatchObject({ pageSizeParam: 'page_size', idField: 'asset_id' });
    const reloaded = new ProfileStore({ dataDir: dir, vault });
    expect(reloaded.get(view.id)?.serviceMap).toEqual(map);
    // The form changes one name: the map follows it; the other stays.
    reloaded.save(input({ id: view.id, pageSizeParam: 'limit', idField: 'asset_id' }));
    expect(reloaded.get(view.id)?.serviceMap?.list.pageSizeParam).toBe('limit');
    expect(reloaded.get(view.id)?.serviceMap?.asset.id).toBe('asset_id');
    // A hand-edited, broken map in the file: the profile loads without it.
    const file = join(dir, 'config.json');
    const json = JSON.parse(await readFile(file, 'utf8')) as { profiles: { serviceMap: { version: number } }[] };
    json.profiles[0]!.serviceMap.version = 99;
    await writeFile(file, JSON.stringify(json));
    const again = new ProfileStore({ dataDir: dir, vault });
    expect(again.settingsProblem).toBeNull();
    expect(again.get(view.id)?.serviceMap).toBeUndefined();
    expect(again.get(view.id)?.name).toBe('Acme');
  });

  it('a profile input may carry a map (import, web --service-map), checked by the schema and stored', async () => {
    expect(profileInputSchema.safeParse({ ...input(), serviceMap: { version: 1 } }).success).toBe(false);
    dir = await mkdtemp(join(tmpdir(), 'map-profile-'));
    const store = new ProfileStore({ dataDir: dir, vault: memoryVault() });
    const map = { ...DEFAULT_SERVICE_MAP, list: { ...DEFAULT_SERVICE_MAP.list, items: 'data' } };
    const view = store.save(input({ serviceMap: map }), { ephemeral: true });
    expect(store.get(view.id)?.serviceMap).toEqual(map);
  });

  it('browser mode flags: --service-map FILE or --detect, for the service of --base-url', () => {
    const base = ['--base-url', 'http://127.0.0.1:1', '--token', 'acme:t'];
    const ok = parseWebArgs([...base, '--service-map', 'map.json']);
    expect(ok.ok && ok.options.serviceMapFile).toBe('map.json');
    const detect = parseWebArgs([...base, '--detect']);
    expect(detect.ok && detect.options.detect).toBe(true);
    expect(parseWebArgs([...base, '--detect', '--service-map', 'm.json'])).toMatchObject({ ok: false, error: expect.stringContaining('not both') });
    expect(parseWebArgs(['--detect'])).toMatchObject({ ok: false, error: expect.stringContaining('--base-url') });
    expect(parseWebArgs([...base, '--service-map'])).toMatchObject({ ok: false });
  });
});
