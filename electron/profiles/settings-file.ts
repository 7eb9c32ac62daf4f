/**
 * The settings file, through `conf` (atomic writes: a crash mid-write never corrupts it).
 * Read and validated by us first: a file that is not valid JSON or not our shape is moved aside
 * (config.json.corrupt-<timestamp>) and reported, never silently replaced or cleared.
 */
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import Conf from 'conf';
import { persistedStateSchema, SETTINGS_FILE_VERSION } from './profile-types';
import type { PersistedState } from './profile-types';

export const SETTINGS_FILE_NAME = 'config.json';
const PROJECT_NAME = 'partner-console';

export interface LoadedSettingsFile {
  state: PersistedState;
  /** A sentence for appInfo.settingsProblem, or null. */
  problem: string | null;
  write(state: PersistedState): void;
  path: string;
}

export function emptyState(): PersistedState {
  return { version: SETTINGS_FILE_VERSION, profiles: [], activeId: null, settings: {} };
}

function timestampForFileName(ms: number): string {
  return new Date(ms).toISOString().replace(/[:.]/g, '-');
}

/** Why the file cannot be used, or null when it is fine; the parsed state when it is. */
function readState(path: string): { state: PersistedState | null; reason: string | null } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { state: null, reason: null };
    return { state: null, reason: `it could not be read (${code ?? (e as Error).message})` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { state: null, reason: `it is not valid JSON (${(e as Error).message})` };
  }
  const parsed = persistedStateSchema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first && first.path.length > 0 ? first.path.join('.') : 'the top level';
    return { state: null, reason: `it does not hold valid settings (${where}: ${first?.message ?? 'invalid'})` };
  }
  return { state: parsed.data, reason: null };
}

export function loadSettingsFile(dataDir: string, now: () => number = Date.now): LoadedSettingsFile {
  const path = join(dataDir, SETTINGS_FILE_NAME);
  let problem: string | null = null;
  const read = readState(path);
  let state = read.state;
  const reason = read.reason;
  if (reason !== null && existsSync(path)) {
    const aside = `${path}.corrupt-${timestampForFileName(now())}`;
    try {
      renameSync(path, aside);
      problem = `The settings file was unusable: ${reason}. It was kept as ${aside}; the app started with default settings and no saved profiles.`;
    } catch (e) {
      // Cannot move it: do not overwrite it either; run on defaults in memory and say so.
      problem = `The settings file ${path} is unusable (${reason}) and could not be moved aside (${(e as Error).message}); changes will not be saved until it is fixed or removed.`;
      return { state: emptyState(), problem, path, write: () => refuseWrite(problem!) };
    }
    state = null;
  }
  const conf = new Conf<Record<string, unknown>>({
    cwd: dataDir,
    projectName: PROJECT_NAME,
    configName: 'config',
    fileExtension: 'json',
    clearInvalidConfig: false,
    // Tokens are sealed, but nobody else on the machine needs to read the file at all.
    configFileMode: 0o600,
  });
  return {
    state: state ?? emptyState(),
    problem,
    path: conf.path,
    write(next: PersistedState) {
      conf.store = next as unknown as Record<string, unknown>;
    },
  };
}

function refuseWrite(problem: string): never {
  throw new Error(problem);
}
