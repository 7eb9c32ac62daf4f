/**
 * A names record (config.names.json) that cannot be written fails the save in words: the person is not told
 * "Saved." while the record is not on disk, memory and config.json stay as they were, and the main process
 * goes on (the next save, once the disk allows it, succeeds).
 */
import { mkdir, readdir, readFile, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataFolders, profileInput } from '../helpers/settings-folder';
import { memoryVault } from '../../electron/app';
import { ProfileStore } from '../../electron/profiles';
import { NAMES_SIDECAR_FILE_NAME } from '../../electron/profiles/names-sidecar';
import { PartnerError } from '../../shared/errors';
import { DEFAULT_SERVICE_MAP } from '../../shared/service-map/schema';

const newDataFolder = dataFolders('names-write-');

const unsizedMap = { ...DEFAULT_SERVICE_MAP, list: { ...DEFAULT_SERVICE_MAP.list, pageSizeParam: null } };

async function storeWithOneProfile(): Promise<{ dir: string; store: ProfileStore; vault: ReturnType<typeof memoryVault>; config: string; record: string }> {
  const dir = await newDataFolder();
  const vault = memoryVault();
  const store = new ProfileStore({ dataDir: dir, vault });
  store.save(profileInput('first'));
  return { dir, store, vault, config: join(dir, 'config.json'), record: join(dir, NAMES_SIDECAR_FILE_NAME) };
}

function saveError(save: () => unknown): PartnerError {
  try {
    save();
  } catch (e) {
    return e as PartnerError;
  }
  throw new Error('the save was reported as done');
}

describe('a names record that cannot be written', () => {
  it('(a folder in its place) fails the save in words, and nothing of it is believed or written', async () => {
    const { dir, store, vault, config, record } = await storeWithOneProfile();
    await rm(record, { force: true });
    await mkdir(record);
    // No map sends no page size yet: the record needs no change, so this save is whole and succeeds.
    const id = store.save(profileInput('second')).id;
    const fileBefore = await readFile(config, 'utf8');
    expect(JSON.parse(fileBefore).profiles.map((p: { name: string }) => p.name)).toEqual(['first', 'second']);

    const error = saveError(() => store.saveServiceMap(id, unsizedMap));
    expect(error).toBeInstanceOf(PartnerError);
    expect(error.message).toContain(record);
    expect(error.message).toMatch(/could not save/i);
    expect(store.get(id)?.serviceMap).toBeUndefined();
    expect(await readFile(config, 'utf8')).toBe(fileBefore);

    await rm(record, { recursive: true });
    store.saveServiceMap(id, unsizedMap); // the disk allows it again: the same process saves
    expect(new ProfileStore({ dataDir: dir, vault }).get(id)?.serviceMap?.list.pageSizeParam).toBeNull();
  });

  it('(a full disk) fails the save in words and leaves no temporary file behind', async () => {
    const { dir, store, config, record } = await storeWithOneProfile();
    const fileBefore = await readFile(config, 'utf8');
    // Every write of the record's temporary file hits a full disk.
    await symlink('/dev/full', `${record}.tmp-${process.pid}`);
    const error = saveError(() => store.saveServiceMap(store.list()[0]!.id, unsizedMap));
    expect(error.message).toMatch(/ENOSPC/);
    expect(await readFile(config, 'utf8')).toBe(fileBefore);
    expect((await readdir(dir)).sort()).toEqual(['config.json', NAMES_SIDECAR_FILE_NAME]);
  });

  it('at start (a folder in its place) opens the profiles and says that saving fails until it is moved away', async () => {
    const { dir, store, vault, record } = await storeWithOneProfile();
    const id = store.list()[0]!.id;
    store.saveServiceMap(id, unsizedMap);
    await rm(record);
    await mkdir(record);

    const reopened = new ProfileStore({ dataDir: dir, vault });
    expect(reopened.list().map((p) => p.name)).toEqual(['first']);
    expect(reopened.get(id)?.serviceMap?.list.pageSizeParam).toBeNull();
    expect(reopened.settingsProblem).toContain(record);
    expect(reopened.settingsProblem).toMatch(/saving .*fail/i);
  });
});
