/**
 * A finished export is never lost to a new start that has not written anything yet: the old file and its
 * checkpoint stay byte-identical until the new run's first page, a start whose first request fails leaves
 * them in place, another service's export of the same vendor is not replaced unasked (CONFLICT), and a
 * --resume of a finished download whose file is gone is a clear refusal, never "done".
 * CatalogDownload, the app's DownloadController and a real PartnerClient against a loopback service.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DownloadController } from '../../electron/app/download-controller';
import type { DownloadProgressView, DownloadTarget } from '../../electron/app/download-controller';
import { CatalogDownload, checkpointPathFor } from '../../electron/catalog';
import { BudgetRegistry, PartnerClient } from '../../electron/client';
import { until } from '../helpers/app-calls';
import { labelledCatalog } from '../helpers/labelled-catalog';
import type { LabelledCatalog } from '../helpers/labelled-catalog';

let dir: string;
const services: LabelledCatalog[] = [];
const clients: PartnerClient[] = [];
const controllers: DownloadController[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'download-keeps-'));
});
afterEach(async () => {
  for (const c of controllers.splice(0)) await c.stop();
  for (const c of clients.splice(0)) c.close();
  for (const s of services.splice(0)) await s.close();
  await rm(dir, { recursive: true, force: true });
});

async function service(total = 25): Promise<LabelledCatalog> {
  const s = await labelledCatalog(total);
  services.push(s);
  return s;
}
function client(s: LabelledCatalog, token: string): PartnerClient {
  const c = new PartnerClient({ baseUrl: s.url, vendor: 'demo', tokens: [token], budgets: new BudgetRegistry(), retry: { baseMs: 1, capMs: 2 } });
  clients.push(c);
  return c;
}
const snapshot = async (out: string): Promise<[string, string]> => [await readFile(out, 'utf8'), await readFile(checkpointPathFor(out), 'utf8')];

async function finished(s: LabelledCatalog, out: string): Promise<[string, string]> {
  const first = await new CatalogDownload({ client: client(s, 'tok-A'), baseUrl: s.url, vendor: 'demo', out, pageSize: 10 }).start();
  expect(first.state).toBe('done');
  return snapshot(out);
}

describe('a finished export and a new start', () => {
  it('a start over whose first request fails leaves the old export and its checkpoint as they were', async () => {
    const s = await service();
    const out = join(dir, 'cat.jsonl');
    const before = await finished(s, out);
    s.refuse = true;
    const again = await new CatalogDownload({ client: client(s, 'tok-A'), baseUrl: s.url, vendor: 'demo', out, pageSize: 10, overwrite: true }).start();
    expect(again.state).toBe('failed');
    expect(await snapshot(out)).toEqual(before);
  });

  it('a start over replaces the old export once its first page is there, with every item of the new run', async () => {
    const s = await service();
    const out = join(dir, 'cat.jsonl');
    await finished(s, out);
    const again = await new CatalogDownload({ client: client(s, 'tok-B'), baseUrl: s.url, vendor: 'demo', out, pageSize: 10, overwrite: true }).start();
    expect(again.state).toBe('done');
    const lines = (await readFile(out, 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(25);
    expect(lines.every((l) => l.includes('tok-B'))).toBe(true);
  });

  it('--resume of a finished download whose file is gone is refused, never done', async () => {
    const s = await service();
    const out = join(dir, 'cat.jsonl');
    await finished(s, out);
    await rm(out);
    const resumed = await new CatalogDownload({ client: client(s, 'tok-A'), baseUrl: s.url, vendor: 'demo', out, pageSize: 10, resume: true }).start();
    expect(resumed.state).toBe('failed');
    expect(resumed.error).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/missing/) });
  });

  it('--resume of a finished download whose file was changed is refused', async () => {
    const s = await service();
    const out = join(dir, 'cat.jsonl');
    await finished(s, out);
    await rm(out);
    await new CatalogDownload({ client: client(s, 'tok-A'), baseUrl: s.url, vendor: 'demo', out: join(dir, 'other.jsonl'), pageSize: 10 }).start();
    await writeFile(out, 'x\n');
    const resumed = await new CatalogDownload({ client: client(s, 'tok-A'), baseUrl: s.url, vendor: 'demo', out, pageSize: 10, resume: true }).start();
    expect(resumed.state).toBe('failed');
    expect(resumed.error?.code).toBe('BAD_REQUEST');
  });
});

describe("the app's Start beside a finished export", () => {
  const controller = (events: DownloadProgressView[] = []): DownloadController => {
    const c = new DownloadController((v) => events.push(v));
    controllers.push(c);
    return c;
  };
  async function finishedInApp(t: DownloadTarget): Promise<string> {
    const events: DownloadProgressView[] = [];
    const first = controller(events);
    await first.start(t, dir, { format: 'jsonl', resume: false });
    await until(() => events.some((e) => e.state === 'done'), 10_000);
    return first.status().outPath!;
  }

  it("another profile's service (the same vendor name) is refused with CONFLICT, the file untouched; replace is the person's choice", async () => {
    const x = await service();
    const y = await service(3);
    const a: DownloadTarget = { profileId: 'a', client: client(x, 'tok-A'), baseUrl: x.url, vendor: 'demo', tokens: ['tok-A'] };
    const b: DownloadTarget = { profileId: 'b', client: client(y, 'tok-B'), baseUrl: y.url, vendor: 'demo', tokens: ['tok-B'] };
    const outPath = await finishedInApp(a);
    const before = await snapshot(outPath);
    const next = controller();
    await expect(next.start(b, dir, { format: 'jsonl', resume: false })).rejects.toMatchObject({
      data: { code: 'CONFLICT', message: expect.stringContaining(x.url) },
    });
    expect(await snapshot(outPath)).toEqual(before);
    expect(y.requests).toBe(0);
    const events: DownloadProgressView[] = [];
    const chosen = controller(events);
    await chosen.start(b, dir, { format: 'jsonl', resume: false, replace: true });
    await until(() => events.some((e) => e.state === 'done'), 10_000);
    expect((await readFile(outPath, 'utf8')).trim().split('\n')).toHaveLength(3);
  });

  it('the same profile pressing Start while its service refuses keeps its finished export', async () => {
    const x = await service();
    const a: DownloadTarget = { profileId: 'a', client: client(x, 'tok-A'), baseUrl: x.url, vendor: 'demo', tokens: ['tok-A'] };
    const outPath = await finishedInApp(a);
    const before = await snapshot(outPath);
    x.refuse = true;
    const events: DownloadProgressView[] = [];
    const next = controller(events);
    await next.start(a, dir, { format: 'jsonl', resume: false });
    await until(() => events.some((e) => e.state === 'failed'), 10_000);
    expect(await snapshot(outPath)).toEqual(before);
  });
});

describe('a start over whose output cannot be replaced', () => {
  it('keeps the previous download resumable: its checkpoint is put back, nothing is left beside it', async () => {
    const s = await service();
    const out = join(dir, 'cat.jsonl');
    s.refuseAfter = 1;
    const stopped = await new CatalogDownload({ client: client(s, 'tok-A'), baseUrl: s.url, vendor: 'demo', out, pageSize: 10 }).start();
    expect(stopped).toMatchObject({ state: 'failed', pages: 1 });
    s.refuseAfter = Infinity;
    const checkpoint = await readFile(checkpointPathFor(out), 'utf8');
    // A file in the way of the rename that a start over cannot replace (as a CSV open in Excel on Windows).
    await rm(out);
    await mkdir(join(out, 'in-use'), { recursive: true });
    const again = await new CatalogDownload({ client: client(s, 'tok-B'), baseUrl: s.url, vendor: 'demo', out, pageSize: 10, overwrite: true }).start();
    expect(again.state).toBe('failed');
    expect(again.error?.message).toContain(out);
    expect(await readFile(checkpointPathFor(out), 'utf8')).toBe(checkpoint);
    expect((await readdir(dir)).sort()).toEqual(['cat.jsonl', 'cat.jsonl.checkpoint.json']);
  });
});
