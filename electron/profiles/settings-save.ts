/**
 * config.json and its names record (names-sidecar.ts) are two files, written so that a crash at any point
 * leaves a pair the next start reads whole, the record meaning the same beside either config.json:
 * 1. the record lists the maps sending no page size of both the file on disk and the one to write (an id
 *    more changes nothing: it counts only for a profile whose map sends none, and the file's are all listed);
 * 2. config.json (atomic, through `conf`);
 * 3. the record lists only the new file's (best effort: the superset it holds otherwise reads the same).
 * A record that cannot be written fails the save before config.json is touched: nothing half-saved is kept.
 */
import { noPageSizeIds } from './names-sidecar';
import type { NamesSidecar } from './names-sidecar';
import type { PersistedState } from './profile-types';

export function saveWithNamesRecord(
  sidecar: NamesSidecar,
  onDisk: PersistedState | null,
  next: PersistedState,
  writeConfig: (state: PersistedState) => void,
): void {
  const ids = noPageSizeIds(next.profiles);
  sidecar.cover([...ids, ...noPageSizeIds(onDisk?.profiles ?? [])]);
  writeConfig(next);
  try {
    sidecar.settle(ids);
  } catch {
    // The record still lists every map of the file now on disk; the next save drops the others.
  }
}
