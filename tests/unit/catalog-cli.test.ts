import { describe, expect, it } from 'vitest';
import { defaultOutName, parseCliArgs, resumeCommand } from '../../electron/catalog/cli-args';
import type { CliOptions } from '../../electron/catalog/cli-args';
import { clientOptionsFor } from '../../electron/catalog/cli-main';
import { failureMessage, formatDuration, formatProgressBar, formatProgressLine, ProgressReporter, summaryJson } from '../../electron/catalog/cli-output';
import type { CatalogProgress } from '../../electron/catalog/progress';

const base = ['--base-url', 'http://127.0.0.1:8080', '--token', 't1'];

function run(argv: string[], env: NodeJS.ProcessEnv = {}): CliOptions {
  const parsed = parseCliArgs(argv, env, '/work/dir');
  if (parsed.kind !== 'run') throw new Error(`expected run, got ${JSON.stringify(parsed)}`);
  return parsed.options;
}

function errorOf(argv: string[], env: NodeJS.ProcessEnv = {}): string {
  const parsed = parseCliArgs(argv, env, '/work/dir');
  if (parsed.kind !== 'error') throw new Error(`expected an error, got ${parsed.kind}`);
  return parsed.message;
}

describe('catalog CLI flags', () => {
  it('has defaults: vendor "default", JSON Lines in the current folder, page size 100', () => {
    expect(run(base)).toEqual({
      baseUrl: 'http://127.0.0.1:8080',
      tokens: ['t1'],
      vendor: 'default',
      out: '/work/dir/catalog-default.jsonl',
      defaultOut: true,
      format: 'jsonl',
      pageSize: 100,
      resume: false,
      detect: { explicit: false },
    });
    // --no-detect keeps the built-in shapes; a map file is never detected over.
    expect(run([...base, '--no-detect']).detect).toBeUndefined();
    expect(errorOf([...base, '--detect', '--no-detect'])).toMatch(/either --detect or --no-detect/);
  });

  it('reads every flag', () => {
    const o = run([
      ...base,
      '--token',
      't2',
      '--vendor',
      'acme',
      '--out',
      'x/cat.csv',
      '--page-size',
      '25',
      '--page-size-param',
      'limit',
      '--id-field',
      'uuid',
      '--cursor-field',
      'next',
      '--cursor-field',
      'after',
      '--columns',
      'uuid, title',
      '--resume',
      '--give-up-after',
      '30',
    ]);
    expect(o).toMatchObject({
      tokens: ['t1', 't2'],
      vendor: 'acme',
      out: '/work/dir/x/cat.csv',
      defaultOut: false,
      format: 'csv',
      pageSize: 25,
      pageSizeParam: 'limit',
      idField: 'uuid',
      cursorFields: ['next', 'after'],
      columns: ['uuid', 'title'],
      resume: true,
      giveUpAfterMinutes: 30,
    });
    expect(run([...base, '--out', 'a.data', '--format', 'csv']).format).toBe('csv');
  });

  it('takes tokens from PARTNER_TOKENS when no --token is given', () => {
    expect(run(['--base-url', 'http://h'], { PARTNER_TOKENS: 'a, b' }).tokens).toEqual(['a', 'b']);
  });

  it('refuses bad flags with a reason', () => {
    expect(errorOf(['--token', 't'])).toMatch(/--base-url is required/);
    expect(errorOf(['--base-url', 'nope', '--token', 't'])).toMatch(/not a URL/);
    expect(errorOf(['--base-url', 'ftp://h', '--token', 't'])).toMatch(/http/);
    expect(errorOf(['--base-url', 'http://h'])).toMatch(/--token/);
    expect(errorOf([...base, '--page-size', ''])).toMatch(/Page size must be a whole number from 1 to 100, got ""/);
    expect(errorOf([...base, '--page-size', '0'])).toMatch(/Page size/);
    expect(errorOf([...base, '--page-size', '101'])).toMatch(/Page size/);
    expect(errorOf([...base, '--page-size', '1e1x'])).toMatch(/Page size/);
    expect(errorOf([...base, '--out', 'cat.txt'])).toMatch(/format/);
    expect(errorOf([...base, '--columns', 'a,,b', '--out', 'c.csv'])).toMatch(/--columns/);
    expect(errorOf([...base, '--columns', 'a'])).toMatch(/CSV output only/);
    expect(errorOf([...base, '--bogus'])).toMatch(/bogus/);
    expect(errorOf([...base, 'positional'])).toMatch(/positional/i);
    expect(errorOf([...base, '--vendor', ''])).toMatch(/--vendor/);
    for (const bad of ['0', '1441', '2.5', 'ten', ''])
      expect(errorOf([...base, '--give-up-after', bad])).toMatch(/--give-up-after must be a whole number of minutes from 1 to 1440/);
  });

  it('answers --help', () => {
    expect(parseCliArgs(['--help']).kind).toBe('help');
  });

  it('makes a safe default file name from the vendor', () => {
    expect(defaultOutName('demo')).toBe('catalog-demo.jsonl');
    expect(defaultOutName('../etc/x y')).toBe('catalog-__etc_x_y.jsonl');
  });

  it('prints a resume command with the tokens masked', () => {
    expect(resumeCommand(['--base-url', 'http://h:1', '--token', 'secret', '--token=other', '--out', 'my file.jsonl'])).toBe(
      "npm run catalog -- --base-url http://h:1 --token <token> --token <token> --out 'my file.jsonl' --resume",
    );
    expect(resumeCommand([...base, '--resume'])).toBe('npm run catalog -- --base-url http://127.0.0.1:8080 --token <token> --resume');
  });
});

function progress(patch: Partial<CatalogProgress> = {}): CatalogProgress {
  return {
    state: 'running',
    out: '/o/c.jsonl',
    checkpoint: '/o/c.jsonl.checkpoint.json',
    format: 'jsonl',
    resumed: false,
    pages: 45,
    items: 4500,
    bytes: 100,
    itemsThisRun: 4500,
    total: 10_000,
    percent: 45,
    requests: 47,
    requestsPerSecond: 19.84,
    waitedMs: 12_300,
    rateLimited: 2,
    statuses: { '200': 45, '429': 2 },
    elapsedMs: 2500,
    etaSeconds: 72,
    sharing: null,
    ...patch,
  };
}

describe('catalog CLI output', () => {
  it('draws a bar with percent, items, pages, rate, waited, 429s and ETA', () => {
    expect(formatProgressBar(progress(), 200)).toBe('[#########...........]  45.0%  4500/10000 items  45 pages  19.8 req/s  waited 12.3s  429s 2  ETA 1m12s');
    expect(formatProgressBar(progress({ total: null, percent: null, etaSeconds: null }), 200)).toBe(
      'catalog  4500 items  45 pages  19.8 req/s  waited 12.3s  429s 2',
    );
    // An 80-column terminal: the bar goes, every figure stays.
    expect(formatProgressBar(progress(), 80)).toBe(' 45.0%  4500/10000 items  45 pages  19.8 req/s  waited 12.3s  429s 2  ETA 1m12s');
    expect(formatProgressBar(progress(), 40)).toHaveLength(39);
  });

  it('writes plain lines', () => {
    expect(formatProgressLine(progress())).toBe('catalog: running (45.0%), 4500/10000 items, 45 pages, 19.8 req/s, waited 12.3s, 429s 2, ETA 1m12s');
  });

  it('formats durations', () => {
    expect(formatDuration(5.4)).toBe('5s');
    expect(formatDuration(125)).toBe('2m05s');
    expect(formatDuration(3 * 3600 + 7 * 60)).toBe('3h07m');
  });

  it('summarises in one JSON object with the agreed fields', () => {
    const s = summaryJson(progress({ state: 'done', elapsedMs: 2500 }));
    expect(s).toMatchObject({
      items: 4500,
      pages: 45,
      requests: 47,
      statuses: { '200': 45, '429': 2 },
      seconds: 2.5,
      waited_seconds: 12.3,
      out: '/o/c.jsonl',
      resumed: false,
      state: 'done',
    });
    expect(s.requests_per_second).toBe(18.8);
    expect(summaryJson(progress({ state: 'failed', error: { code: 'NETWORK', message: 'down', retryable: true } })).error).toEqual({
      code: 'NETWORK',
      message: 'down',
    });
  });

  it('explains failures in one line, naming the URL or the token', () => {
    const ctx = { baseUrl: 'http://127.0.0.1:1', vendor: 'demo' };
    const down = failureMessage({ code: 'NETWORK', message: 'connection refused', retryable: true }, ctx);
    expect(down).toContain('http://127.0.0.1:1');
    expect(down).not.toContain('\n');
    expect(failureMessage({ code: 'UNAUTHORIZED', message: 'x', status: 401, retryable: false }, ctx)).toMatch(/refused the token/);
    expect(
      failureMessage(
        {
          code: 'BAD_REQUEST',
          message: 'a.jsonl already exists; not overwriting it.',
          hint: 'Resume it (--resume) or choose another output file (--out).',
          retryable: false,
        },
        ctx,
      ),
    ).toBe('catalog: a.jsonl already exists; not overwriting it. Resume it (--resume) or choose another output file (--out).');
  });

  it('redraws one line on a terminal and throttles plain lines to one every 2 s', () => {
    const tty: string[] = [];
    const bar = new ProgressReporter({ write: (t: string) => tty.push(t), isTTY: true, columns: 200 });
    bar.update(progress());
    bar.update(progress({ items: 4600 }));
    bar.finish(progress({ state: 'done' }));
    expect(tty.every((t) => t.startsWith('\r'))).toBe(true);
    expect(tty.at(-1)?.endsWith('\n')).toBe(true);
    expect(tty.slice(0, -1).some((t) => t.includes('\n'))).toBe(false);

    let now = 0;
    const lines: string[] = [];
    const plain = new ProgressReporter({ write: (t: string) => lines.push(t) }, () => now);
    for (let i = 0; i < 10; i++) {
      plain.update(progress({ items: i }));
      now += 500;
    }
    expect(lines).toHaveLength(3);
    expect(lines.every((l) => l.endsWith('\n') && !l.includes('\r'))).toBe(true);
  });
});

describe('catalog CLI flags reach the client', () => {
  it("PARTNER_RETRY_BASE_MS becomes the client's first retry ceiling; without it the client keeps its own (250 ms)", () => {
    expect(clientOptionsFor(run(base, { PARTNER_RETRY_BASE_MS: '20' }), null).retry).toEqual({ baseMs: 20 });
    expect(clientOptionsFor(run(base), null)).not.toHaveProperty('retry');
    expect(clientOptionsFor(run(base, { PARTNER_RETRY_BASE_MS: ' ' }), null)).not.toHaveProperty('retry');
    expect(errorOf(base, { PARTNER_RETRY_BASE_MS: 'fast' })).toMatch(/PARTNER_RETRY_BASE_MS must be a whole number/);
    expect(errorOf(base, { PARTNER_RETRY_BASE_MS: '-5' })).toMatch(/PARTNER_RETRY_BASE_MS/);
  });

  it('PARTNER_EMPTY_PAGE_RETRY_MS is read as the wait before an empty page is asked again; without it the download keeps its own (1 s)', () => {
    expect(run(base, { PARTNER_EMPTY_PAGE_RETRY_MS: '50' }).emptyPageRetryMs).toBe(50);
    expect(run(base)).not.toHaveProperty('emptyPageRetryMs');
    expect(errorOf(base, { PARTNER_EMPTY_PAGE_RETRY_MS: '1.5' })).toMatch(/PARTNER_EMPTY_PAGE_RETRY_MS must be a whole number/);
  });

  it("--give-up-after becomes the client's stall limit; without it the client keeps its own default", () => {
    expect(clientOptionsFor(run([...base, '--give-up-after', '30']), null).stallLimitMs).toBe(30 * 60_000);
    expect(clientOptionsFor(run(base), null)).not.toHaveProperty('stallLimitMs');
  });

  it('the vendor and tokens go as given, the page-size parameter into the map (not the client); no store, no registry of its own', () => {
    const o = clientOptionsFor(run([...base, '--token', 't2', '--vendor', 'acme', '--page-size-param', 'limit']), null);
    expect(o).toMatchObject({ baseUrl: 'http://127.0.0.1:8080', vendor: 'acme', tokens: ['t1', 't2'] });
    expect(o).not.toHaveProperty('pageSize');
    expect(typeof o.fetch).toBe('function');
    expect(o).not.toHaveProperty('budgets');
  });
});
