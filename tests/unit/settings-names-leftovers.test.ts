/**
 * The names record's temporary file, left by a write that a crash interrupted, is removed at the next start;
 * one of a process still running (another copy of the app writing now) is left alone.
 */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { memoryVault } from '../../electron/app';
import { ProfileStore } from '../../electron/profiles';
import { NAMES_SIDECAR_FILE_NAME } from '../../electron/profiles/names-sidecar';
import { profileInputSchema } from '../../shared/bridge/schemas';

let dir: string | null = null;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = null;
});

/** Above the kernel's largest pid (2^22): no process has it. */
const NO_SUCH_PID = 2 ** 22 + 1;

it("a crashed write's temporary file is removed at start, a running process's is kept, and no profile is lost", async () => {
  dir = await mkdtemp(join(tmpdir(), 'names-leftover-'));
  const vault = memoryVault();
  const store = new ProfileStore({ dataDir: dir, vault });
  const id = store.save(
    profileInputSchema.parse({ name: 'kept', vendor: 'acme', baseUrl: 'https://partner.example.com/api', addTokens: ['tok-123456789'] }),
  ).id;
  const crashed = `${NAMES_SIDECAR_FILE_NAME}.tmp-${NO_SUCH_PID}`;
  const running = `${NAMES_SIDECAR_FILE_NAME}.tmp-${process.ppid}`;
  await writeFile(join(dir, crashed), '{"version": 1, "noPag');
  await writeFile(join(dir, running), '{"version": 1, "noPag');

  const reopened = new ProfileStore({ dataDir: dir, vault });
  expect(reopened.settingsProblem).toBeNull();
  expect(reopened.list().map((p) => p.id)).toEqual([id]);
  expect((await readdir(dir)).sort()).toEqual(['config.json', NAMES_SIDECAR_FILE_NAME, running].sort());
});
