/** The catalog command line's flags (node:util parseArgs), checked before anything is sent. */
import { baseUrlProblem, hideUrlCredentials } from '../../shared/base-url';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { PAGE_SIZE_MAX, PAGE_SIZE_MIN } from '../../shared/catalog';
import { parseServiceMap } from '../../shared/service-map/schema';
import type { ServiceMap } from '../../shared/service-map/schema';
import { DEFAULT_DOWNLOAD_PAGE_SIZE, formatForPath, validatePageSize, validatePageSizeParam } from './settings';
import type { ExportFormat } from './settings';
import { budgetStoreProblem, maskStoreUrl } from '../../shared/budget-store-url';
import { DEFAULT_GIVE_UP_AFTER_MINUTES, GIVE_UP_AFTER_MINUTES } from '../../shared/background-work';

/** `--budget-store none`: pacing from the headers alone. */
export const NO_STORE = 'none';

export const USAGE = `Usage: npm run catalog -- --base-url URL --token TOKEN [options]

Downloads the whole asset catalog (GET /assets/list, page by page with last_id) into a
JSON Lines or CSV file. Resumable: a checkpoint file is kept beside the output.

  --base-url URL          the Partner service's base URL (required)
  --token TOKEN           a token of the vendor; repeat for several (or env PARTNER_TOKENS=t1,t2)
  --vendor NAME           the vendor's name (default "default"); names the default output file
  --out FILE              output file, .jsonl/.ndjson or .csv (default ./catalog-<vendor>.jsonl)
  --format jsonl|csv      the format, whatever the file's extension
  --page-size N           items per page, ${PAGE_SIZE_MIN}..${PAGE_SIZE_MAX} (default ${DEFAULT_DOWNLOAD_PAGE_SIZE})
  --service-map FILE      how the service's pages are read: a service map JSON file
                          (see docs/service-map.example.json; default: detected, see below)
  --detect                detect the service map first (at most 3 requests): the default without
                          --service-map; --resume reuses the map its checkpoint recorded instead
  --no-detect             no detection: read the pages with the built-in (simulator's) shapes
  --page-size-param NAME  the page-size query parameter's name (default: the map's, "per-page")
  --id-field NAME         the items' id field, the next page's cursor (default: the map's, "id")
  --cursor-field NAME     a body field naming the next cursor; repeat for several
                          (default: the map's; next_last_id, next_cursor, last_id, cursor)
  --columns A,B,C         CSV columns (default: the first page's keys)
  --resume                continue a stopped download from its checkpoint
  --budget-store STORE    share the vendor's budget with other workers: redis://host:port/db
                          (workers on many machines), machine (this machine's processes, through
                          a file in the user's cache folder; the default), or none (pacing from
                          the headers alone)
  --max-response-mib N    largest answer accepted, in MiB (default 64); a bigger one fails the run
  --give-up-after MIN     wait through a shared budget's 429s until nothing of the vendor went
                          through for this many minutes (default ${DEFAULT_GIVE_UP_AFTER_MINUTES})
  -h, --help              this text

Env PARTNER_RETRY_BASE_MS=N: the first retry's wait ceiling in ms (default 250, doubling per retry);
PARTNER_EMPTY_PAGE_RETRY_MS=N: the wait before asking an empty page again (default 1000, growing linearly).

At the end one JSON object with the figures goes to stdout (with "warnings": what the service seems
to ignore, e.g. the page-size parameter); progress and the warnings go to stderr.
Exit codes: 0 done, 1 failed, 2 bad flags, 130 interrupted (resume with --resume).`;

export interface CliOptions {
  baseUrl: string;
  tokens: string[];
  vendor: string;
  /** Absolute output path. */
  out: string;
  /** --out was not given: the default file in the current folder. */
  defaultOut: boolean;
  format: ExportFormat;
  pageSize: number;
  /** --page-size-param and --id-field: written into the run's service map, whichever it is. */
  pageSizeParam?: string;
  idField?: string;
  cursorFields?: string[];
  columns?: string[];
  resume: boolean;
  /** From --service-map FILE. */
  serviceMap?: ServiceMap;
  /**
   * Probe the service for its map first (the default without --service-map or --no-detect; `explicit`:
   * --detect was given); the name flags, if given, still win.
   */
  detect?: { explicit: boolean };
  /** --budget-store redis://host:port/db, machine or none: the fleet's shared budget (default: machine). */
  budgetStore?: string;
  /** --max-response-mib: the response-size cap (default DEFAULT_MAX_RESPONSE_BYTES). */
  maxResponseMiB?: number;
  /** --give-up-after: minutes without any success before the download gives up (default: the client's). */
  giveUpAfterMinutes?: number;
  /** The first retry's jitter ceiling in ms (env PARTNER_RETRY_BASE_MS; default the client's, 250). */
  retryBaseMs?: number;
  /** The wait before asking an empty page again, growing linearly (env PARTNER_EMPTY_PAGE_RETRY_MS; default the download's, 1000). */
  emptyPageRetryMs?: number;
}

export type CliParse = { kind: 'run'; options: CliOptions } | { kind: 'help' } | { kind: 'error'; message: string };

/** A vendor name as a safe file name part. */
export function defaultOutName(vendor: string): string {
  const safe = vendor.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[.]+/, '_') || 'vendor';
  return `catalog-${safe}.jsonl`;
}

export function parseCliArgs(argv: string[], env: NodeJS.ProcessEnv = {}, cwd = process.cwd()): CliParse {
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse(argv).values;
  } catch (e) {
    return { kind: 'error', message: e instanceof Error ? e.message : String(e) };
  }
  if (values.help) return { kind: 'help' };
  try {
    return { kind: 'run', options: toOptions(values, env, cwd) };
  } catch (e) {
    return { kind: 'error', message: e instanceof Error ? e.message : String(e) };
  }
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      'base-url': { type: 'string' },
      token: { type: 'string', multiple: true },
      vendor: { type: 'string' },
      out: { type: 'string' },
      format: { type: 'string' },
      'page-size': { type: 'string' },
      'page-size-param': { type: 'string' },
      'id-field': { type: 'string' },
      'cursor-field': { type: 'string', multiple: true },
      columns: { type: 'string' },
      resume: { type: 'boolean' },
      'service-map': { type: 'string' },
      detect: { type: 'boolean' },
      'no-detect': { type: 'boolean' },
      'budget-store': { type: 'string' },
      'max-response-mib': { type: 'string' },
      'give-up-after': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

function toOptions(values: ReturnType<typeof parse>['values'], env: NodeJS.ProcessEnv, cwd: string): CliOptions {
  const baseUrl = values['base-url'];
  if (baseUrl === undefined || baseUrl.trim() === '') throw new Error('--base-url is required.');
  const urlProblem = baseUrlProblem(baseUrl);
  if (urlProblem) throw new Error(`--base-url ${urlProblem}, got ${JSON.stringify(hideUrlCredentials(baseUrl))}.`);

  const tokens = (values.token ?? (env.PARTNER_TOKENS ?? '').split(',')).map((t) => t.trim()).filter((t) => t !== '');
  if (values.token?.some((t) => t.trim() === '')) throw new Error('--token must not be empty.');
  if (tokens.length === 0) throw new Error('At least one --token is required (or PARTNER_TOKENS in the environment).');

  const vendor = values.vendor ?? 'default';
  if (vendor.trim() === '') throw new Error('--vendor must not be empty.');

  const defaultOut = values.out === undefined;
  if (values.out !== undefined && values.out.trim() === '') throw new Error('--out must not be empty.');
  const out = resolve(cwd, values.out ?? defaultOutName(vendor));
  const format = formatForPath(out, values.format);

  const pageSize = values['page-size'] === undefined ? DEFAULT_DOWNLOAD_PAGE_SIZE : validatePageSize(values['page-size']);
  const serviceMap = values['service-map'] === undefined ? undefined : loadServiceMap(values['service-map'], cwd);
  if (serviceMap && values.detect) throw new Error('Give either --service-map FILE or --detect, not both.');
  if (values.detect && values['no-detect']) throw new Error('Give either --detect or --no-detect, not both.');
  const options: CliOptions = { baseUrl, tokens, vendor, out, defaultOut, format, pageSize, resume: values.resume ?? false };
  if (values['page-size-param'] !== undefined) options.pageSizeParam = validatePageSizeParam(values['page-size-param'], serviceMap?.list.cursorParam);
  if (serviceMap) options.serviceMap = serviceMap;
  if (!serviceMap && !values['no-detect']) options.detect = { explicit: values.detect === true };
  if (values['budget-store'] !== undefined && values['budget-store'].trim().toLowerCase() === NO_STORE) options.budgetStore = NO_STORE;
  else if (values['budget-store'] !== undefined) {
    const problem = budgetStoreProblem(values['budget-store']);
    if (problem) throw new Error(`--budget-store ${problem}, got ${JSON.stringify(hideUrlCredentials(values['budget-store']))}.`);
    options.budgetStore = values['budget-store'].trim();
  }

  if (values['max-response-mib'] !== undefined) {
    const mib = Number(values['max-response-mib']);
    if (!/^\d+$/.test(values['max-response-mib'].trim()) || mib < 1 || mib > 4096)
      throw new Error(`--max-response-mib must be a whole number from 1 to 4096, got ${JSON.stringify(values['max-response-mib'])}.`);
    options.maxResponseMiB = mib;
  }
  if (values['give-up-after'] !== undefined) {
    const minutes = Number(values['give-up-after']);
    if (!/^\d+$/.test(values['give-up-after'].trim()) || minutes < GIVE_UP_AFTER_MINUTES.min || minutes > GIVE_UP_AFTER_MINUTES.max)
      throw new Error(
        `--give-up-after must be a whole number of minutes from ${GIVE_UP_AFTER_MINUTES.min} to ${GIVE_UP_AFTER_MINUTES.max}, got ${JSON.stringify(values['give-up-after'])}.`,
      );
    options.giveUpAfterMinutes = minutes;
  }
  const retryBaseMs = envMs(env, 'PARTNER_RETRY_BASE_MS');
  if (retryBaseMs !== undefined) options.retryBaseMs = retryBaseMs;
  const emptyPageRetryMs = envMs(env, 'PARTNER_EMPTY_PAGE_RETRY_MS');
  if (emptyPageRetryMs !== undefined) options.emptyPageRetryMs = emptyPageRetryMs;
  if (values['id-field'] !== undefined) {
    if (values['id-field'].trim() === '') throw new Error('--id-field must not be empty.');
    options.idField = values['id-field'];
  }
  if (values['cursor-field'] !== undefined) {
    if (values['cursor-field'].some((f) => f.trim() === '')) throw new Error('--cursor-field must not be empty.');
    options.cursorFields = values['cursor-field'];
  }
  if (values.columns !== undefined) {
    const columns = values.columns.split(',').map((c) => c.trim());
    if (columns.some((c) => c === '')) throw new Error(`--columns must be a comma-separated list of names, got ${JSON.stringify(values.columns)}.`);
    if (format !== 'csv') throw new Error('--columns applies to CSV output only.');
    options.columns = columns;
  }
  return options;
}

/** A wait in ms from the environment (0..60000); undefined when unset or blank. */
function envMs(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) > 60_000) throw new Error(`${name} must be a whole number of ms from 0 to 60000, got ${JSON.stringify(raw)}.`);
  return Number(raw);
}

/** A service map file, checked whole: every problem in words. */
function loadServiceMap(file: string, cwd: string): ServiceMap {
  if (file.trim() === '') throw new Error('--service-map needs a JSON file.');
  let text: string;
  try {
    text = readFileSync(resolve(cwd, file), 'utf8');
  } catch (e) {
    throw new Error(`--service-map: cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}.`);
  }
  const parsed = parseServiceMap(text);
  if (!parsed.ok) throw new Error(`--service-map ${file} is not a valid service map: ${parsed.errors.join('; ')}.`);
  return parsed.map;
}

/** The same command with --resume, tokens masked, to print when a run stops early. */
export function resumeCommand(argv: string[]): string {
  const shown: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--resume') continue;
    if (arg === '--token') {
      shown.push('--token', '<token>');
      i++;
    } else if (arg.startsWith('--token=')) {
      shown.push('--token', '<token>');
    } else if (arg === '--budget-store' || arg.startsWith('--budget-store=')) {
      // Its password stays out of the hint (and so out of logs), as in every other line about the store.
      const url = arg === '--budget-store' ? (argv[++i] ?? '') : arg.slice('--budget-store='.length);
      shown.push('--budget-store', shellWord(url.trim().toLowerCase() === NO_STORE ? NO_STORE : maskStoreUrl(url)));
    } else {
      shown.push(shellWord(arg));
    }
  }
  return `npm run catalog -- ${[...shown, '--resume'].join(' ')}`;
}

/** One argument as a POSIX shell reads it back. */
function shellWord(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
