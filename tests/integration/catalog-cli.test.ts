/**
 * The catalog command line as a child process against the real simulator on loopback: a SIGKILL in
 * the middle and a --resume, an existing output, Ctrl-C, and the refusals (empty page size, 401, server down).
 *
 * The CLI runs as one node process (the bundle of electron/catalog/cli.ts: tests/helpers/cli-bundles.ts),
 * so that SIGKILL hits the download itself and not a wrapper that cannot relay it. One run goes through
 * `node --import tsx electron/catalog/cli.ts`, as `npm run catalog` starts it.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { until } from '../helpers/app-calls';
import { CATALOG_CLI_BUNDLE } from '../helpers/cli-bundles';
import { readCheckpoint } from '../../electron/catalog/checkpoint';
import { startSimulator } from '../../electron/simulator';
import type { RunningSimulator } from '../../electron/simulator';
import { AssetCatalog } from '../../electron/simulator/asset-catalog';

const ROOT = resolve(__dirname, '../..');
/** `npm run catalog` starts the CLI so: checked on one run below. */
const TSX_RUN = ['--import', pathToFileURL(createRequire(join(ROOT, 'package.json')).resolve('tsx')).href, join(ROOT, 'electron/catalog/cli.ts')];
const SIZE = 500;
const SEED = 11;
const TOKEN = 'demo-token-1';

let dir: string;
let sim: RunningSimulator;
const children = new Set<ChildProcess>();

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'catalog-cli-'));
  sim = await startSimulator({ catalogSize: SIZE, seed: SEED });
});
afterEach(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  children.clear();
  await sim.stop();
  await rm(dir, { recursive: true, force: true });
});

interface Run {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

function cli(args: string[], env: Record<string, string> = {}, command = [CATALOG_CLI_BUNDLE]): Run {
  const child = spawn(process.execPath, [...command, ...args], {
    cwd: dir,
    env: { ...process.env, PARTNER_TOKENS: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((res) =>
    child.on('close', (code, signal) => res({ code, signal, stdout, stderr })),
  );
  return { child, done };
}

function expectedIds(): number[] {
  const catalog = new AssetCatalog(SIZE, SEED);
  return Array.from({ length: SIZE }, (_, k) => catalog.idAt(k));
}

async function fileIds(path: string): Promise<number[]> {
  return (await readFile(path, 'utf8'))
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => (JSON.parse(l) as { id: number }).id);
}

/** Polls the checkpoint until it holds at least `pages` pages. */
async function waitForPages(checkpointPath: string, pages: number, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const cp = await readCheckpoint(checkpointPath).catch(() => null);
    if (cp && cp.pages >= pages) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`the checkpoint never reached ${pages} pages`);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  await new Promise<void>((r) => server.close(() => r()));
  return typeof address === 'object' && address ? address.port : 0;
}

describe('catalog CLI', () => {
  it('resumes after SIGKILL with every id exactly once, into the default file', async () => {
    const args = ['--base-url', sim.url, '--token', TOKEN, '--vendor', 'demo', '--page-size', '10'];
    const out = join(dir, 'catalog-demo.jsonl');
    const first = cli(args);
    await waitForPages(`${out}.checkpoint.json`, 8);
    first.child.kill('SIGKILL');
    const killed = await first.done;
    expect(killed.signal).toBe('SIGKILL');
    expect(killed.stderr).toContain(`writing ${out}`);
    const cp = await readCheckpoint(`${out}.checkpoint.json`);
    expect(cp?.done).toBe(false);
    expect(cp?.items).toBeLessThan(SIZE);

    // Without --resume the file is not overwritten.
    const refused = await cli(args).done;
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/already exists.*--resume.*--out/);

    const second = await cli([...args, '--resume']).done;
    expect(second.stderr).toContain(`resuming ${out}`);
    expect(second.code).toBe(0);
    const summary = JSON.parse(second.stdout.trim()) as Record<string, unknown>;
    expect(summary).toMatchObject({ state: 'done', items: SIZE, resumed: true, out, total: SIZE, statuses: { '200': expect.any(Number) } });
    for (const key of ['pages', 'requests', 'seconds', 'waited_seconds']) expect(typeof summary[key]).toBe('number');
    expect(summary.items_this_run).toBe(SIZE - (cp?.items ?? 0));
    const ids = await fileIds(out);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expectedIds());
  });

  it('stops on Ctrl-C with the checkpoint written and says how to resume', async () => {
    const out = join(dir, 'cat.jsonl');
    // A budget store with a password (nobody listens there: headers only): the resume hint must not show it.
    const store = 'redis://:RedisPw0rd@127.0.0.1:9/0';
    const run = cli(['--base-url', sim.url, '--token', TOKEN, '--vendor', 'demo', '--page-size', '5', '--out', out, '--budget-store', store]);
    await waitForPages(`${out}.checkpoint.json`, 3);
    run.child.kill('SIGINT');
    const result = await run.done;
    expect(result.code).toBe(130);
    expect(result.stderr).toMatch(/interrupted; \d+ items are saved in .*cat\.jsonl\. To continue: npm run catalog -- .*--token <token>.* --resume/);
    expect(result.stderr).not.toContain(TOKEN);
    expect(result.stderr).not.toContain('RedisPw0rd');
    expect(result.stderr).toMatch(/--budget-store '?redis:\/\/\*\*\*@127\.0\.0\.1:9\/0/);
    const summary = JSON.parse(result.stdout.trim()) as { state: string; items: number };
    expect(summary.state).toBe('cancelled');
    const cp = await readCheckpoint(`${out}.checkpoint.json`);
    expect(cp?.items).toBe(summary.items);
    expect(await fileIds(out)).toEqual(expectedIds().slice(0, summary.items));
  });

  it('finishes as it would when its output is read by a command that stopped reading (| head -1): no stack, exit 0', async () => {
    const out = join(dir, 'piped.jsonl');
    const run = cli(['--base-url', sim.url, '--token', TOKEN, '--vendor', 'demo', '--no-detect', '--out', out]);
    run.child.stdout!.destroy();
    const result = await run.done;
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.code).toBe(0);
    expect(await fileIds(out)).toEqual(expectedIds());
  });

  it('is interrupted during service-map detection with exit 130 and says so, nothing written', async () => {
    sim.control.setFaults({ latencyMs: 3_000 });
    const out = join(dir, 'detecting.jsonl');
    const run = cli(['--base-url', sim.url, '--token', TOKEN, '--vendor', 'demo', '--out', out]);
    await until(() => sim.control.counters().length > 0 || run.child.exitCode !== null);
    run.child.kill('SIGTERM');
    const result = await run.done;
    sim.control.setFaults({ latencyMs: 0 });
    expect(result.code, result.stderr).toBe(130);
    expect(result.stderr).toMatch(/interrupted/);
    await expect(readFile(out)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('names a missing --out folder before sending anything, and resolves a relative --out from where npm was run', async () => {
    const missing = await cli(['--base-url', sim.url, '--token', TOKEN, '--vendor', 'demo', '--out', 'nosuchdir/x.jsonl']).done;
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`the folder ${join(dir, 'nosuchdir')} for the output does not exist`);
    expect(missing.stderr).not.toContain('.lock');
    expect(sim.control.counters()).toEqual([]);
    // `npm run catalog` from a subfolder: npm starts the tool at the package root and says where it was run (INIT_CWD).
    const sub = join(dir, 'sub');
    await mkdir(sub);
    const run = cli(['--base-url', sim.url, '--token', TOKEN, '--vendor', 'demo', '--no-detect', '--out', 'rel.jsonl'], {
      INIT_CWD: sub,
      npm_config_local_prefix: dir,
    });
    expect((await run.done).code).toBe(0);
    expect(await fileIds(join(sub, 'rel.jsonl'))).toEqual(expectedIds());
  });

  it('refuses an empty page size before sending, and names the token or the URL when the service refuses or is down', async () => {
    const downPort = await freePort();
    // In parallel: each child spends most of its time starting up.
    const [emptySize, unauthorized, down] = await Promise.all([
      cli(['--base-url', sim.url, '--token', TOKEN, '--page-size', ''], {}, TSX_RUN).done,
      cli(['--base-url', sim.url, '--token', 'not-a-token', '--vendor', 'demo', '--out', 'u.jsonl']).done,
      // Its six attempts (detection's, then the list's) with a short backoff: the same path in a second, not twelve.
      cli(['--base-url', `http://127.0.0.1:${downPort}`, '--token', TOKEN, '--out', 'd.jsonl'], { PARTNER_RETRY_BASE_MS: '20' }).done,
    ]);
    expect(emptySize.code).toBe(2);
    expect(emptySize.stderr).toMatch(/^catalog: Page size must be a whole number from 1 to 100, got ""\.\n\nUsage: npm run catalog/);
    expect(emptySize.stdout).toBe('');

    expect(unauthorized.code).toBe(1);
    expect(unauthorized.stderr).toContain(`the service at ${sim.url} refused the token (401 Unauthorized)`);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain(`cannot reach the Partner service at http://127.0.0.1:${downPort}`);
    expect(JSON.parse(down.stdout.trim())).toMatchObject({ state: 'failed', items: 0, requests: 6, error: { code: 'NETWORK' } });

    // Nothing reached the list endpoint but the refused token's request (401 comes before the rate limiter).
    const listed = sim.control.counters().filter((c) => c.endpoint === 'listAssets' || c.endpoint === null);
    expect(listed.reduce((n, c) => n + c.count, 0)).toBe(1);
    expect(listed[0]?.status).toBe(401);
    // Failed runs that wrote nothing leave no files behind.
    await expect(readFile(join(dir, 'u.jsonl'))).rejects.toThrow();
    await expect(readFile(join(dir, 'd.jsonl.checkpoint.json'))).rejects.toThrow();
  });
});
