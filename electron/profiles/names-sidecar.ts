/**
 * What the two names beside each map in config.json stand for, kept where an older build cannot drop
 * it (it rewrites config.json through a schema that strips every key it does not know, the
 * `namesFromMap` mark included). Only one case is ambiguous once the mark is gone: a map that sends no
 * page size is mirrored with the default name, exactly what an older profile whose downloads sent that
 * name looks like. The ids listed here are maps this build wrote without a page size: their default
 * name is ours, not sent. Missing or unreadable, it lists nothing: the names are read as an older
 * build's, as they were before this record existed, and no profile is lost.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { ServiceMap } from '../../shared/service-map/schema';

export const NAMES_SIDECAR_FILE_NAME = 'config.names.json';

const sidecarSchema = z.object({
  version: z.literal(1),
  /** Profiles whose map, as this build wrote it, sends no page size (mirrored with the default name). */
  noPageSize: z.array(z.string()),
});

export interface NamesSidecar {
  path: string;
  /** The ids read from the file (empty when it is missing or unreadable). */
  readonly noPageSize: ReadonlySet<string>;
  /** Records the profiles as config.json now holds them; a failure is ignored (the record is advisory). */
  write(profiles: readonly { id: string; serviceMap?: ServiceMap | undefined }[]): void;
}

export function noPageSizeIds(profiles: readonly { id: string; serviceMap?: ServiceMap | undefined }[]): string[] {
  return profiles.filter((p) => p.serviceMap !== undefined && p.serviceMap.list.pageSizeParam === null).map((p) => p.id);
}

export function openNamesSidecar(dataDir: string): NamesSidecar {
  const path = join(dataDir, NAMES_SIDECAR_FILE_NAME);
  let written = read(path);
  return {
    path,
    noPageSize: new Set(written ?? []),
    write(profiles) {
      const ids = noPageSizeIds(profiles);
      if (written !== null && written.length === ids.length && written.every((id, i) => id === ids[i])) return;
      try {
        const tmp = `${path}.tmp-${process.pid}`;
        writeFileSync(tmp, `${JSON.stringify({ version: 1, noPageSize: ids }, null, '\t')}\n`, { mode: 0o600 });
        renameSync(tmp, path);
        written = ids;
      } catch {
        // Without it, a downgrade and an upgrade read the default name as sent: the profiles are all kept.
      }
    },
  };
}

function read(path: string): string[] | null {
  try {
    const parsed = sidecarSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return parsed.success ? parsed.data.noPageSize : null;
  } catch {
    return null;
  }
}
