/**
 * The files of a damaged ledger's salvage, named and swapped so that a start cut off at any instant
 * (a kill, a failing rename or link) leaves a file at the ledger's path: the damaged one until the
 * salvaged one replaces it in one rename. A finished salvage still beside the path means the swap
 * was cut off, and the next start ends it; the damaged file is kept whole, never deleted.
 */
import { constants, copyFileSync, existsSync, linkSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname } from 'node:path';

const JOURNAL_SUFFIXES = ['-wal', '-shm'];

/** Called before each step that changes the folder (a test stops the salvage there, as a crash would). */
export type FileStep = (step: string) => void;

/** The salvage while it is written: unfinished, never used, removed by the next salvage. */
export const stagingPath = (path: string): string => `${path}.salvage-partial`;
/** A finished salvage not yet at the ledger's path. */
export const salvagedPath = (path: string): string => `${path}.salvage`;

export function removeDatabase(path: string): void {
  for (const suffix of ['', ...JOURNAL_SUFFIXES]) rmSync(path + suffix, { force: true });
}

/** The staged salvage, written and closed, becomes the finished one (one rename: it is whole or absent). */
export function finishSalvage(path: string, step: FileStep): void {
  for (const suffix of JOURNAL_SUFFIXES) rmSync(stagingPath(path) + suffix, { force: true });
  step('finish salvage');
  renameSync(stagingPath(path), salvagedPath(path));
}

function timestampForFileName(ms: number): string {
  return new Date(ms).toISOString().replace(/[:.]/g, '-');
}

/** Where a damaged file is kept: `<path>.corrupt-<time>`, numbered when that name is taken. */
export function asidePath(path: string, at: number): string {
  const base = `${path}.corrupt-${timestampForFileName(at)}`;
  for (let n = 1; ; n += 1) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    if (!['', ...JOURNAL_SUFFIXES].some((s) => existsSync(candidate + s))) return candidate;
  }
}

/** Damaged files kept beside the ledger's path. */
export function keptAside(path: string): string[] {
  const prefix = `${basename(path)}.corrupt-`;
  return readdirSync(dirname(path)).filter((name) => name.startsWith(prefix));
}

/** A second name for the file (a hard link), or a copy where the file system has no links. */
function keepCopy(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to, constants.COPYFILE_EXCL);
  }
}

/**
 * Puts the finished salvage at `path`; whatever was there (with its journal files, which must not
 * be replayed onto another file) is kept as `aside`. Until the last rename `path` holds the damaged
 * file and the finished salvage stays beside it, so a swap cut off is ended by the next start.
 */
export function swapIn(path: string, aside: string, step: FileStep): void {
  for (const suffix of ['', ...JOURNAL_SUFFIXES]) {
    if (!existsSync(path + suffix)) continue;
    step(`keep${suffix || ' file'}`);
    keepCopy(path + suffix, aside + suffix);
  }
  for (const suffix of JOURNAL_SUFFIXES) {
    if (!existsSync(path + suffix)) continue;
    step(`drop${suffix}`);
    rmSync(path + suffix, { force: true });
  }
  step('replace');
  renameSync(salvagedPath(path), path);
}
