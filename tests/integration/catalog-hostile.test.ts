/**
 * Issue 11 items 4, 5 and 8: the catalog CLI (in-process, the real client) against a hostile
 * service on loopback: a cursor that goes backwards, an empty page that says more follows, and two
 * `--resume` runs of one download at once. With `--no-detect`: these cases test the download's own rules
 * on the built-in map (first contact's detection has its own tests, first-contact-dialects).
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readCheckpoint } from '../../electron/catalog/checkpoint';
import { runCatalogCli } from '../../electron/catalog/cli-main';
import type { CliIo } from '../../electron/catalog/cli-main';

type Mode = 'backwards' | 'empty' | 'empty-untotalled' | 'slow' | 'huge';
const TOTAL = 9;

/** Pages of 3 by last_id over ids 1..TOTAL, in the simulator's shape, bent by the mode. */
async function hostileService(mode: Mode): Promise<{ url: string; lists: string[]; close: () => Promise<void> }> {
  const lists: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/assets/list') {
      res.writeHead(404).end('{}');
      return;
    }
    const lastId = Number(url.searchParams.get('last_id') ?? 0);
    lists.push(String(lastId));
    let ids = Array.from({ length: 3 }, (_, i) => lastId + i + 1).filter((id) => id <= TOTAL);
    if (mode === 'backwards' && lastId === 6) ids = [1, 2, 3]; // 3 -> 6 -> 3 -> 6 ...
    if ((mode === 'empty' || mode === 'empty-untotalled') && lastId === 3) ids = [];
    const last = ids[ids.length - 1] ?? null;
    const body: Record<string, unknown> = {
      items: ids.map((id) => ({ id, title: `Asset ${id}` })),
      last_id: last,
      has_more: ids.length > 0 ? last! < TOTAL : true,
      total: TOTAL,
    };
    // Only has_more says that more follow: no total to fall short of.
    if (mode === 'empty-untotalled') delete body['total'];
    const answer = () => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-rate-limit-limit': '20', 'x-rate-limit-remaining': '19', 'x-rate-limit-reset': '0' });
      res.end(JSON.stringify(body));
    };
    if (mode === 'huge') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ items: [{ id: 1, title: 'x'.repeat(3 * 1024 * 1024) }], last_id: 1, has_more: true, total: TOTAL }));
      return;
    }
    if (mode === 'slow') setTimeout(answer, 150);
    else answer();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    lists,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

function io(cwd: string, env: NodeJS.ProcessEnv = {}): CliIo & { err: () => string; out: () => string; interrupt: () => void } {
  let err = '';
  let out = '';
  let handler: (() => void) | null = null;
  return {
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => (err += t), isTTY: false } as CliIo['stderr'],
    env,
    cwd,
    onInterrupt: (h) => {
      handler = h;
      return () => (handler = null);
    },
    err: () => err,
    out: () => out,
    interrupt: () => handler?.(),
  };
}

const ids = async (path: string) =>
  (await readFile(path, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { id: number }).id);

let dir: string;
let service: Awaited<ReturnType<typeof hostileService>> | null = null;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'catalog-hostile-'));
});
afterEach(async () => {
  await service?.close();
  service = null;
  await rm(dir, { recursive: true, force: true });
});

describe('catalog download against a hostile service', () => {
  it('a cursor that goes backwards (3 -> 6 -> 3) stops with a clear error, nothing doubled, checkpoint intact', async () => {
    service = await hostileService('backwards');
    const run = io(dir);
    const code = await Promise.race([
      runCatalogCli(['--base-url', service.url, '--token', 'tok-1', '--no-detect', '--page-size', '3', '--out', 'cat.jsonl'], run),
      new Promise<string>((r) => setTimeout(() => r('still looping after 10 s'), 10_000)),
    ]);
    expect(code).toBe(1);
    expect(run.err()).toMatch(/same cursor \(3\) twice; stopping rather than loop/);
    expect(await ids(join(dir, 'cat.jsonl'))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await readCheckpoint(join(dir, 'cat.jsonl.checkpoint.json'))).toMatchObject({ cursor: 6, items: 6, done: false });
    expect(service.lists).toEqual(['0', '3', '6']);
  });

  it('an empty page that says more follows is asked again, then fails with a non-zero exit, never "done"', async () => {
    service = await hostileService('empty');
    // Asked again after 50 ms, then 100 ms (1 s, then 2 s by default): the same requests, the same end.
    const run = io(dir, { PARTNER_EMPTY_PAGE_RETRY_MS: '50' });
    const code = await runCatalogCli(['--base-url', service.url, '--token', 'tok-1', '--no-detect', '--page-size', '3', '--out', 'cat.jsonl'], run);
    expect(code).toBe(1);
    expect(JSON.parse(run.out())).toMatchObject({ state: 'failed', items: 3 });
    expect(run.err()).toMatch(/empty page 3 times in a row while saying more follows \(3 of 9 items saved\)/);
    expect(service.lists).toEqual(['0', '3', '3', '3']);
    expect(await readCheckpoint(join(dir, 'cat.jsonl.checkpoint.json'))).toMatchObject({ cursor: 3, items: 3, done: false });
  });

  it('the same with no total in the answers: has_more alone keeps an empty page from ending the catalog as done', async () => {
    service = await hostileService('empty-untotalled');
    // Asked again after 50 ms, then 100 ms (1 s, then 2 s by default): the same requests, the same end.
    const run = io(dir, { PARTNER_EMPTY_PAGE_RETRY_MS: '50' });
    const code = await runCatalogCli(['--base-url', service.url, '--token', 'tok-1', '--no-detect', '--page-size', '3', '--out', 'cat.jsonl'], run);
    expect(code).toBe(1);
    expect(JSON.parse(run.out())).toMatchObject({ state: 'failed', items: 3 });
    expect(run.err()).toMatch(/empty page 3 times in a row while saying more follows \(3 items saved\)/);
    expect(service.lists).toEqual(['0', '3', '3', '3']);
    expect(await readCheckpoint(join(dir, 'cat.jsonl.checkpoint.json'))).toMatchObject({ cursor: 3, items: 3, done: false });
  });

  it('an answer over --max-response-mib fails the run once, clearly, without retrying it', async () => {
    service = await hostileService('huge');
    const run = io(dir);
    const code = await runCatalogCli(
      ['--base-url', service.url, '--token', 'tok-1', '--no-detect', '--page-size', '3', '--out', 'cat.jsonl', '--max-response-mib', '1'],
      run,
    );
    expect(code).toBe(1);
    expect(run.err()).toMatch(/larger than the 1 MiB response-size cap/);
    expect(service.lists).toEqual(['0']);
  });

  it('two --resume runs of one download at once: the second is refused, the file holds the catalog once', async () => {
    service = await hostileService('slow');
    const args = ['--base-url', service.url, '--token', 'tok-1', '--no-detect', '--page-size', '3', '--out', 'cat.jsonl'];
    // A first run interrupted after its first page leaves a resumable pair.
    const first = io(dir);
    const firstDone = runCatalogCli(args, first);
    while (((await readCheckpoint(join(dir, 'cat.jsonl.checkpoint.json')))?.items ?? 0) < 3) await new Promise((r) => setTimeout(r, 20));
    first.interrupt();
    expect(await firstDone).toBe(130);

    const a = io(dir);
    const b = io(dir);
    const [codeA, codeB] = await Promise.all([runCatalogCli([...args, '--resume'], a), runCatalogCli([...args, '--resume'], b)]);
    expect([codeA, codeB].sort()).toEqual([0, 1]);
    const refused = codeA === 1 ? a : b;
    expect(refused.err()).toMatch(/is in use by another run \(process \d+/);
    expect(await ids(join(dir, 'cat.jsonl'))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(await readCheckpoint(join(dir, 'cat.jsonl.checkpoint.json'))).toMatchObject({
      items: 9,
      done: true,
      bytes: (await stat(join(dir, 'cat.jsonl'))).size,
    });
    // The lock goes with the run.
    await expect(stat(join(dir, 'cat.jsonl.lock'))).rejects.toThrow();
  });
});
