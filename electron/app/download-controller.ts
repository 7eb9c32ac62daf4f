/**
 * The dashboard's whole-catalog download: one at a time, into <downloadDir>/catalog-<vendor>.<format>,
 * its progress forwarded as `downloadProgress` events (CatalogDownload throttles them to 4 per second).
 */
import type { ServiceMap } from '../../shared/service-map/schema';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { z } from 'zod';
import type { downloadProgressSchema } from '../../shared/bridge/schemas';
import { PartnerError } from '../../shared/errors';
import { CatalogDownload } from '../catalog';
import type { CatalogClient, CatalogProgress, ExportFormat } from '../catalog';
import { sameVendorService } from '../../shared/vendor-key';
import { catalogFileName, leftOnDisk, othersExport } from './download-on-disk';
import type { LeftOnDisk } from './download-on-disk';

export type DownloadProgressView = z.output<typeof downloadProgressSchema>;

/** What a download needs from the active connection. */
export interface DownloadTarget {
  profileId: string;
  /** How another profile's page names this download while it runs (default: the id). */
  profileName?: string;
  client: CatalogClient;
  baseUrl: string;
  vendor: string;
  /** The tokens the client sends: the checkpoint keeps their hashes, and a resume with none of them (another vendor's) is refused. */
  tokens: readonly string[];
  /** How the service's pages are asked for and read (the profile's service map: every name). */
  map?: ServiceMap;
}

interface Current {
  download: CatalogDownload;
  target: DownloadTarget;
  format: ExportFormat;
  run: Promise<CatalogProgress> | null;
  unsubscribe: () => void;
}

function idle(format: ExportFormat = 'jsonl'): DownloadProgressView {
  return {
    state: 'idle',
    format,
    outPath: null,
    pages: 0,
    items: 0,
    requests: 0,
    requestsPerSecond: 0,
    waitedMs: 0,
    rateLimited: 0,
    total: null,
    etaSeconds: null,
    bytes: 0,
    error: null,
    sharing: null,
    interrupted: null,
    profileId: null,
    otherProfile: null,
  };
}

export function toProgressView(p: CatalogProgress, running = false, profileId: string | null = null): DownloadProgressView {
  return {
    // Between start() and the first checkpoint the tracker still says idle; the run has begun.
    state: running && p.state === 'idle' ? 'running' : p.state,
    format: p.format,
    outPath: p.out,
    pages: p.pages,
    items: p.items,
    requests: p.requests,
    requestsPerSecond: p.requestsPerSecond,
    waitedMs: p.waitedMs,
    rateLimited: p.rateLimited,
    total: p.total,
    etaSeconds: p.etaSeconds,
    bytes: p.bytes,
    error: p.error ?? null,
    sharing: p.sharing,
    interrupted: null,
    profileId,
    otherProfile: null,
  };
}

export type InterruptedDownload = NonNullable<DownloadProgressView['interrupted']>;
/** Whose download: a profile and the service and vendor it points at. */
export type ServiceOf = Pick<DownloadTarget, 'profileId' | 'vendor' | 'baseUrl'>;

function withoutService({ format, outPath, pages, items }: LeftOnDisk): InterruptedDownload {
  return { format, outPath, pages, items };
}
const FORMATS: readonly ExportFormat[] = ['jsonl', 'csv'];

function conflict(message: string): PartnerError {
  return new PartnerError({ code: 'CONFLICT', message, retryable: false });
}

export class DownloadController {
  private current: Current | null = null;
  /** A start between its check and its launch (it awaits the folder): a second start in that window is refused too. */
  private starting = false;

  constructor(private readonly emit: (view: DownloadProgressView) => void) {}

  /** The profile the current (or last) download is for; null when there is none. */
  get profileId(): string | null {
    return this.current?.target.profileId ?? null;
  }

  /** The current (or last) download, whoever's it is. */
  status(): DownloadProgressView {
    const c = this.current;
    return c ? toProgressView(c.download.progress(), c.run !== null, c.target.profileId) : idle();
  }

  /** The profile's own download; another profile's running one only as `otherProfile` (its figures and file are not this profile's). */
  statusOf(profileId: string): DownloadProgressView {
    const c = this.current;
    if (c?.target.profileId === profileId) return this.status();
    // Running as its progress says: a paused run's loop may still be finishing its page (`run` set) for a moment.
    const running = c !== null && c !== undefined && this.status().state === 'running';
    return { ...idle(), otherProfile: running ? { id: c.target.profileId, name: c.target.profileName ?? c.target.profileId } : null };
  }

  /** The profile's status, and the unfinished download of its catalog left on disk (after a restart or a disconnect), if any. */
  async statusFor(target: ServiceOf, downloadDir: string): Promise<DownloadProgressView> {
    const view = this.statusOf(target.profileId);
    if (view.state === 'running') return view;
    const left = await this.interrupted(target, downloadDir, FORMATS);
    return { ...view, interrupted: left && sameVendorService(left, target) ? withoutService(left) : null };
  }

  /**
   * A fresh start (`resume` false) does not replace an unfinished download left on disk that this controller did
   * not run (the person was never shown it): that takes `replace`, the choice to start over.
   */
  async start(
    target: DownloadTarget,
    downloadDir: string,
    request: { format: ExportFormat; resume: boolean; replace?: boolean },
  ): Promise<DownloadProgressView> {
    if (this.current?.run || this.starting) throw conflict('A catalog download is already running; pause or cancel it first.');
    this.starting = true;
    try {
      const left = request.resume || request.replace ? null : await this.interrupted(target, downloadDir, [request.format]);
      if (left && sameVendorService(left, target)) {
        throw conflict(
          `An interrupted download of this catalog is in ${left.outPath} (${left.items} items, ${left.pages} pages): resume it, or start over to replace it.`,
        );
      }
      // The file names the vendor only: another profile's unfinished download (another service) is never replaced unseen.
      if (left) {
        throw conflict(
          `An unfinished download of vendor ${target.vendor} from ${left.baseUrl} (another profile) is in ${left.outPath} (${left.items} items): resume it from that profile, or choose another download folder in Settings.`,
        );
      }
      const others = request.replace ? null : await othersExport(target, downloadDir, request.format);
      if (others) {
        throw conflict(
          `${others.outPath} holds a finished download of vendor ${target.vendor} from ${others.baseUrl} (another profile, ${others.items} items): move or rename that file to keep it, or choose another download folder in Settings.`,
        );
      }
      await mkdir(downloadDir, { recursive: true });
      const out = join(downloadDir, catalogFileName(target.vendor, request.format));
      const download = new CatalogDownload({
        client: target.client,
        baseUrl: target.baseUrl,
        vendor: target.vendor,
        tokens: target.tokens,
        out,
        format: request.format,
        ...(target.map ? { map: target.map } : {}),
        resume: request.resume,
        // A fresh start replaces the previous export of this vendor and format once its first page is written.
        overwrite: !request.resume,
      });
      this.replace({ download, target, format: request.format, run: null, unsubscribe: () => undefined });
      this.launch(() => download.start());
    } finally {
      this.starting = false;
    }
    return this.status();
  }

  pause(profileId: string): DownloadProgressView {
    if (!this.current?.run) throw conflict('No catalog download is running.');
    this.assertOwn(profileId, 'pause');
    this.current.download.pause();
    return this.status();
  }

  async resume(target: DownloadTarget, downloadDir: string): Promise<DownloadProgressView> {
    const c = this.current;
    if (c?.run || this.starting) throw conflict('The catalog download is already running.');
    if (c && c.target.profileId === target.profileId && c.download.progress().state !== 'done') {
      this.launch(() => c.download.resume());
      return this.status();
    }
    // After a restart or a profile switch: pick up the checkpoint of this vendor's file, if any.
    const left = await this.interrupted(target, downloadDir, FORMATS);
    if (left && sameVendorService(left, target)) return this.start(target, downloadDir, { format: left.format, resume: true });
    throw new PartnerError({ code: 'NOT_FOUND', message: 'There is no interrupted catalog download to resume.', retryable: false });
  }

  /**
   * An unfinished checkpoint of the target vendor's catalog in one of `formats`, other than the file of this
   * profile's own current download (its panel shows that one, with its own Resume).
   */
  private async interrupted(target: ServiceOf, downloadDir: string, formats: readonly ExportFormat[]): Promise<LeftOnDisk | null> {
    const c = this.current;
    const own = c && c.target.profileId === target.profileId ? c.download.progress().out : null;
    for (const format of formats) {
      if (join(downloadDir, catalogFileName(target.vendor, format)) === own) continue;
      // A damaged checkpoint is not offered (resuming would refuse it); a start over replaces it.
      const left = await leftOnDisk(target.vendor, downloadDir, format);
      if (left && !left.done) return left;
    }
    return null;
  }

  async cancel(profileId: string, deleteFiles: boolean): Promise<DownloadProgressView> {
    const c = this.current;
    // Another profile's finished or stopped download is not this profile's to cancel: nothing of its own to cancel.
    if (!c || (c.target.profileId !== profileId && !c.run)) return idle();
    this.assertOwn(profileId, 'cancel');
    const final = await c.download.cancel({ deleteFiles });
    return toProgressView(final, false, profileId);
  }

  private assertOwn(profileId: string, action: string): void {
    const c = this.current;
    if (!c || c.target.profileId === profileId) return;
    throw conflict(`The catalog download running is another profile's (${c.target.profileName ?? c.target.profileId}): ${action} it from that profile.`);
  }

  /** Its profile disconnected, or dispose: cancel a running download (files kept for a resume) and forget it. */
  async stop(): Promise<void> {
    const c = this.current;
    if (!c) return;
    if (c.run) await c.download.cancel({ deleteFiles: false }).catch(() => undefined);
    c.unsubscribe();
    this.current = null;
  }

  private replace(next: Current): void {
    this.current?.unsubscribe();
    next.unsubscribe = next.download.onProgress((p) =>
      this.emit(toProgressView(p, this.current?.download === next.download && next.run !== null, next.target.profileId)),
    );
    this.current = next;
  }

  private launch(run: () => Promise<CatalogProgress>): void {
    const c = this.current;
    if (!c) return;
    const promise = run();
    c.run = promise;
    void promise
      .catch(() => undefined)
      .finally(() => {
        if (c.run === promise) c.run = null;
      });
  }
}
