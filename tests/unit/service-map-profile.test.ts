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

const input = (extra: Record<string, unknown> = {}) => profileInputSchema.parse({ name: 'Acme', vendor: 'acme', baseUrl: 'https://partner.example.com/api', addTokens: ['tok-123456789'], ...extra });

describe('service map with the profile', () => {
  it('no map saved: the default dialect with the profile form\'s two names', () => {
    const map = profileServiceMap({ pageSizeParam: 'limit', idField: 'uuid' });
    expect(map.list.pageSizeParam).toBe('limit');
    expect(map.asset.id).toBe('uuid');
    expect(map.search).toEqual(DEFAULT_SERVICE_MAP.search);
  });

  it('is saved, survives a reload, follows the form\'s names, and a broken stored map is dropped, not fatal', async () => {
    dir = await mkdtemp(join(tmpdir(), 'map-profile-'));
    const vault = memoryVault();
    const store = new ProfileStore({ dataDir: dir, vault });
    const view = store.save(input());
    const map = { ...DEFAULT_SERVICE_MAP, list: { ...DEFAULT_SERVICE_MAP.list, pageSizeParam: 'page_size' }, asset: { ...DEFAULT_SERVICE_MAP.asset, id: 'asset_id' } };
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
