/**
 * The checkpoint beside the output file: where the download stands after the last page that is
 * safely in the output. Written atomically (temp file, fsync, rename, fsync of the folder), so a
 * crash leaves either the old or the new checkpoint, never half of one.
 */
import { open, rename, readFile, rm, stat, truncate } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { z } from 'zod';
import { PartnerError } from '../../shared/errors';
import { DEFAULT_SERVICE_MAP, serviceMapSchema } from '../../shared/service-map/schema';
import type { ServiceMap } from '../../shared/service-map/schema';
import type { Cursor } from './page';
import type { UnlistedField } from './csv';
import { NumberText } from '../../shared/json/number-text';
import { parseJsonExact } from '../../shared/json/parse-exact';
import { stringifyJsonExact } from '../../shared/json/stringify-exact';
import { vendorKey } from '../../shared/vendor-key';
import type { ExportFormat } from './settings';
import { tokenFingerprintSchema } from './token-fingerprint';
import type { TokenFingerprint } from './token-fingerprint';

/**
 * 2: the cursor is written as the service wrote it (number text past 2^53 stays exact). Version 1
 * files are read (migrated) unless their cursor is an integer past 2^53: the version that wrote
 * them had rounded it already. Older files of either version name the id field and the page-size
 * parameter in their settings: read, those two go into the recorded map (legacyNamesIntoMap).
 */
export const CHECKPOINT_VERSION = 2;

/** What identifies the download; the payload names are the recorded map's. */
export interface CheckpointSettings {
  baseUrl: string;
  vendor: string;
  format: ExportFormat;
  pageSize: number;
}

export interface Checkpoint {
  version: typeof CHECKPOINT_VERSION;
  /** The output file's name, for a person reading the checkpoint. */
  output: string;
  settings: CheckpointSettings;
  /** last_id for the next page; null before the first page. */
  cursor: Cursor | null;
  /** The id of the last item written (absent in older checkpoints): where a cursor that does not advance is continued from. */
  lastItemId?: Cursor | null;
  /** The id of the first item of the last page written (absent in older checkpoints): that page again is a service ignoring the cursor. */
  firstItemId?: Cursor | null;
  /** The last page has been written: nothing left to fetch. */
  done: boolean;
  pages: number;
  items: number;
  /** Length of the output file when this checkpoint was written: everything after it is a torn page. */
  bytes: number;
  /** CSV header as written (fixed for the whole file); null for JSON Lines or before the first page. */
  columns: string[] | null;
  /** Fields a CSV header taken from the first page leaves out, as named so far (absent: not watched, or an older checkpoint). */
  unlistedFields?: UnlistedField[];
  total: number | null;
  startedAt: string;
  updatedAt: string;
  /** The service map the pages were read with (carries its own version); absent only where a recorded map could not be read. */
  serviceMap?: ServiceMap;
  /** Keyed hashes of the tokens the download was made with (absent in older checkpoints, or where none were given). */
  tokens?: TokenFingerprint;
}

const cursorSchema = z.union([z.string().min(1), z.number(), z.instanceof(NumberText)]);
const checkpointSchema = z.object({
  version: z.union([z.literal(1), z.literal(CHECKPOINT_VERSION)]),
  output: z.string(),
  settings: z.object({
    baseUrl: z.string(),
    vendor: z.string(),
    format: z.enum(['jsonl', 'csv']),
    pageSize: z.number().int(),
    // Older checkpoints' names of what the download sent: read into the map, never written again.
    idField: z.string().optional(),
    pageSizeParam: z.string().optional(),
  }),
  cursor: cursorSchema.nullable(),
  lastItemId: cursorSchema.nullable().optional(),
  firstItemId: cursorSchema.nullable().optional(),
  done: z.boolean(),
  pages: z.number().int().nonnegative(),
  items: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  columns: z.array(z.string()).nullable(),
  // Only warnings depend on it: one this version cannot read is dropped, not fatal.
  unlistedFields: z
    .array(z.object({ field: z.string(), page: z.number().int().positive() }))
    .optional()
    .catch(undefined),
  total: z.number().nullable(),
  startedAt: z.string(),
  updatedAt: z.string(),
  // A map this version cannot read is dropped (the built-in shapes or a new detection then apply), not fatal.
  serviceMap: serviceMapSchema.optional().catch(undefined),
  // Unreadable, it is as absent as in an older checkpoint: the resume goes on and records the new tokens' hashes.
  tokens: tokenFingerprintSchema.optional().catch(undefined),
});

export function checkpointPathFor(outPath: string): string {
  return `${outPath}.checkpoint.json`;
}

function fileError(action: string, path: string, e: unknown): PartnerError {
  const reason = e instanceof Error ? e.message : String(e);
  return new PartnerError({ code: 'INTERNAL', message: `Cannot ${action} ${path}: ${reason}`, retryable: true });
}

function refused(message: string, hint?: string): PartnerError {
  return new PartnerError({ code: 'BAD_REQUEST', message, retryable: false, ...(hint ? { hint } : {}) });
}

export function isMissing(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { code?: unknown }).code === 'ENOENT';
}

/** The checkpoint, or null when there is none. A damaged one is an error, never silently ignored. */
export async function readCheckpoint(path: string): Promise<Checkpoint | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if (isMissing(e)) return null;
    throw fileError('read the checkpoint', path, e);
  }
  let json: unknown;
  try {
    json = parseJsonExact(text);
  } catch {
    throw refused(`The checkpoint ${path} is not valid JSON.`, 'Delete the checkpoint and the output file to start over.');
  }
  const parsed = checkpointSchema.safeParse(json);
  if (!parsed.success) {
    throw refused(`The checkpoint ${path} is not a catalog checkpoint this version can read.`, 'Delete the checkpoint and the output file to start over.');
  }
  const { version, settings, serviceMap, ...data } = parsed.data;
  if (version === 1 && data.cursor instanceof NumberText) {
    throw refused(
      `The checkpoint ${path} was written by an older version that rounded ids past 2^53: its cursor ${data.cursor.text} is not the one the service sent, so resuming could skip or repeat items.`,
      'Delete the checkpoint and the output file to start over.',
    );
  }
  const { idField, pageSizeParam, ...kept } = settings;
  const map = legacyNamesIntoMap(serviceMap, idField, pageSizeParam);
  return { ...data, settings: kept, ...(map ? { serviceMap: map } : {}), version: CHECKPOINT_VERSION };
}

/**
 * An older checkpoint's two names are what its download sent (they overrode its recorded map, and
 * without one the built-in shapes): written into that map. A result the map's schema refuses is
 * dropped as an unreadable map is.
 */
export function legacyNamesIntoMap(map: ServiceMap | undefined, idField: string | undefined, pageSizeParam: string | undefined): ServiceMap | undefined {
  if (idField === undefined && pageSizeParam === undefined) return map;
  const base = map ?? DEFAULT_SERVICE_MAP;
  const named = {
    ...base,
    list: { ...base.list, ...(pageSizeParam === undefined ? {} : { pageSizeParam }) },
    asset: { ...base.asset, ...(idField === undefined ? {} : { id: idField }) },
  };
  const parsed = serviceMapSchema.safeParse(named);
  return parsed.success ? parsed.data : undefined;
}

/** Temp file, fsync, rename over the old one, fsync the folder so that the rename itself survives a crash. */
export async function writeCheckpoint(path: string, checkpoint: Checkpoint): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    const handle = await open(tmp, 'w');
    try {
      // The cursor as number text where the service wrote a number past 2^53.
      await handle.writeFile(`${stringifyJsonExact(checkpoint, 2)}\n`, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw fileError('write the checkpoint', path, e);
  }
  await syncFolder(dirname(path));
}

async function syncFolder(folder: string): Promise<void> {
  // Not every platform lets a folder be opened and fsynced (Windows): best effort.
  try {
    const handle = await open(folder, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    /* best effort */
  }
}

/**
 * What differs between the checkpoint's settings and map and the wanted ones, in words; empty when
 * resuming is safe. Page size and its parameter's name may change between runs: the cursor does not
 * depend on them. Without a wanted map only the settings are compared.
 */
export function settingsConflicts(saved: CheckpointSettings, wanted: CheckpointSettings, savedMap?: ServiceMap, wantedMap?: ServiceMap): string[] {
  const conflicts: string[] = [];
  const keys = ['baseUrl', 'vendor', 'format'] as const;
  for (const key of keys) {
    // The vendor is a label the person types: one vendor however spelled (its tokens are checked apart).
    const same = key === 'vendor' ? vendorKey(saved.vendor) === vendorKey(wanted.vendor) : saved[key] === wanted[key];
    if (!same) conflicts.push(`${key} was ${JSON.stringify(saved[key])}, now ${JSON.stringify(wanted[key])}`);
  }
  return wantedMap ? [...conflicts, ...mapConflicts(savedMap, wantedMap)] : conflicts;
}

/** The map's names that say how a page is asked for and read, in words. Every asset name is compared, named or not. */
const READING_NAMES: Record<string, string> = {
  'list.items': 'the items',
  'list.cursorParam': 'the cursor parameter',
  'list.cursor': 'the next cursor',
  'asset.id': 'the id field',
  'asset.title': 'the title field',
  'asset.category': 'the category field',
  'asset.price': 'the price field',
  'asset.priceUnit': 'the price unit',
  'asset.currency': 'the currency field',
  'asset.fixedCurrency': 'the fixed currency',
};

/**
 * The saved cursor means something only under the names that made it: sent under another parameter it is
 * ignored (page 1 again, duplicates appended); read from another place it skips or repeats items. And the
 * items written so far were read with the recorded map: another reading of the rest (a price unit, a
 * field) would mix two readings in one file. A recorded map that could not be read is a conflict too.
 */
function mapConflicts(saved: ServiceMap | undefined, wanted: ServiceMap): string[] {
  if (saved === undefined) return ['the service map it recorded could not be read, so whether this one reads the pages the same way is unknown'];
  const paths = [...new Set([...Object.keys(READING_NAMES), ...Object.keys({ ...saved.asset, ...wanted.asset }).map((k) => `asset.${k}`)])];
  const conflicts: string[] = [];
  for (const path of paths) {
    const [part, key] = path.split('.') as ['list' | 'asset', string];
    const was = (saved[part] as Record<string, unknown>)[key] ?? null;
    const now = (wanted[part] as Record<string, unknown>)[key] ?? null;
    if (JSON.stringify(was) === JSON.stringify(now)) continue;
    const what = READING_NAMES[path];
    conflicts.push(`${what ? `${what} (${path})` : path} was ${JSON.stringify(was)}, now ${JSON.stringify(now)}`);
  }
  return conflicts;
}

/** Throws a clear refusal when the checkpoint belongs to another download, or the rest would be read otherwise. */
export function assertResumable(checkpointPath: string, saved: Checkpoint, wanted: CheckpointSettings, map: ServiceMap, columns?: readonly string[]): void {
  const mapped = mapConflicts(saved.serviceMap, map);
  const conflicts = [...settingsConflicts(saved.settings, wanted), ...mapped];
  if (columns && saved.columns && columns.join('\u0000') !== saved.columns.join('\u0000')) {
    conflicts.push(`columns were ${saved.columns.join(',')}, now ${columns.join(',')}`);
  }
  if (conflicts.length === 0) return;
  const start = `delete ${basename(checkpointPath)} and the output to start over`;
  if (mapped.length > 0) {
    throw refused(
      `Cannot resume ${saved.output}: its checkpoint was made with other settings (${conflicts.join('; ')}). The items written so far were read with the service map it recorded, and the rest would not be read the same way: start over or restore the map.`,
      `Restore the service map the download began with, or ${start} (or choose another output file).`,
    );
  }
  throw refused(
    `Cannot resume ${saved.output}: its checkpoint was made with other settings (${conflicts.join('; ')}).`,
    `Use the same settings as before, or choose another output file (or ${start}).`,
  );
}

/** A finished download's output must be exactly what its checkpoint says was written: missing or changed, it is not "done". */
export async function assertOutputWhole(outPath: string, bytes: number): Promise<void> {
  let size: number;
  try {
    size = (await stat(outPath)).size;
  } catch (e) {
    if (!isMissing(e)) throw fileError('read', outPath, e);
    throw refused(
      `Cannot resume: the download into ${outPath} had finished, but the file is missing.`,
      'Start the download over (without --resume) to write it again, or restore the file.',
    );
  }
  if (size !== bytes) {
    throw refused(
      `Cannot resume: the download into ${outPath} had finished with ${bytes} bytes, but the file now has ${size} (was it changed?).`,
      'Start the download over (without --resume) to write it again, or restore the file.',
    );
  }
}

/**
 * Cuts the output back to the checkpoint's length, dropping a page that was half written when the
 * process died. Returns how many bytes were dropped. A file shorter than the checkpoint says was
 * changed by someone else: refuse rather than write a catalog with a hole in it.
 */
export async function truncateToCheckpoint(outPath: string, bytes: number): Promise<number> {
  let size: number;
  try {
    size = (await stat(outPath)).size;
  } catch (e) {
    if (!isMissing(e)) throw fileError('read', outPath, e);
    if (bytes === 0) return 0;
    throw refused(
      `Cannot resume: the output file ${outPath} is missing, but its checkpoint says ${bytes} bytes were written.`,
      'Delete the checkpoint to start over.',
    );
  }
  if (size < bytes) {
    throw refused(
      `Cannot resume: ${outPath} has ${size} bytes, fewer than the ${bytes} its checkpoint says were written (was it changed?).`,
      'Delete the output file and its checkpoint to start over.',
    );
  }
  if (size > bytes) {
    try {
      await truncate(outPath, bytes);
    } catch (e) {
      throw fileError('truncate', outPath, e);
    }
  }
  return size - bytes;
}
