/**
 * What the two names beside each map in config.json stand for, kept where an older build cannot drop
 * it (it rewrites config.json through a schema that strips every key it does not know, the
 * `namesFromMap` mark included). Only one case is ambiguous once the mark is gone: a map that sends no
 * page size is mirrored with the default name, exactly what an older profile whose downloads sent that
 * name looks like. The ids listed here are maps this build wrote without a page size: their default
 * name is ours, not sent. Missing or unreadable, it lists nothing: the names are read as an older
 * build's, as they were before this record existed, and no profile is lost. It is written before
 * config.json (settings-save.ts), and a save that cannot write it fails.
 */
import { closeSync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { processAlive } from '../catalog/file-lock';
import type { ServiceMap } from '../../shared/service-map/schema';

export const NAMES_SIDECAR_FILE_NAME = 'config.names.json';
/** The temporary file's name is this, then the writing process's pid. */
const TEMP_SUFFIX = '.tmp-';

const sidecarSchema = z.object({
  version: z.literal(1),
  /** Profiles whose map, as this build wrote it, sends no page size (mirrored with the default name). */
  noPageSize: z.array(z.string()),
});

/** The record could not be written: the save that needed it did not happen (its message says so). */
export class NamesRecordError extends Error {}

export interface NamesSidecar {
  path: string;
  /** The ids read from the file (empty when it is missing or unreadable). */
  readonly noPageSize: ReadonlySet<string>;
  /**
   * Makes the file list at least `ids`, before config.json is written (settings-save.ts says why).
   * Throws NamesRecordError when it cannot; a write interrupted by a crash leaves the file as it was.
   */
  cover(ids: readonly string[]): void;
  /** Makes the file list exactly `ids`, once config.json holds them. Throws NamesRecordError when it cannot. */
  settle(ids: readonly string[]): void;
}

export function noPageSizeIds(profiles: readonly { id: string; serviceMap?: ServiceMap | undefined }[]): string[] {
  return profiles.filter((p) => p.serviceMap !== undefined && p.serviceMap.list.pageSizeParam === null).map((p) => p.id);
}

export function openNamesSidecar(dataDir: string): NamesSidecar {
  const path = join(dataDir, NAMES_SIDECAR_FILE_NAME);
  removeCrashedTemps(dataDir);
  /** What the file holds, as far as this process knows (null: nothing readable). */
  let written = read(path);
  const write = (ids: readonly string[]) => {
    writeDurably(path, `${JSON.stringify({ version: 1, noPageSize: ids }, null, '\t')}\n`);
    written = [...ids];
  };
  return {
    path,
    noPageSize: new Set(written ?? []),
    cover(ids) {
      if (written !== null && ids.every((id) => written!.includes(id))) return;
      write([...new Set([...ids, ...(written ?? [])])]);
    },
    settle(ids) {
      if (written !== null && written.length === ids.length && written.every((id, i) => id === ids[i])) return;
      write(ids);
    },
  };
}

/** Temp file, fsync, rename: the record is on disk whole before config.json is written after it. */
function writeDurably(path: string, text: string): void {
  const tmp = `${path}${TEMP_SUFFIX}${process.pid}`;
  try {
    const fd = openSync(tmp, 'w', 0o600);
    try {
      writeFileSync(fd, text); // loops until every byte is written, unlike one writeSync
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameRetrying(tmp, path);
  } catch (e) {
    // A full disk leaves part of it: not kept. A folder there is not ours to remove (unlink refuses it).
    try {
      unlinkSync(tmp);
    } catch {
      // nothing was created, or it is not a file
    }
    throw new NamesRecordError(`${path}, the record of which service maps send no page size, could not be written (${(e as Error).message})`);
  }
}

/**
 * On Windows a scanner or indexer may hold the file for a moment (EPERM, EBUSY, EACCES): asked again for up
 * to a second, as conf's writer does for config.json, before the save fails.
 */
function renameRetrying(from: string, to: string): void {
  const deadline = Date.now() + 1000;
  for (;;) {
    try {
      renameSync(from, to);
      return;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? '';
      if (!['EPERM', 'EBUSY', 'EACCES'].includes(code) || Date.now() >= deadline) throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 25);
    }
  }
}

/** Temp files of writes a crash interrupted (their process is gone); another copy's, still writing, stay. */
function removeCrashedTemps(dataDir: string): void {
  let names: string[];
  try {
    names = readdirSync(dataDir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(`${NAMES_SIDECAR_FILE_NAME}${TEMP_SUFFIX}`)) continue;
    const pid = Number(name.slice(NAMES_SIDECAR_FILE_NAME.length + TEMP_SUFFIX.length));
    if (!Number.isInteger(pid) || pid <= 0 || processAlive(pid)) continue;
    try {
      unlinkSync(join(dataDir, name));
    } catch {
      // a folder, or already gone: nothing is read from it either way
    }
  }
}

function read(path: string): string[] | null {
  try {
    const parsed = sidecarSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return parsed.success ? parsed.data.noPageSize : null;
  } catch {
    return null;
  }
}
