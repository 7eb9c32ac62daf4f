/**
 * What earlier downloads left in the download folder, read from their checkpoints: an unfinished one to
 * offer for a resume, and a finished export another service wrote under the same vendor's file name.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { sameVendorService } from '../../shared/vendor-key';
import { checkpointPathFor, readCheckpoint } from '../catalog';
import type { ExportFormat } from '../catalog';

/** A checkpoint on disk, with the service and vendor it was made for. */
export interface LeftOnDisk {
  format: ExportFormat;
  outPath: string;
  pages: number;
  items: number;
  done: boolean;
  baseUrl: string;
  vendor: string;
}

/** File names carry the vendor: keep them to characters every file system accepts. */
export function catalogFileName(vendor: string, format: ExportFormat): string {
  const safe = vendor.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '_') || 'vendor';
  return `catalog-${safe}.${format}`;
}

/** The checkpoint of `vendor`'s file in `format`; null when there is none (a damaged one too: a start over replaces it). */
export async function leftOnDisk(vendor: string, downloadDir: string, format: ExportFormat): Promise<LeftOnDisk | null> {
  const outPath = join(downloadDir, catalogFileName(vendor, format));
  const saved = await readCheckpoint(checkpointPathFor(outPath)).catch(() => null);
  if (!saved) return null;
  const { pages, items, done } = saved;
  return { format, outPath, pages, items, done, baseUrl: saved.settings.baseUrl, vendor: saved.settings.vendor };
}

/** A finished export of another service in the target's file, still there: never replaced without the person's choice. */
export async function othersExport(target: { vendor: string; baseUrl: string }, downloadDir: string, format: ExportFormat): Promise<LeftOnDisk | null> {
  const left = await leftOnDisk(target.vendor, downloadDir, format);
  if (!left?.done || sameVendorService(left, target)) return null;
  const there = await stat(left.outPath).then(
    () => true,
    () => false,
  );
  return there ? left : null;
}
