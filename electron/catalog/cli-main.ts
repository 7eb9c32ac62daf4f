/**
 * The catalog command line: flags, the download through the same PartnerClient as the app, progress
 * on stderr, one JSON summary on stdout, a one-line reason and a non-zero exit code on failure.
 */
import { createTransport } from '../client/transport';
import { BudgetRegistry, PartnerClient, ScopeStores } from '../client';
import type { ClientOptions, StoreLease } from '../client';
import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { toErrorData } from '../../shared/errors';
import { MACHINE_STORE } from '../../shared/budget-store-url';
import { NO_STORE, parseCliArgs, resumeCommand, USAGE } from './cli-args';
import type { CliOptions } from './cli-args';
import { failureMessage, ProgressReporter, summaryJson } from './cli-output';
import type { ProgressStream } from './cli-output';
import { CatalogDownload } from './download';
import { serviceMapForRun } from './cli-detect';

export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: ProgressStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Registers a handler for Ctrl-C / termination; returns an unregister function. */
  onInterrupt(handler: () => void): () => void;
}

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
export const EXIT_INTERRUPTED = 130;

/** The client's options from the command line's; the budget store is taken (and released) by the caller. */
export function clientOptionsFor(options: CliOptions, stores: ScopeStores | null): ClientOptions {
  return {
    baseUrl: options.baseUrl,
    vendor: options.vendor,
    tokens: options.tokens,
    fetch: createTransport(options.maxResponseMiB === undefined ? {} : { maxResponseBytes: options.maxResponseMiB * 1024 * 1024 }),
    ...(stores ? { budgets: new BudgetRegistry(), stores } : {}),
    ...(options.giveUpAfterMinutes === undefined ? {} : { stallLimitMs: options.giveUpAfterMinutes * 60_000 }),
    ...(options.retryBaseMs === undefined ? {} : { retry: { baseMs: options.retryBaseMs } }),
  };
}

export async function runCatalogCli(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCliArgs(argv, io.env, io.cwd);
  if (parsed.kind === 'help') {
    io.stdout.write(`${USAGE}\n`);
    return EXIT_OK;
  }
  if (parsed.kind === 'error') {
    io.stderr.write(`catalog: ${parsed.message}\n\n${USAGE}\n`);
    return EXIT_USAGE;
  }
  const options = parsed.options;
  // Before anything is sent (detection spends requests): the file's folder must be there.
  const folder = dirname(options.out);
  if (
    !(await stat(folder).then(
      (s) => s.isDirectory(),
      () => false,
    ))
  ) {
    io.stderr.write(`catalog: the folder ${folder} for the output does not exist (or is not a folder); create it or choose another --out.\n`);
    return EXIT_USAGE;
  }
  let client: PartnerClient;
  const stores = new ScopeStores();
  let store: StoreLease | null = null;
  try {
    // --budget-store: workers of a fleet reserve their slots in Redis, or by default in this machine's store
    // (headers only with none, or while the store cannot answer).
    const storeUrl = options.budgetStore ?? MACHINE_STORE;
    store =
      storeUrl === NO_STORE
        ? null
        : stores.take({ baseUrl: options.baseUrl, vendor: options.vendor }, storeUrl, (line) => io.stderr.write(`catalog: ${line}\n`));
    client = new PartnerClient(clientOptionsFor(options, store ? stores : null));
  } catch (e) {
    store?.release();
    io.stderr.write(`catalog: ${toErrorData(e).message}\n\n${USAGE}\n`);
    return EXIT_USAGE;
  }
  // From here on Ctrl-C (or a termination) stops the run: during detection by closing the client, which
  // cancels its requests; then by cancelling the download, whose checkpoint holds every page written.
  let interrupted = false;
  let download: CatalogDownload | null = null;
  const stopInterrupt = io.onInterrupt(() => {
    if (interrupted) return;
    interrupted = true;
    if (download) void download.cancel();
    else client.close();
  });
  try {
    return await detectThenDownload(argv, options, client, io, {
      interrupted: () => interrupted,
      started: (d) => (download = d),
    });
  } finally {
    stopInterrupt();
    client.close();
    store?.release();
  }
}

/** How the run's interrupt handler follows it: whether it fired, and the download it must cancel. */
interface RunWatch {
  interrupted(): boolean;
  started(download: CatalogDownload): void;
}

async function detectThenDownload(argv: string[], options: CliOptions, client: PartnerClient, io: CliIo, watch: RunWatch): Promise<number> {
  // The service map: from --service-map, the checkpoint's (--resume), detected (default, at most 3 requests), or built in (--no-detect).
  const detected = await serviceMapForRun(options, client, io.stderr).catch((e: unknown) => {
    if (watch.interrupted()) return null; // the closed client cancelled detection's request
    throw e;
  });
  if (detected === null || watch.interrupted()) {
    io.stderr.write('catalog: interrupted while detecting the service map; nothing was written.\n');
    return EXIT_INTERRUPTED;
  }
  const { map, warnings: detectWarnings } = detected;
  let download: CatalogDownload;
  try {
    download = new CatalogDownload({
      client,
      baseUrl: options.baseUrl,
      vendor: options.vendor,
      tokens: options.tokens,
      out: options.out,
      format: options.format,
      pageSize: options.pageSize,
      resume: options.resume,
      ...(map === undefined ? {} : { map }),
      // Overrides written into the map, whichever it is (given, recorded, detected or built in).
      ...(options.emptyPageRetryMs === undefined ? {} : { emptyPageRetryDelayMs: options.emptyPageRetryMs }),
      ...(options.pageSizeParam === undefined ? {} : { pageSizeParam: options.pageSizeParam }),
      ...(options.idField === undefined ? {} : { idField: options.idField }),
      ...(options.cursorFields === undefined ? {} : { cursorFields: options.cursorFields }),
      ...(options.columns === undefined ? {} : { columns: options.columns }),
    });
  } catch (e) {
    io.stderr.write(`catalog: ${toErrorData(e).message}\n\n${USAGE}\n`);
    return EXIT_USAGE;
  }
  watch.started(download);

  const where = options.defaultOut ? ' (the default; choose another file with --out)' : '';
  io.stderr.write(`catalog: ${options.resume ? 'resuming' : 'writing'} ${download.out}${where}\n`);
  const reporter = new ProgressReporter(io.stderr);
  const stopProgress = download.onProgress((p) => reporter.update(p));
  try {
    const result = await download.start();
    stopProgress();
    // A refusal before the first request (output exists, other settings) has no figures worth a line.
    if (!(result.state === 'failed' && result.requests === 0)) reporter.finish(result);
    else reporter.breakLine();
    const warnings = [...detectWarnings, ...download.warnings];
    for (const warning of download.warnings) io.stderr.write(`catalog: warning: ${warning}\n`);
    io.stdout.write(`${JSON.stringify({ ...summaryJson(result), warnings })}\n`);
    if (result.state === 'done') {
      io.stderr.write(`catalog: done, ${result.items} items in ${result.out}\n`);
      return EXIT_OK;
    }
    if (result.state === 'cancelled' || watch.interrupted()) {
      io.stderr.write(`catalog: interrupted; ${result.items} items are saved in ${result.out}. To continue: ${resumeCommand(argv)}\n`);
      return EXIT_INTERRUPTED;
    }
    const error = result.error ?? { code: 'INTERNAL' as const, message: `the download stopped (${result.state})`, retryable: true };
    io.stderr.write(`${failureMessage(error, { baseUrl: options.baseUrl, vendor: options.vendor, saved: result.items })}\n`);
    return EXIT_FAILED;
  } finally {
    stopProgress();
  }
}
