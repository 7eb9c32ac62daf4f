/**
 * Issue 21 item 5 and part 4's last bullet: a catalog ends only when the service's signals agree.
 * Hostile services on loopback over real HTTP: a cursor field that echoes the request's last_id (null
 * on page 1) beside has_more true, a null cursor contradicted by the total, a constant cursor, and an
 * empty page that says more follow, the last one through the real CLI process (its exit, summary, error).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CATALOG_CLI_BUNDLE } from '../helpers/cli-bundles';
import { CatalogDownload, readCheckpoint } from '../../electron/catalog';
import { runCatalogCli } from '../../electron/catalog/cli-main';
import { capturedIo, fileIds } from '../helpers/catalog-cli-io';
import { BudgetRegistry, PartnerClient } from '../../electron/client';

/**
 * - echo: `last_id` sends back the request's last_id (null on page 1); has_more and total are right.
 * - null-cursor-total: `last_id` is null on every page, no has_more; only the total says more follow.
 * - constant: `cursor` is the same opaque value on every page; a last_id the service does not know
 *   gets the first page again (what a service that ignores a bad cursor does).
 * - empty-null / empty-echo: from last_id=3 on, an empty page with has_more true and a null cursor,
 *   or with the cursor it was sent.
 */
type Mode = 'echo' | 'null-cursor-total' | 'constant' | 'empty-null' | 'empty-echo';

async function hostileService(mode: Mode, total: number): Promise<{ url: string; lists: string[]; close: () => Promise<void> }> {
  const lists: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/assets/list') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
      return;
    }
    const sent = url.searchParams.get('last_id');
    lists.push(sent ?? '-');
    const size = Number(url.searchParams.get('per-page') ?? 10);
    const known = sent === null || /^\d+$/.test(sent);
    const from = known && sent !== null ? Number(sent) : 0;
    let ids = Array.from({ length: size }, (_, i) => from + i + 1).filter((id) => id <= total);
    if (mode.startsWith('empty') && from >= 3) ids = [];
    const more = ids.length > 0 ? ids[ids.length - 1]! < total : true;
    const items = ids.map((id) => ({ id, title: `Asset ${id}` }));
    let body: Record<string, unknown>;
    if (mode === 'echo') body = { items, last_id: sent === null ? null : Number(sent), has_more: more, total };
    else if (mode === 'null-cursor-total') body = { items, last_id: null, total };
    else if (mode === 'constant') body = { items, cursor: 'c0ffee', has_more: more, total };
    else body = { items, last_id: ids.length > 0 ? ids[ids.length - 1] : mode === 'empty-echo' ? Number(sent) : null, has_more: more, total };
    res.writeHead(200, { 'content-type': 'application/json', 'x-rate-limit-limit': '50', 'x-rate-limit-remaining': '49', 'x-rate-limit-reset': '0' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, lists, close: () => new Promise((r) => server.close(() => r())) };
}

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);

/** The catalog CLI as its own process (the bundle of the file `npm run catalog` runs), as a user runs it. */
function cliProcess(args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CATALOG_CLI_BUNDLE, ...args], {
    cwd,
    env: { ...process.env, PARTNER_TOKENS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((res) => child.on('close', (code) => res({ code, stdout, stderr })));
}

let dir: string;
let service: Awaited<ReturnType<typeof hostileService>> | null = null;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'catalog-end-'));
});
afterEach(async () => {
  await service?.close();
  service = null;
  await rm(dir, { recursive: true, force: true });
});

describe('a catalog ends only when the service agrees', () => {
  it("(a) a cursor that echoes the request (null on page 1) beside has_more true: all 50 items from the last item's id, exit 0, done", async () => {
    service = await hostileService('echo', 50);
    const run = capturedIo(dir);
    const code = await runCatalogCli(['--base-url', service.url, '--token', 'tok-1', '--page-size', '10', '--out', 'cat.jsonl'], run);
    expect(run.err()).toMatch(/done, 50 items/);
    expect(code).toBe(0);
    expect(await fileIds(join(dir, 'cat.jsonl'))).toEqual(range(50));
    // The download's requests (a probe of the service, where the CLI detects, comes before them).
    expect(service.lists.slice(-5)).toEqual(['-', '10', '20', '30', '40']);
    expect(JSON.parse(run.out())).toMatchObject({ state: 'done', items: 50 });
  });

  it('a null cursor while the total says more follow is not an end: all 50 items, then the signals agree', async () => {
    service = await hostileService('null-cursor-total', 50);
    const run = capturedIo(dir);
    const code = await runCatalogCli(['--base-url', service.url, '--token', 'tok-1', '--page-size', '10', '--out', 'cat.jsonl', '--no-detect'], run);
    expect(code).toBe(0);
    expect(await fileIds(join(dir, 'cat.jsonl'))).toEqual(range(50));
    expect(service.lists.slice(-5)).toEqual(['-', '10', '20', '30', '40']);
    expect(await readCheckpoint(join(dir, 'cat.jsonl.checkpoint.json'))).toMatchObject({ items: 50, done: true });
  });

  it("the app's download catches a cursor that does not advance: an echo, and a constant whose page is dropped; every item once, a warning", async () => {
    const cases = [
      {
        mode: 'echo' as const,
        lists: ['-', '10', '20', '30', '40'],
        warning: /`last_id` is null while `has_more` says more follow[^]*`last_id` does not advance: it sent back the last_id it was given \(10\)/,
      },
      // Page 1, the constant sent once (its answer, page 1 again, dropped), then by the last item's id.
      {
        mode: 'constant' as const,
        lists: ['-', 'c0ffee', '10', '20', '30', '40'],
        warning: /`cursor` does not advance: it sent back the last_id it was given \(c0ffee\)/,
      },
    ];
    for (const { mode, lists, warning } of cases) {
      service = await hostileService(mode, 50);
      const client = new PartnerClient({ baseUrl: service.url, vendor: 'v', tokens: ['tok-1'], budgets: new BudgetRegistry() });
      try {
        const download = new CatalogDownload({ client, baseUrl: service.url, vendor: 'v', out: join(dir, `${mode}.jsonl`), pageSize: 10 });
        const result = await download.start();
        expect(result.error).toBeUndefined();
        expect(result.state).toBe('done');
        expect(await fileIds(join(dir, `${mode}.jsonl`))).toEqual(range(50));
        expect(service.lists).toEqual(lists);
        expect(download.warnings.join('\n')).toMatch(warning);
      } finally {
        client.close();
        await service.close();
        service = null;
      }
    }
  });

  it('(b) the CLI process on an empty page that says more follow: a non-zero exit, a summary and the reason, both with a null and an echoed cursor', async () => {
    const runs = await Promise.all(
      (['empty-null', 'empty-echo'] as const).map(async (mode) => {
        const svc = await hostileService(mode, 9);
        try {
          return { svc, result: await cliProcess(['--base-url', svc.url, '--token', 'tok-1', '--page-size', '3', '--out', `${mode}.jsonl`], dir) };
        } finally {
          await svc.close();
        }
      }),
    );
    for (const { svc, result } of runs) {
      expect(result.code).toBe(1);
      expect(JSON.parse(result.stdout.trim())).toMatchObject({ state: 'failed', items: 3, total: 9, error: { code: 'INVALID_RESPONSE' } });
      expect(result.stderr).toMatch(/empty page 3 times in a row while saying more follows \(3 of 9 items saved\)/);
      expect(svc.lists.slice(-3)).toEqual(['3', '3', '3']);
    }
  }, 30_000);
});
