/**
 * The whole catalog, one page at a time by last_id, into a JSON Lines or CSV file, resumable.
 *
 * Crash safety rests on one order of writes per page: the page's items go into the output and are
 * fsynced, THEN the checkpoint (cursor, counts, output length) is replaced atomically. A resume cuts
 * the output back to the checkpoint's length and asks for the page after the checkpoint's cursor,
 * so an item is never lost and never written twice, whatever moment the process died at.
 */
import { rm, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { timerClock } from '../../shared/clock';
import type { Clock } from '../../shared/clock';
import { PartnerError, toErrorData } from '../../shared/errors';
import type { ErrorData } from '../../shared/errors';
import type { BudgetSample } from '../../shared/rate-limit';
import { assertResumable, checkpointPathFor, readCheckpoint, truncateToCheckpoint, writeCheckpoint } from './checkpoint';
import type { Checkpoint, CheckpointSettings } from './checkpoint';
import type { CatalogClient } from './client-port';
import { createEncoder } from './encoder';
import type { RecordEncoder } from './encoder';
import { OutputFile } from './output-file';
import { sameCursor } from './page';
import type { Cursor } from './page';
import { ProgressTracker, ThrottledEmitter } from './progress';
import type { CatalogProgress } from './progress';
import { readPage } from './read-page';
import { DEFAULT_DOWNLOAD_PAGE_SIZE, formatForPath, normalizeBaseUrl, pageShape, validatePageSize, validatePageSizeParam } from './settings';
import type { ExportFormat, PageShape } from './settings';

export interface CatalogDownloadOptions extends Partial<PageShape> {
  /** The rate-aware client (PartnerClient) of the vendor. */
  client: CatalogClient;
  /** Base URL and vendor of the client: they identify the download in its checkpoint. */
  baseUrl: string;
  vendor: string;
  /** Output file; its checkpoint is `<out>.checkpoint.json` beside it. */
  out: string;
  /** Default: from the extension (.jsonl/.ndjson, .csv). */
  format?: ExportFormat | 'ndjson';
  /** Default 100; 1..100. */
  pageSize?: number;
  /** Default 'per-page'. */
  pageSizeParam?: string;
  /** CSV columns; default: the keys of the first page's items. */
  columns?: string[];
  /** Continue from the checkpoint when there is one (default false: an existing output is refused). */
  resume?: boolean;
  /** Replace an existing output and checkpoint when not resuming (default false). */
  overwrite?: boolean;
  /** Progress events at most once per this many ms (default 250). */
  progressIntervalMs?: number;
  clock?: Clock;
}

export interface CancelOptions {
  /** Also delete the output file and its checkpoint (default: keep both, so the download can resume later). */
  deleteFiles?: boolean;
}

export class CatalogDownload {
  readonly out: string;
  readonly checkpointPath: string;
  readonly format: ExportFormat;
  private readonly settings: CheckpointSettings;
  private readonly shape: PageShape;
  private readonly tracker: ProgressTracker;
  private readonly emitter: ThrottledEmitter<CatalogProgress>;
  private running: Promise<CatalogProgress> | null = null;
  private abort: AbortController | null = null;
  private pauseRequested = false;
  private cancelRequested = false;

  /** Throws PartnerError BAD_REQUEST on bad settings, before anything is sent or written. */
  constructor(private readonly options: CatalogDownloadOptions) {
    this.out = resolve(options.out);
    this.checkpointPath = checkpointPathFor(this.out);
    this.format = formatForPath(this.out, options.format);
    this.shape = pageShape(options);
    this.settings = {
      baseUrl: normalizeBaseUrl(options.baseUrl),
      vendor: options.vendor,
      format: this.format,
      idField: this.shape.idField,
      pageSize: validatePageSize(options.pageSize ?? DEFAULT_DOWNLOAD_PAGE_SIZE),
      pageSizeParam: validatePageSizeParam(options.pageSizeParam),
    };
    if (options.columns !== undefined && (options.columns.length === 0 || options.columns.some((c) => c === ''))) {
      throw new PartnerError({ code: 'BAD_REQUEST', message: 'CSV columns must be a non-empty list of non-empty names.', retryable: false });
    }
    const clock = options.clock ?? timerClock;
    this.tracker = new ProgressTracker(() => clock.now(), { out: this.out, checkpoint: this.checkpointPath, format: this.format });
    this.emitter = new ThrottledEmitter(clock, options.progressIntervalMs ?? 250, () => this.tracker.snapshot());
  }

  /** Runs until done, paused, cancelled or failed; resolves with the final progress (never rejects). */
  start(): Promise<CatalogProgress> {
    return this.launch(this.options.resume ?? false);
  }

  /** Continues a paused, failed or cancelled download from its checkpoint. */
  resume(): Promise<CatalogProgress> {
    return this.launch(true);
  }

  /** Stops after the page in flight is written and checkpointed. */
  pause(): void {
    if (this.running) this.pauseRequested = true;
  }

  /** Aborts the request in flight. Keeps the checkpoint and file for a later resume unless told to delete them. */
  async cancel(options: CancelOptions = {}): Promise<CatalogProgress> {
    if (this.running) {
      this.cancelRequested = true;
      this.abort?.abort();
      await this.running;
    } else if (this.tracker.current !== 'done') {
      this.tracker.setState('cancelled');
    }
    if (options.deleteFiles) {
      await rm(this.out, { force: true });
      await rm(this.checkpointPath, { force: true });
    }
    this.emitter.notify(true);
    return this.tracker.snapshot();
  }

  onProgress(listener: (progress: CatalogProgress) => void): () => void {
    return this.emitter.subscribe(listener);
  }

  progress(): CatalogProgress {
    return this.tracker.snapshot();
  }

  private launch(resume: boolean): Promise<CatalogProgress> {
    if (this.running) {
      return Promise.reject(new PartnerError({ code: 'BAD_REQUEST', message: 'This catalog download is already running.', retryable: false }));
    }
    this.pauseRequested = false;
    this.cancelRequested = false;
    this.abort = new AbortController();
    const run = this.run(resume, this.abort.signal).finally(() => {
      this.running = null;
      this.abort = null;
      this.emitter.stop();
    });
    this.running = run;
    return run;
  }

  private async run(resume: boolean, signal: AbortSignal): Promise<CatalogProgress> {
    let output: OutputFile | null = null;
    let unsubscribe: (() => void) | null = null;
    let fresh = false;
    let checkpoint: Checkpoint | null = null;
    try {
      const prepared = await this.prepare(resume);
      fresh = !prepared.resumed;
      checkpoint = prepared.checkpoint;
      this.tracker.beginRun(checkpoint, prepared.resumed);
      if (checkpoint.done) return this.finish('done');
      this.tracker.setState('running');
      this.emitter.notify(true);

      output = await OutputFile.open(this.out, prepared.resumed ? 'append' : 'replace', checkpoint.bytes);
      const encoder = createEncoder(this.format, checkpoint.columns ?? this.options.columns ?? null, checkpoint.columns !== null);
      let inFlight = false;
      unsubscribe = this.options.client.onSample((sample: BudgetSample) => {
        // The client is shared with the app: count only this download's requests.
        if (!inFlight || sample.endpoint !== 'listAssets' || sample.vendor !== this.settings.vendor) return;
        this.tracker.addSample(sample);
        this.emitter.notify();
      });

      for (;;) {
        if (this.cancelRequested) return this.finish('cancelled');
        if (this.pauseRequested) return this.finish('paused');
        inFlight = true;
        const page = await readPage(this.options.client, {
          ...this.shape,
          lastId: checkpoint.cursor,
          pageSize: this.settings.pageSize,
          pageSizeParam: this.settings.pageSizeParam,
          signal,
          priority: 'background',
        }).finally(() => {
          inFlight = false;
        });
        if (page.items.length > 0 && !page.done && sameCursor(page.cursor, checkpoint.cursor)) {
          throw new PartnerError({
            code: 'INVALID_RESPONSE',
            endpoint: 'GET /assets/list',
            message: `The service returned the same cursor (${String(page.cursor)}) twice; stopping rather than loop. ${checkpoint.items} items are saved.`,
            hint: 'Check the id field and cursor field settings.',
            retryable: false,
          });
        }
        checkpoint = await this.writePage(output, encoder, checkpoint, page);
        this.tracker.addPage(page.items.length, checkpoint.bytes, page.total);
        if (checkpoint.done) return this.finish('done');
        this.emitter.notify();
      }
    } catch (e) {
      return this.cancelRequested ? this.finish('cancelled') : this.finish('failed', toErrorData(e));
    } finally {
      unsubscribe?.();
      await output?.close().catch(() => undefined);
      // A fresh download that stopped before its first page leaves nothing worth resuming: no files either.
      if (fresh && checkpoint?.pages === 0 && (this.tracker.current === 'failed' || this.tracker.current === 'cancelled')) {
        await rm(this.out, { force: true }).catch(() => undefined);
        await rm(this.checkpointPath, { force: true }).catch(() => undefined);
      }
    }
  }

  /** Items into the output, fsync, then the checkpoint: this order is what makes a resume exact. */
  private async writePage(
    output: OutputFile,
    encoder: RecordEncoder,
    previous: Checkpoint,
    page: { items: Record<string, unknown>[]; cursor: Cursor | null; done: boolean; total: number | null },
  ): Promise<Checkpoint> {
    const head = encoder.begin(page.items);
    if (head !== '') await output.write(head);
    for (const item of page.items) await output.write(encoder.encode(item));
    await output.flush();
    const next: Checkpoint = {
      ...previous,
      // An end marker may come with a null cursor: keep the last real one for the record.
      cursor: page.cursor ?? previous.cursor,
      done: page.done,
      pages: previous.pages + 1,
      items: previous.items + page.items.length,
      bytes: output.bytes,
      columns: encoder.columns,
      total: page.total ?? previous.total,
      updatedAt: new Date().toISOString(),
    };
    await writeCheckpoint(this.checkpointPath, next);
    return next;
  }

  /** Reads the checkpoint and decides: fresh start, resume, or a clear refusal. */
  private async prepare(resume: boolean): Promise<{ checkpoint: Checkpoint; resumed: boolean }> {
    const saved = await readCheckpoint(this.checkpointPath);
    const outputSize = await fileSize(this.out);
    if (resume && saved) {
      assertResumable(this.checkpointPath, saved, this.settings, this.format === 'csv' ? this.options.columns : undefined);
      if (!saved.done) await truncateToCheckpoint(this.out, saved.bytes);
      return { checkpoint: { ...saved, settings: { ...this.settings } }, resumed: true };
    }
    // An empty output whose checkpoint has no page is what a run killed before its first page leaves.
    const emptyLeftover = saved !== null && saved.pages === 0 && outputSize === 0;
    if (outputSize !== null && !emptyLeftover && (resume || !this.options.overwrite)) {
      throw new PartnerError({
        code: 'BAD_REQUEST',
        retryable: false,
        message: resume
          ? `Cannot resume: ${this.out} exists but has no checkpoint (${this.checkpointPath}), so where it stopped is unknown.`
          : `${this.out} already exists; not overwriting it.`,
        hint: resume ? 'Choose another output file, or delete this one to start over.' : 'Resume it (--resume) or choose another output file (--out).',
      });
    }
    const now = new Date().toISOString();
    const fresh: Checkpoint = {
      version: 1,
      output: this.out.split(/[\\/]/).pop() ?? this.out,
      settings: { ...this.settings },
      cursor: null,
      done: false,
      pages: 0,
      items: 0,
      bytes: 0,
      columns: null,
      total: null,
      startedAt: now,
      updatedAt: now,
    };
    // Written before the first request, so that even a crash on page one leaves a resumable pair.
    await OutputFile.open(this.out, 'replace', 0).then((f) => f.close());
    await writeCheckpoint(this.checkpointPath, fresh);
    return { checkpoint: fresh, resumed: false };
  }

  private finish(state: 'done' | 'paused' | 'cancelled' | 'failed', error?: ErrorData): CatalogProgress {
    this.tracker.setState(state, error);
    this.emitter.notify(true);
    return this.tracker.snapshot();
  }
}

async function fileSize(path: string): Promise<number | null> {
  try {
    return (await stat(path)).size;
  } catch {
    return null;
  }
}
