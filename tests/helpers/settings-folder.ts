/**
 * For tests of the settings files: a fresh data folder per test (removed after it), and a real profile
 * input of a given name, so that each test file states only what it does to the files.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { profileInputSchema } from '../../shared/bridge/schemas';
import type { ProfileInput } from '../../electron/profiles/profile-types';

/** Registers the clean-up in the calling file; each call of the returned function makes a folder. */
export function dataFolders(prefix: string): () => Promise<string> {
  const made: string[] = [];
  afterEach(async () => {
    await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });
  return async () => {
    const dir = await mkdtemp(join(tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}

export const profileInput = (name: string): ProfileInput =>
  profileInputSchema.parse({ name, vendor: 'acme', baseUrl: 'https://partner.example.com/api', addTokens: [`tok-${name}-123456789`] });
