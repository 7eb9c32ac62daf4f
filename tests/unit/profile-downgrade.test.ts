/**
 * The settings file after the one-time migration of the profiles' two names into their maps, as an
 * older build reads it (a user who goes back one release): it must still be valid to that build.
 */
import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryVault } from '../../electron/app';
import { ProfileStore } from '../../electron/profiles';
import { NAMES_SIDECAR_FILE_NAME } from '../../electron/profiles/names-sidecar';
import { storedTokenSchema } from '../../electron/profiles/profile-types';
import { hasSavedMap, profileServiceMap } from '../../electron/service-map/profile-map';
import { profileInputSchema, settingsSchema, tokenPresentationSchema } from '../../shared/bridge/schemas';
import { listRequest } from '../../shared/service-map/requests';
import { DEFAULT_SERVICE_MAP, serviceMapSchema } from '../../shared/service-map/schema';

/** The older build's validation of the file (electron/profiles/profile-types.ts before 9048181): both names required. */
const olderProfileSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  vendor: z.string().min(1),
  baseUrl: z.string().min(1),
  tokens: z.array(storedTokenSchema),
  tokenPresentation: tokenPresentationSchema,
  pageSizeParam: z.string().min(1),
  idField: z.string().min(1),
  serviceMap: serviceMapSchema.optional().catch(undefined),
  serviceMapDetected: z.boolean().optional().catch(undefined),
  budgetStore: z.string().optional().catch(undefined),
  budgetStoreSealed: z.string().optional().catch(undefined),
  createdAt: z.number(),
  updatedAt: z.number(),
});
const olderFileSchema = z.object({
  version: z.literal(1),
  profiles: z.array(olderProfileSchema),
  activeId: z.string().nullable(),
  settings: settingsSchema.partial(),
});

let dir: string | null = null;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = null;
});

const input = (extra: Record<string, unknown> = {}) =>
  profileInputSchema.parse({ name: 'Acme', vendor: 'acme', baseUrl: 'https://partner.example.com/api', addTokens: ['tok-123456789'], ...extra });

describe('settings file after the names moved into the maps', () => {
  it('stays valid to the older build, with the names its requests would send; names that build writes are read in again', async () => {
    dir = await mkdtemp(join(tmpdir(), 'downgrade-'));
    const vault = memoryVault();
    const store = new ProfileStore({ dataDir: dir, vault });
    const plain = store.save(input({ name: 'plain' })).id;
    const named = store.save(input({ name: 'named', pageSizeParam: 'limit', idField: 'uuid' })).id;
    const unsized = store.save(input({ name: 'unsized' })).id;
    store.saveServiceMap(unsized, { ...DEFAULT_SERVICE_MAP, list: { ...DEFAULT_SERVICE_MAP.list, pageSizeParam: null } });

    const file = join(dir, 'config.json');
    const older = olderFileSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
    expect(older.success, older.success ? '' : JSON.stringify(older.error.issues)).toBe(true);
    const byId = new Map(older.data!.profiles.map((p) => [p.id, p]));
    expect(byId.get(plain)).toMatchObject({ pageSizeParam: 'per-page', idField: 'id' });
    expect(byId.get(named)).toMatchObject({ pageSizeParam: 'limit', idField: 'uuid' });
    expect(byId.get(unsized)).toMatchObject({ pageSizeParam: 'per-page', idField: 'id' });

    // Read again by this build: the names written beside the maps change nothing (a map that sends no size still sends none).
    const again = new ProfileStore({ dataDir: dir, vault });
    expect(again.settingsProblem).toBeNull();
    expect(again.get(plain)?.serviceMap).toBeUndefined();
    expect(again.get(named)?.serviceMap?.list.pageSizeParam).toBe('limit');
    expect(again.get(unsized)?.serviceMap?.list.pageSizeParam).toBeNull();

    // The older build saves the file (its schema drops what it does not know) with a name changed in its form.
    const edited = { ...older.data!, profiles: older.data!.profiles.map((p) => (p.id === plain ? { ...p, idField: 'key' } : p)) };
    await writeFile(file, JSON.stringify(edited));
    const upgraded = new ProfileStore({ dataDir: dir, vault });
    expect(upgraded.settingsProblem).toBeNull();
    expect(upgraded.get(plain)?.serviceMap?.asset.id).toBe('key');
    expect(upgraded.get(named)?.serviceMap?.asset.id).toBe('uuid');
  });
});

describe("an older profile's page size", () => {
  it("a saved map that sends no page size keeps sending the profile's, as its downloads did before the names moved into the map", async () => {
    dir = await mkdtemp(join(tmpdir(), 'downgrade-'));
    const vault = memoryVault();
    const first = new ProfileStore({ dataDir: dir, vault });
    const id = first.save(input()).id;
    first.saveServiceMap(id, { ...DEFAULT_SERVICE_MAP, list: { ...DEFAULT_SERVICE_MAP.list, pageSizeParam: null } });
    // What an older build wrote: the two names beside the map, no mark, and no record of this build's beside the file.
    const file = join(dir, 'config.json');
    const json = JSON.parse(await readFile(file, 'utf8')) as { profiles: Record<string, unknown>[] };
    json.profiles = json.profiles.map(({ namesFromMap: _mirror, ...p }) => ({ ...p, pageSizeParam: 'per-page', idField: 'id' }));
    await writeFile(file, JSON.stringify(json));
    await rm(join(dir, NAMES_SIDECAR_FILE_NAME), { force: true });

    const store = new ProfileStore({ dataDir: dir, vault });
    const map = profileServiceMap(store.get(id)!);
    expect(listRequest(map, 100, null).query).toEqual({ 'per-page': 100 });
    // Written back as migrated: the next start reads the same.
    expect(profileServiceMap(new ProfileStore({ dataDir: dir, vault }).get(id)!).list.pageSizeParam).toBe('per-page');
  });
});

type OlderFile = z.output<typeof olderFileSchema>;
type OlderProfile = OlderFile['profiles'][number];

/** How the older build reads and saves the file: through its schema, which drops every key it does not know. */
async function olderBuildSaves(file: string, edit: (p: OlderProfile) => OlderProfile = (p) => p): Promise<void> {
  const older = olderFileSchema.parse(JSON.parse(await readFile(file, 'utf8')));
  await writeFile(file, JSON.stringify(olderFileSchema.parse({ ...older, profiles: older.profiles.map(edit) })));
}

/** The older build's form save (profile-store.ts before 9048181): a changed name goes into the profile and into its map. */
function olderFormSave(p: OlderProfile, names: { pageSizeParam?: string; idField?: string }): OlderProfile {
  const pageSizeParam = names.pageSizeParam ?? p.pageSizeParam;
  const idField = names.idField ?? p.idField;
  const map = p.serviceMap && {
    ...p.serviceMap,
    list: { ...p.serviceMap.list, pageSizeParam: pageSizeParam === p.pageSizeParam ? p.serviceMap.list.pageSizeParam : pageSizeParam },
    asset: { ...p.serviceMap.asset, id: idField === p.idField ? p.serviceMap.asset.id : idField },
  };
  return { ...p, pageSizeParam, idField, ...(map ? { serviceMap: map } : {}), updatedAt: p.updatedAt + 1 };
}

/** This build's file with a map that sends no page size and an older profile's names kept as names only. */
async function upgradedFile(): Promise<{ file: string; vault: ReturnType<typeof memoryVault>; unsized: string; namesOnly: string }> {
  dir = await mkdtemp(join(tmpdir(), 'roundtrip-'));
  const vault = memoryVault();
  const first = new ProfileStore({ dataDir: dir, vault });
  const unsized = first.save(input({ name: 'unsized' })).id;
  first.saveServiceMap(unsized, { ...DEFAULT_SERVICE_MAP, list: { ...DEFAULT_SERVICE_MAP.list, pageSizeParam: null } });
  const namesOnly = first.save(input({ name: 'names only' })).id;
  const file = join(dir, 'config.json');
  // The names-only profile as an older build wrote it: its own names, no map; read in by this build.
  const json = JSON.parse(await readFile(file, 'utf8')) as { profiles: Record<string, unknown>[] };
  json.profiles = json.profiles.map(({ namesFromMap: _m, serviceMap: _s, ...p }) =>
    p.id === namesOnly
      ? { ...p, pageSizeParam: 'limit', idField: 'uuid' }
      : { ...p, ...(_m === undefined ? {} : { namesFromMap: _m }), ...(_s ? { serviceMap: _s } : {}) },
  );
  await writeFile(file, JSON.stringify(json));
  const store = new ProfileStore({ dataDir: dir, vault });
  expect(store.get(unsized)?.serviceMap?.list.pageSizeParam).toBeNull();
  expect(store.get(namesOnly)?.serviceMapNamesOnly).toBe(true);
  store.setActive(unsized); // a save by this build
  return { file, vault, unsized, namesOnly };
}

describe('upgrade, downgrade (the older build saves), upgrade again', () => {
  it('keeps a map that sends no page size without one, and a names-only profile names only', async () => {
    const { file, vault, unsized, namesOnly } = await upgradedFile();
    await olderBuildSaves(file);

    const upgraded = new ProfileStore({ dataDir: dir!, vault });
    expect(upgraded.settingsProblem).toBeNull();
    expect(upgraded.get(unsized)?.serviceMap?.list.pageSizeParam).toBeNull();
    expect(listRequest(profileServiceMap(upgraded.get(unsized)!), 100, null).query).toEqual({});
    expect(upgraded.get(namesOnly)?.serviceMapNamesOnly).toBe(true);
    expect(hasSavedMap(upgraded.get(namesOnly)!)).toBe(false);
    expect(upgraded.view(namesOnly)).toMatchObject({ pageSizeParam: 'limit', idField: 'uuid' });
    // And the next start reads the same.
    const again = new ProfileStore({ dataDir: dir!, vault });
    expect(again.get(unsized)?.serviceMap?.list.pageSizeParam).toBeNull();
    expect(hasSavedMap(again.get(namesOnly)!)).toBe(false);
  });

  it("takes names edited in the older build's form, and still sends no page size where none was set", async () => {
    const { file, vault, unsized, namesOnly } = await upgradedFile();
    await olderBuildSaves(file, (p) =>
      p.id === unsized ? olderFormSave(p, { idField: 'key' }) : p.id === namesOnly ? olderFormSave(p, { pageSizeParam: 'size' }) : p,
    );

    const upgraded = new ProfileStore({ dataDir: dir!, vault });
    expect(upgraded.get(unsized)?.serviceMap?.asset.id).toBe('key');
    expect(upgraded.get(unsized)?.serviceMap?.list.pageSizeParam).toBeNull();
    expect(hasSavedMap(upgraded.get(namesOnly)!)).toBe(false);
    expect(upgraded.view(namesOnly)).toMatchObject({ pageSizeParam: 'size', idField: 'uuid' });
  });

  it('a file this build wrote before it kept the record beside it gets the record when it is read', async () => {
    const { file, vault, unsized } = await upgradedFile();
    await rm(join(dir!, NAMES_SIDECAR_FILE_NAME), { force: true });
    new ProfileStore({ dataDir: dir!, vault }); // started, nothing saved
    await olderBuildSaves(file);
    expect(new ProfileStore({ dataDir: dir!, vault }).get(unsized)?.serviceMap?.list.pageSizeParam).toBeNull();
  });

  it("a page-size name set in the older build's form is sent", async () => {
    const { file, vault, unsized } = await upgradedFile();
    await olderBuildSaves(file, (p) => (p.id === unsized ? olderFormSave(p, { pageSizeParam: 'limit' }) : p));
    expect(new ProfileStore({ dataDir: dir!, vault }).get(unsized)?.serviceMap?.list.pageSizeParam).toBe('limit');
  });

  it.each([
    ['missing', null],
    ['corrupt', '{"version": 1, "noPag'],
    ['of another shape', '{"version": 1, "noPageSize": "all"}'],
  ])('with the record beside the file %s, loses no profile (the page size as an older profile sent it)', async (_what, text) => {
    const { file, vault, unsized, namesOnly } = await upgradedFile();
    await olderBuildSaves(file);
    const sidecars = (await readdir(dir!)).filter((f) => f !== 'config.json');
    expect(sidecars.length).toBeGreaterThan(0);
    for (const f of sidecars) {
      if (text === null) await rm(join(dir!, f));
      else await writeFile(join(dir!, f), text);
    }
    const upgraded = new ProfileStore({ dataDir: dir!, vault });
    expect(upgraded.settingsProblem).toBeNull();
    expect(upgraded.list().map((p) => p.id)).toEqual([unsized, namesOnly]);
    expect(upgraded.get(unsized)?.serviceMap?.list.pageSizeParam).toBe('per-page');
    expect(hasSavedMap(upgraded.get(namesOnly)!)).toBe(false);
  });
});

describe('a file written by the builds before, read by this one', () => {
  it("the previous build's file (no names beside the maps) is written back at load, readable by the older build", async () => {
    dir = await mkdtemp(join(tmpdir(), 'repair-'));
    const vault = memoryVault();
    const first = new ProfileStore({ dataDir: dir, vault });
    const plain = first.save(input({ name: 'plain' })).id;
    const named = first.save(input({ name: 'named', pageSizeParam: 'limit', idField: 'uuid' })).id;
    first.setActive(plain);
    const file = join(dir, 'config.json');
    const json = JSON.parse(await readFile(file, 'utf8')) as { profiles: Record<string, unknown>[] };
    json.profiles = json.profiles.map(({ namesFromMap: _m, pageSizeParam: _p, idField: _i, ...p }) => p);
    await writeFile(file, JSON.stringify(json));
    expect(olderFileSchema.safeParse(json).success).toBe(false);

    const store = new ProfileStore({ dataDir: dir, vault });
    store.setActive(plain); // the same id: nothing to save
    const older = olderFileSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
    expect(older.success, older.success ? '' : JSON.stringify(older.error.issues)).toBe(true);
    expect(new Map(older.data!.profiles.map((p) => [p.id, [p.pageSizeParam, p.idField]]))).toEqual(
      new Map([
        [plain, ['per-page', 'id']],
        [named, ['limit', 'uuid']],
      ]),
    );
  });

  it("a names-only map written as a map is written back at load as names, so that the older build's save keeps it names only", async () => {
    const { file, vault, namesOnly } = await upgradedFile();
    // How a build before wrote it: the map, marked names only, the names mirrored beside it.
    const json = JSON.parse(await readFile(file, 'utf8')) as { profiles: Record<string, unknown>[] };
    json.profiles = json.profiles.map((p) =>
      p.id === namesOnly
        ? { ...p, namesFromMap: true, serviceMapNamesOnly: true, serviceMap: profileServiceMap(new ProfileStore({ dataDir: dir!, vault }).get(namesOnly)!) }
        : p,
    );
    await writeFile(file, JSON.stringify(json));

    new ProfileStore({ dataDir: dir!, vault }); // started, nothing saved
    await olderBuildSaves(file);
    const upgraded = new ProfileStore({ dataDir: dir!, vault });
    expect(hasSavedMap(upgraded.get(namesOnly)!)).toBe(false);
    expect(upgraded.view(namesOnly)).toMatchObject({ pageSizeParam: 'limit', idField: 'uuid' });
  });

  it('a file already as this build writes it is not written again at every start', async () => {
    const { file, vault } = await upgradedFile();
    const long = new Date('2020-01-01T00:00:00Z');
    await utimes(file, long, long);
    new ProfileStore({ dataDir: dir!, vault });
    expect((await stat(file)).mtimeMs).toBe(long.getTime());
  });
});
