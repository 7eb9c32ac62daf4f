/**
 * The names record's temporary file, left by a write that a crash interrupted, is removed at the next start;
 * one of a process still running (another copy of the app writing now) is left alone.
 */
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { dataFolders, profileInput } from '../helpers/settings-folder';
import { memoryVault } from '../../electron/app';
import { ProfileStore } from '../../electron/profiles';
import { NAMES_SIDECAR_FILE_NAME } from '../../electron/profiles/names-sidecar';

const newDataFolder = dataFolders('names-leftover-');

/** Above the kernel's largest pid (2^22): no process has it. */
const NO_SUCH_PID = 2 ** 22 + 1;

it("a crashed write's temporary file is removed at start, a running process's is kept, and no profile is lost", async () => {
  const dir = await newDataFolder();
  const vault = memoryVault();
  const store = new ProfileStore({ dataDir: dir, vault });
  const id = store.save(profileInput('kept')).id;
  const crashed = `${NAMES_SIDECAR_FILE_NAME}.tmp-${NO_SUCH_PID}`;
  const running = `${NAMES_SIDECAR_FILE_NAME}.tmp-${process.ppid}`;
  await writeFile(join(dir, crashed), '{"version": 1, "noPag');
  await writeFile(join(dir, running), '{"version": 1, "noPag');

  const reopened = new ProfileStore({ dataDir: dir, vault });
  expect(reopened.settingsProblem).toBeNull();
  expect(reopened.list().map((p) => p.id)).toEqual([id]);
  expect((await readdir(dir)).sort()).toEqual(['config.json', NAMES_SIDECAR_FILE_NAME, running].sort());
});
