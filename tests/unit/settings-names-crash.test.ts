/**
 * config.json and its names record (config.names.json) are two files: a crash between their writes must
 * leave a pair that the next start reads whole, also after an older build has saved config.json (which drops
 * the marks, so that the record alone says which maps send no page size). The crash is made real: the write
 * that would come second is refused (a folder in place of its file), then that file is put back as it was.
 */
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataFolders, profileInput } from '../helpers/settings-folder';
import { memoryVault } from '../../electron/app';
import { ProfileStore } from '../../electron/profiles';
import { NAMES_SIDECAR_FILE_NAME } from '../../electron/profiles/names-sidecar';
import { DEFAULT_SERVICE_MAP } from '../../shared/service-map/schema';
import type { ServiceMap } from '../../shared/service-map/schema';

const newDataFolder = dataFolders('names-crash-');

const sending = (pageSizeParam: string | null): ServiceMap => ({ ...DEFAULT_SERVICE_MAP, list: { ...DEFAULT_SERVICE_MAP.list, pageSizeParam } });

/** What an older build's save does to the file that matters here: it drops the mark beside each map's names. */
async function olderBuildSaves(file: string): Promise<void> {
  const json = JSON.parse(await readFile(file, 'utf8')) as { profiles: Record<string, unknown>[] };
  json.profiles = json.profiles.map(({ namesFromMap: _mark, ...p }) => p);
  await writeFile(file, JSON.stringify(json));
}

/** Each profile's page-size name by profile name (null: its map sends none). */
function pageSizes(store: ProfileStore): Record<string, string | null> {
  return Object.fromEntries(
    store.list().map((v) => {
      const map = store.get(v.id)?.serviceMap;
      return [v.name, map ? map.list.pageSizeParam : 'no map'];
    }),
  );
}

describe('a crash between writing config.json and its names record', () => {
  it('leaves, for a profile given a map that sends no page size, the profiles as before the save or after it, never a mix', async () => {
    for (const crashed of ['config.json', NAMES_SIDECAR_FILE_NAME]) {
      const dir = await newDataFolder();
      const vault = memoryVault();
      const first = new ProfileStore({ dataDir: dir, vault });
      const unsized = first.save(profileInput('unsized')).id;
      first.saveServiceMap(unsized, sending(null));
      const plain = first.save(profileInput('plain')).id;
      const store = new ProfileStore({ dataDir: dir, vault });
      const before = pageSizes(store);
      const target = join(dir, crashed);
      const kept = join(dir, 'kept-before-crash');
      await cp(target, kept);
      await rm(target);
      await mkdir(target); // this write fails: as far as this file goes, the crash came before it
      let saved = true;
      try {
        store.saveServiceMap(plain, sending(null));
      } catch {
        saved = false;
      }
      const after = pageSizes(store);
      await rm(target, { recursive: true });
      await cp(kept, target);
      await rm(kept);

      await olderBuildSaves(join(dir, 'config.json'));
      const read = pageSizes(new ProfileStore({ dataDir: dir, vault }));
      // What a save that reported success holds must be read back; a failed one leaves the file as before.
      expect({ crashed, read }).toEqual({ crashed, read: saved ? after : before });
      await rm(dir, { recursive: true, force: true });
    }
  });
});

it('after a record that could not be written at start, a crash before config.json still leaves every map the file holds listed', async () => {
  const dir = await newDataFolder();
  const vault = memoryVault();
  const first = new ProfileStore({ dataDir: dir, vault });
  const unsized = first.save(profileInput('unsized')).id;
  first.saveServiceMap(unsized, sending(null));
  const record = join(dir, NAMES_SIDECAR_FILE_NAME);
  const config = join(dir, 'config.json');
  await rm(record);
  await mkdir(record);
  const store = new ProfileStore({ dataDir: dir, vault }); // the record cannot be written now
  await rm(record, { recursive: true }); // ...and can again
  await cp(config, `${config}.kept`);
  await rm(config);
  await mkdir(config); // config.json's write fails: the crash came before it
  expect(() => store.saveServiceMap(unsized, sending('limit'))).toThrow();
  await rm(config, { recursive: true });
  await cp(`${config}.kept`, config);

  await olderBuildSaves(config);
  expect(pageSizes(new ProfileStore({ dataDir: dir, vault }))).toEqual({ unsized: null });
});
