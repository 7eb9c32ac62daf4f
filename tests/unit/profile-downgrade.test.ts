/**
 * The settings file after the one-time migration of the profiles' two names into their maps, as an
 * older build reads it (a user who goes back one release): it must still be valid to that build.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryVault } from '../../electron/app';
import { ProfileStore } from '../../electron/profiles';
import { storedTokenSchema } from '../../electron/profiles/profile-types';
import { profileServiceMap } from '../../electron/service-map/profile-map';
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
    // What an older build wrote: the two names beside the map, no mark.
    const file = join(dir, 'config.json');
    const json = JSON.parse(await readFile(file, 'utf8')) as { profiles: Record<string, unknown>[] };
    json.profiles = json.profiles.map(({ namesFromMap: _mirror, ...p }) => ({ ...p, pageSizeParam: 'per-page', idField: 'id' }));
    await writeFile(file, JSON.stringify(json));

    const store = new ProfileStore({ dataDir: dir, vault });
    const map = profileServiceMap(store.get(id)!);
    expect(listRequest(map, 100, null).query).toEqual({ 'per-page': 100 });
    // Written back as migrated: the next start reads the same.
    expect(profileServiceMap(new ProfileStore({ dataDir: dir, vault }).get(id)!).list.pageSizeParam).toBe('per-page');
  });
});
