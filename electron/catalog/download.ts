/**
 * The whole catalog, one page at a time by last_id, into a JSON Lines or CSV file, resumable.
 *
 * Crash safety rests on one order of writes per page: the page's items go into the output and are
 * fsynced, THEN the checkpoint (cursor, counts, output length) is replaced atomically. A resume cuts
 * the output back to the checkpoint's length and asks for the page after the checkpoint's cursor,
 * so an item is never lost and never written twice, whatever moment the process died at.
 *
 * A fresh run over an existing output is a start over (./start-over): the previous export stays until
 * the new run's first page is safely written.
 */
import { rm, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { timerClock } from '../../shared/clock';
import { systemClock } from '../client/clock';
import type { Clock } from '../../shared/clock';
import { PartnerError, toErrorData } from '../../shared/errors';
import type { ErrorData } from '../../shared/errors';
import type { BudgetSample } from '../../shared/rate-limit';
import { foundAlternative } from '../../shared/service-map/field-path';
import { CHECKPOINT_VERSION, assertOutputWhole, assertResumable, checkpointPathFor, readCheckpoint, truncateToCheckpoint, writeCheckpoint } from './checkpoint';
import type { Checkpoint, CheckpointSettings } from './checkpoint';
import type { CatalogClient } from './client-port';
import { unlistedWarning } from './csv';
import type { UnlistedField } from './csv';
import { createEncoder } from './encoder';
import { fingerprintTokens, sharesToken } from './token-fingerprint';
import type { TokenFingerprint } from './token-fingerprint';
import type { RecordEncoder } from './encoder';
import { FileLock } from './file-lock';
import { OutputFile } from './output-file';
import { endShortOfTotal, sameCursor } from './page';
import { StartOver } from './start-over';
import type { Cursor, ParsedPage } from './page';
import { ProgressTracker, ProgressEmitter } from './progress';
import type { CatalogProgress } from './progress';
import { readPage } from './read-page';
import { RecentIds, repeatsWarning, withoutRepeat } from './repeats';
import { DEFAULT_DOWNLOAD_PAGE_SIZE, formatForPath, normalizeBaseUrl, pageShape, validatePageSize } from './settings';
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
  /** CSV columns; default: the keys of the first page's items. */
  columns?: string[];
  /** The tokens the client sends: their keyed hashes in the checkpoint refuse a resume with none of them (another vendor's). */
  tokens?: readonly string[];
  /** Continue from the checkpoint when there is one (default false: an existing output is refused). */
  resume?: boolean;
  /** Replace an existing output and checkpoint when not resuming (default false). */
  overwrite?: boolean;
  /** Progress events at most once per this many ms (default 250). */
  progressIntervalMs?: number;
  /** An empty page that says more follows is asked again this many times before the download fails (default 2). */
  emptyPageRetries?: number;
  /** The wait before the first such retry, growing linearly (default 1000 ms). */
  emptyPageRetryDelayMs?: number;
  clock?: Clock;
}

export interface CancelOptions {
  /** Also delete the output file and its checkpoint (default: keep both, so the download can resume later). */
  deleteFiles?: boolean;
}

export class CatalogDownload {
  readonly out: string;
  readonly checkpointPath: string;
  /** Held by a run, and by cancel while it deletes the files. */
  private readonly lockPath: string;
  /** Where a start over writes until its first page takes the output's place. */
  private readonly startOver: StartOver;
  /** A start over that has not written its first page: the output and checkpoint on disk are still the previous export's. */
  private staged = false;
  readonly format: ExportFormat;
  private readonly settings: CheckpointSettings;
  private readonly shape: PageShape;
  private readonly tracker: ProgressTracker;
  private readonly emitter: ProgressEmitter<CatalogProgress>;
  private running: Promise<CatalogProgress> | null = null;
  private abort: AbortController | null = null;
  private pauseRequested = false;
  private cancelRequested = false;
  private readonly clock: Clock;
  /** The download's own waits (an empty page asked again): a timer that keeps the process alive, unlike progress timers. */
  private readonly waitClock: Clock;
  private readonly emptyPageRetries: number;
  private readonly emptyPageRetryDelayMs: number;
  /** What the pages showed the service ignores (verification), each said once. */
  private readonly pageWarnings = new Set<string>();
  /** Items the service sent again that were left out (a page that went back). */
  private repeatsLeftOut = 0;
  private overTotalSaid = false;

  /** Throws PartnerError BAD_REQUEST on bad settings, before anything is sent or written. */
  constructor(private readonly options: CatalogDownloadOptions) {
    this.out = resolve(options.out);
    this.checkpointPath = checkpointPathFor(this.out);
    this.lockPath = `${this.out}.lock`;
    this.startOver = new StartOver(this.out, this.checkpointPath);
    this.format = formatForPath(this.out, options.format);
    this.shape = pageShape(options);
    this.settings = {
      baseUrl: normalizeBaseUrl(options.baseUrl),
      vendor: options.vendor,
      format: this.format,
      pageSize: validatePageSize(options.pageSize ?? DEFAULT_DOWNLOAD_PAGE_SIZE),
    };
    if (options.columns !== undefined && (options.columns.length === 0 || options.columns.some((c) => c === ''))) {
      throw new PartnerError({ code: 'BAD_REQUEST', message: 'CSV columns must be a non-empty list of non-empty names.', retryable: false });
    }
    const clock = options.clock ?? timerClock;
    this.clock = clock;
    this.waitClock = options.clock ?? systemClock;
    this.emptyPageRetries = options.emptyPageRetries ?? 2;
    this.emptyPageRetryDelayMs = options.emptyPageRetryDelayMs ?? 1000;
    this.tracker = new ProgressTracker(() => clock.now(), { out: this.out, checkpoint: this.checkpointPath, format: this.format });
    this.emitter = new ProgressEmitter(clock, options.progressIntervalMs ?? 250, () => this.tracker.snapshot());
  }

  /** Runs until done, paused, cancelled or failed; resolves with the final progress (never rejects). */
  start(): Promise<CatalogProgress> {
    return this.launch(this.options.resume ?? false);
  }

  /** Continues a paused, failed or cancelled download from its checkpoint. */
  resume(): Promise<CatalogProgress> {
    // A start over stopped before its first page has no checkpoint of its own: it starts over again.
    return this.launch(!this.staged);
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
    }
    // Also when the run had just paused or failed on its own while cleaning up.
    if (this.tracker.current !== 'done') this.tracker.setState('cancelled');
    this.emitter.notify(true);
    if (options.deleteFiles) await this.deleteFiles();
    return this.tracker.snapshot();
  }

  /** The output and its checkpoint, under the run's lock: the files of another run writing them are never deleted. */
  private async deleteFiles(): Promise<void> {
    let lock: FileLock;
    try {
      lock = await FileLock.acquire(this.lockPath, `The download into ${this.out}`);
    } catch (e) {
      if (!(e instanceof PartnerError)) throw e;
      throw new PartnerError({ ...e.data, message: `Not deleting ${this.out} or its checkpoint. ${e.message}` });
    }
    try {
      // A start over that wrote no page has no files but its staging file: the previous export is not this run's.
      if (!this.staged) {
        await rm(this.out, { force: true });
        await rm(this.checkpointPath, { force: true });
      }
      await this.startOver.discard();
    } finally {
      await lock.release();
    }
  }

  /** Warnings from the pages read so far (e.g. the page-size parameter seems ignored). */
  get warnings(): string[] {
    return [...this.pageWarnings, ...(this.repeatsLeftOut > 0 ? [repeatsWarning(this.repeatsLeftOut)] : [])];
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
    let fresh = false;
    let checkpoint: Checkpoint | null = null;
    let lock: FileLock | null = null;
    try {
      // Before the checkpoint is read: a second run on the same file is refused, never interleaved.
      lock = await FileLock.acquire(this.lockPath, `The download into ${this.out}`);
      const prepared = await this.prepare(resume);
      fresh = !prepared.resumed;
      this.staged = prepared.staged;
      checkpoint = prepared.checkpoint;
      this.tracker.beginRun(checkpoint, prepared.resumed);
      if (checkpoint.done) return this.finish('done');
      this.tracker.setState('running');
      this.emitter.notify(true);

      output = await OutputFile.open(this.staged ? this.startOver.stagingPath : this.out, prepared.resumed ? 'append' : 'replace', checkpoint.bytes);
      const encoder = createEncoder(
        this.format,
        checkpoint.columns ?? this.options.columns ?? null,
        checkpoint.columns !== null,
        this.unlistedSoFar(checkpoint),
      );
      // Said again after a resume: the fields left out before it are still not in the file.
      for (const field of checkpoint.unlistedFields ?? []) this.pageWarnings.add(unlistedWarning(field));
      // The client is shared with the app (the Catalog view, demo traffic): count only this download's requests.
      const countSample = (sample: BudgetSample): void => {
        this.tracker.addSample(sample);
        this.emitter.notify();
      };

      const seenCursors = new Set<string>();
      const recent = new RecentIds();
      let emptyPages = 0;
      let emptyFollowed = 0;
      // The cursor this request carries: the checkpoint's, unless a page was dropped (see below).
      let sending = checkpoint.cursor;
      let shape = this.shape;
      for (;;) {
        if (this.cancelRequested) return this.finish('cancelled');
        if (this.pauseRequested) return this.finish('paused');
        if (sending !== null) seenCursors.add(String(sending));
        const sent = sending;
        let page = await readPage(this.options.client, {
          ...shape,
          lastId: sent,
          pageSize: this.settings.pageSize,
          signal,
          priority: 'background',
          onSample: countSample,
        });
        page = withoutRepeat(page, checkpoint.lastItemId ?? null, sent);
        for (const warning of page.warnings) this.pageWarnings.add(warning);
        // An empty page with a new cursor (a filtered scan's empty stretch) moves on: followed like any page, bounded.
        const movesOn =
          page.items.length === 0 && page.cursor !== null && !page.done && !seenCursors.has(String(page.cursor)) && emptyFollowed < MAX_EMPTY_FOLLOWED;
        if (page.items.length === 0 && saysMoreFollows(page, checkpoint.items) && !movesOn) {
          // Never a truncated catalog reported as done: ask again, then fail (the checkpoint stays where it is).
          emptyPages += 1;
          if (emptyPages > this.emptyPageRetries) throw emptyPageError(page.total, checkpoint.items, emptyPages);
          await sleepOn(this.waitClock, this.emptyPageRetryDelayMs * emptyPages, signal);
          continue;
        }
        emptyPages = 0;
        emptyFollowed = movesOn ? emptyFollowed + 1 : 0;
        if (movesOn) seenCursors.add(String(page.cursor));
        if (page.cursorEchoed) {
          // The cursor field does not advance (an echo, a constant): the rest of this run reads the last item's id.
          shape = byLastItemId(shape);
          const after = checkpoint.lastItemId ?? null;
          if (!sameCursor(sent, after)) {
            // What was sent came from that field, not from an item: the answer to it may be any page. Drop
            // it and ask after the last item written; without one, stop rather than guess.
            if (after === null || seenCursors.has(String(after)))
              throw nonAdvancingCursorError(foundAlternative(page.raw, this.shape.map.list.cursor) ?? this.shape.map.list.cursor, sent, checkpoint.items);
            sending = after;
            continue;
          }
        }
        // Items of the last pages again (a page that went back) are not written twice, nor counted toward the total.
        const fresh = recent.fresh(page.items);
        page = endShortOfTotal(page, checkpoint.items + fresh.length);
        for (const warning of page.warnings) this.pageWarnings.add(warning);
        if (page.items.length > 0 && !page.done && page.cursor !== null) {
          // Any cursor given before, not only the last: 3 -> 6 -> 3 would loop for ever.
          const key = String(page.cursor);
          if (seenCursors.has(key)) throw repeatedCursorError(page.cursor, checkpoint.items);
          seenCursors.add(key);
        }
        // The same first item as the page written last (also before a resume) is the same page again.
        const first = page.items[0]?.id ?? null;
        if (sameCursor(first, checkpoint.firstItemId ?? null)) throw samePageError(first!, this.shape.map.list.cursorParam, checkpoint.items);
        this.repeatsLeftOut += page.items.length - fresh.length;
        page = { ...page, items: fresh };
        checkpoint = await this.writePage(output, encoder, checkpoint, page);
        recent.add(page.items);
        this.sayIfOverTotal(checkpoint);
        sending = checkpoint.cursor;
        this.tracker.addPage(page.items.length, checkpoint.bytes, page.total);
        if (checkpoint.done) return this.finish('done');
        this.emitter.notify();
      }
    } catch (e) {
      return this.cancelRequested ? this.finish('cancelled') : this.finish('failed', toErrorData(e));
    } finally {
      await output?.close().catch(() => undefined);
      // A fresh download that stopped before its first page leaves nothing worth resuming: no files of its own either.
      if (this.staged) await this.startOver.discard().catch(() => undefined);
      else if (fresh && checkpoint?.pages === 0 && (this.tracker.current === 'failed' || this.tracker.current === 'cancelled')) {
        await rm(this.out, { force: true }).catch(() => undefined);
        await rm(this.checkpointPath, { force: true }).catch(() => undefined);
      }
      await lock?.release().catch(() => undefined);
    }
  }

  /** Items into the output, fsync, then the checkpoint: this order is what makes a resume exact. */
  private async writePage(output: OutputFile, encoder: RecordEncoder, previous: Checkpoint, page: ParsedPage): Promise<Checkpoint> {
    const head = encoder.begin(page.items);
    if (head !== '') await output.write(head);
    for (const warning of encoder.note(page.items, previous.pages + 1)) this.pageWarnings.add(warning);
    for (const item of page.items) await output.write(encoder.encode(item));
    await output.flush();
    if (this.staged) {
      await this.startOver.commit();
      this.staged = false;
    }
    const next: Checkpoint = {
      ...previous,
      // An end marker may come with a null cursor: keep the last real one for the record.
      cursor: page.cursor ?? previous.cursor,
      lastItemId: page.lastItemId ?? previous.lastItemId ?? null,
      firstItemId: page.items[0]?.id ?? previous.firstItemId ?? null,
      done: page.done,
      pages: previous.pages + 1,
      items: previous.items + page.items.length,
      bytes: output.bytes,
      columns: encoder.columns,
      ...(encoder.unlisted ? { unlistedFields: encoder.unlisted } : {}),
      total: page.total ?? previous.total,
      updatedAt: new Date().toISOString(),
    };
    await writeCheckpoint(this.checkpointPath, next);
    return next;
  }

  /** More items written than the service counts: said once, at the page that passed its total. */
  private sayIfOverTotal({ items, pages, total }: Checkpoint): void {
    if (this.overTotalSaid || total === null || items <= total) return;
    this.overTotalSaid = true;
    this.pageWarnings.add(
      `${items} items were written by page ${pages}, more than the total of ${total} the service gives: it counts fewer items than it sends, or items were added during the download.`,
    );
  }

  /**
   * The fields already said to be left out of the CSV, when its header is (or will be) the first page's;
   * null when chosen columns leave fields out on purpose (or an older checkpoint does not say).
   */
  private unlistedSoFar(checkpoint: Checkpoint): UnlistedField[] | null {
    if (this.format !== 'csv') return null;
    if (checkpoint.columns === null) return this.options.columns === undefined ? [] : null;
    return checkpoint.unlistedFields ?? null;
  }

  /** Reads the checkpoint and decides: fresh start, resume, or a clear refusal. */
  private async prepare(resume: boolean): Promise<{ checkpoint: Checkpoint; resumed: boolean; staged: boolean }> {
    // Told to replace them (start over), a damaged checkpoint or an older one no longer read is replaced too.
    const replacing = !resume && this.options.overwrite === true;
    await this.startOver.recover();
    const saved = await readCheckpoint(this.checkpointPath).catch((e: unknown) => {
      if (replacing) return null;
      throw e;
    });
    const outputSize = await fileSize(this.out);
    if (resume && saved) {
      assertResumable(this.checkpointPath, saved, this.settings, this.shape.map, this.format === 'csv' ? this.options.columns : undefined);
      // A finished download is "done" only while its file is the one it wrote.
      const tokens = await this.tokensForResume(saved);
      if (saved.done) await assertOutputWhole(this.out, saved.bytes);
      else await truncateToCheckpoint(this.out, saved.bytes);
      return { checkpoint: { ...saved, settings: { ...this.settings }, ...(tokens ? { tokens } : {}) }, resumed: true, staged: false };
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
      version: CHECKPOINT_VERSION,
      output: this.out.split(/[\\/]/).pop() ?? this.out,
      settings: { ...this.settings },
      cursor: null,
      lastItemId: null,
      firstItemId: null,
      done: false,
      pages: 0,
      items: 0,
      bytes: 0,
      columns: null,
      total: null,
      startedAt: now,
      updatedAt: now,
      // So that --resume reads the rest with the same map and names (a detected one is not detected again).
      serviceMap: this.shape.map,
      ...(this.options.tokens?.length ? { tokens: await fingerprintTokens(this.options.tokens) } : {}),
    };
    // Something is there to replace: it stays as it is until the first page of this run is written.
    if (outputSize !== null || saved !== null) return { checkpoint: fresh, resumed: false, staged: true };
    // Written before the first request, so that even a crash on page one leaves a resumable pair.
    await OutputFile.open(this.out, 'replace', 0).then((f) => f.close());
    await writeCheckpoint(this.checkpointPath, fresh);
    return { checkpoint: fresh, resumed: false, staged: false };
  }

  /** The checkpoint's token hashes for the resumed run; refused when the tokens given share none with them. */
  private async tokensForResume(saved: Checkpoint): Promise<TokenFingerprint | undefined> {
    const tokens = this.options.tokens;
    if (!tokens?.length) return saved.tokens;
    // An older checkpoint without them: accepted, and from now on it carries these tokens'.
    if (!saved.tokens) return fingerprintTokens(tokens);
    if (await sharesToken(saved.tokens, tokens)) return saved.tokens;
    throw new PartnerError({
      code: 'BAD_REQUEST',
      retryable: false,
      message: `Cannot resume ${this.out}: it was begun with other tokens (none of the ones given now), so the rest could be another vendor's catalog appended to this one.`,
      hint: 'Resume with a token the download began with; if that token was replaced, start the download over (into another file, or replacing this one).',
    });
  }

  private finish(state: 'done' | 'paused' | 'cancelled' | 'failed', error?: ErrorData): CatalogProgress {
    this.tracker.setState(state, error);
    this.emitter.notify(true);
    return this.tracker.snapshot();
  }
}

/** Empty pages with a new cursor followed in a row before the run counts them as empty pages that say more follows. */
const MAX_EMPTY_FOLLOWED = 50;

/** An empty page whose body says another follows, or that leaves the catalog short of its stated total. */
function saysMoreFollows(page: ParsedPage, saved: number): boolean {
  return !page.done || (page.total !== null && saved < page.total);
}

/** The page shape with the cursor field ignored: the next last_id is the last item's id (the spec's rule). */
function byLastItemId(shape: PageShape): PageShape {
  return { ...shape, map: { ...shape.map, list: { ...shape.map.list, cursor: null } } };
}

function nonAdvancingCursorError(field: string | null, cursor: Cursor | null, saved: number): PartnerError {
  return new PartnerError({
    code: 'INVALID_RESPONSE',
    endpoint: 'GET /assets/list',
    message: `The cursor field \`${field ?? 'id'}\` does not advance: it sent back the cursor it was given (${String(cursor)}), and no last item's id to continue from is known. ${saved} items are saved and the checkpoint is intact.`,
    hint: "Set list.cursor to none in the service map (pages then start after the last item's id) and start the download over: the saved cursor did not come from an item, so it cannot be resumed from.",
    retryable: false,
  });
}

function emptyPageError(total: number | null, saved: number, times: number): PartnerError {
  return new PartnerError({
    code: 'INVALID_RESPONSE',
    endpoint: 'GET /assets/list',
    message: `The service sent an empty page ${times} times in a row while saying more follows (${saved}${total === null ? '' : ` of ${total}`} items saved); stopping rather than report a truncated catalog as done.`,
    hint: 'The checkpoint is intact: resume later.',
    retryable: true,
  });
}

function samePageError(first: Cursor, param: string, saved: number): PartnerError {
  return new PartnerError({
    code: 'INVALID_RESPONSE',
    endpoint: 'GET /assets/list',
    message: `The service sent the same page twice (both start with item ${String(first)}): it seems to ignore \`${param}\`. Stopping rather than write it again; ${saved} items are saved and the checkpoint is intact.`,
    hint: "Check the cursor parameter's name (list.cursorParam) in the profile's service map; a download under another one starts over.",
    retryable: false,
  });
}

function repeatedCursorError(cursor: Cursor, saved: number): PartnerError {
  return new PartnerError({
    code: 'INVALID_RESPONSE',
    endpoint: 'GET /assets/list',
    message: `The service returned the same cursor (${String(cursor)}) twice; stopping rather than loop. ${saved} items are saved and the checkpoint is intact.`,
    hint: "Check the id field and the cursor settings of the profile's service map; a download under changed ones starts over (its saved cursor means nothing under them).",
    retryable: false,
  });
}

/** A wait on the download's clock that an abort ends early (cancel). */
function sleepOn(clock: Clock, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clock.clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = clock.setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

async function fileSize(path: string): Promise<number | null> {
  try {
    return (await stat(path)).size;
  } catch {
    return null;
  }
}
