/**
 * Review s37 item 2: a service that caps its pages below the size asked and sends back the request's
 * last_id (null on page 1), with no has-more and no total. A short first page under a null `last_id` is
 * no proof of the end: the catalog must come whole (or fail), never "done" with the first page only.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CatalogDownload } from '../../electron/catalog';
import { runCatalogCli } from '../../electron/catalog/cli-main';
import { capturedIo, fileIds } from '../helpers/catalog-cli-io';
import { BudgetRegistry, PartnerClient } from '../../electron/client';

const CAP = 50;
const TOTAL = 120;

/** Items 1..120, at most 50 a page whatever is asked, `last_id` the request's own (null on page 1). */
async function cappingService(): Promise<{ url: string; lists: string[]; close: () => Promise<void> }> {
  const lists: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/assets/list') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
      return;
    }
    const sent = url.searchParams.get('last_id');
    lists.push(sent ?? '-');
    const from = sent === null ? 0 : Number(sent);
    const ids = Array.from({ length: CAP }, (_, i) => from + i + 1).filter((id) => id <= TOTAL);
    const body = { items: ids.map((id) => ({ id, title: `Asset ${id}` })), last_id: sent === null ? null : Number(sent) };
    res.writeHead(200, { 'content-type': 'application/json', 'x-rate-limit-limit': '50', 'x-rate-limit-remaining': '49', 'x-rate-limit-reset': '0' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, lists, close: () => new Promise((r) => server.close(() => r())) };
}

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);

let dir: string;
let service: Awaited<ReturnType<typeof cappingService>>;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'catalog-capped-'));
  service = await cappingService();
});
afterEach(async () => {
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a short first page under a null last_id is not the end', () => {
  it('the CLI with its default detection: all 120 ids, once each', async () => {
    const run = capturedIo(dir);
    const code = await runCatalogCli(['--base-url', service.url, '--token', 'tok-1', '--out', 'cat.jsonl'], run);
    expect(run.err()).not.toMatch(/done, 50 items/);
    expect(code).toBe(0);
    expect(await fileIds(join(dir, 'cat.jsonl'))).toEqual(range(TOTAL));
    expect(JSON.parse(run.out())).toMatchObject({ state: 'done', items: TOTAL });
  });

  it("the app's download with the built-in map: all 120 ids, and it says why it asked past page 1", async () => {
    const client = new PartnerClient({ baseUrl: service.url, vendor: 'v', tokens: ['tok-1'], budgets: new BudgetRegistry() });
    try {
      const download = new CatalogDownload({ client, baseUrl: service.url, vendor: 'v', out: join(dir, 'app.jsonl') });
      const result = await download.start();
      expect(result.error).toBeUndefined();
      expect(result).toMatchObject({ state: 'done', items: TOTAL });
      expect(await fileIds(join(dir, 'app.jsonl'))).toEqual(range(TOTAL));
      expect(download.warnings.join('\n')).toMatch(/`last_id` is null on the first page/);
    } finally {
      client.close();
    }
  });
});
