/**
 * The catalog download through the real PartnerClient against the real simulator on loopback:
 * every id once (JSON Lines and CSV), the one-page reader, a lost network and a resume.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BudgetRegistry, PartnerClient } from '../../electron/client';
import type { ClientOptions } from '../../electron/client';
import { CatalogDownload, readCheckpoint, readPage } from '../../electron/catalog';
import type { CatalogProgress } from '../../electron/catalog';
import { startSimulator } from '../../electron/simulator';
import type { RunningSimulator } from '../../electron/simulator';
import { AssetCatalog } from '../../electron/simulator/asset-catalog';

const SIZE = 500;
const SEED = 7;
const expectedIds = (): number[] => {
  const catalog = new AssetCatalog(SIZE, SEED);
  return Array.from({ length: SIZE }, (_, k) => catalog.idAt(k));
};

let dir: string;
const sims: RunningSimulator[] = [];
const clients: PartnerClient[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'catalog-it-'));
});
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await Promise.all(sims.splice(0).map((s) => s.stop()));
  await rm(dir, { recursive: true, force: true });
});

async function simulator(port = 0): Promise<RunningSimulator> {
  const sim = await startSimulator({ port, catalogSize: SIZE, seed: SEED });
  sims.push(sim);
  return sim;
}

function client(sim: RunningSimulator, patch: Partial<ClientOptions> = {}): PartnerClient {
  const c = new PartnerClient({ baseUrl: sim.url, vendor: 'demo', tokens: ['demo-token-1', 'demo-token-2'], budgets: new BudgetRegistry(), ...patch });
  clients.push(c);
  return c;
}

async function jsonlIds(path: string): Promise<number[]> {
  return (await readFile(path, 'utf8'))
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => (JSON.parse(l) as { id: number }).id);
}

/** RFC 4180 rows (quoted fields with doubled quotes, CRLF or LF inside quotes). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}

describe('catalog download against the simulator', () => {
  it('downloads every id exactly once as JSON Lines, one request at a time in the background', async () => {
    const sim = await simulator();
    const c = client(sim);
    let inFlight = 0;
    let maxInFlight = 0;
    const realRequest = c.request.bind(c);
    c.request = (async (endpoint, options) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        return await realRequest(endpoint, options);
      } finally {
        inFlight--;
      }
    }) as typeof c.request;
    const dl = new CatalogDownload({ client: c, baseUrl: sim.url, vendor: 'demo', out: join(dir, 'catalog.jsonl'), pageSize: 50 });
    const events: CatalogProgress[] = [];
    dl.onProgress((p) => events.push(p));
    const result = await dl.start();
    expect(result).toMatchObject({ state: 'done', items: SIZE, pages: 10, total: SIZE, requests: 10, statuses: { '200': 10 }, rateLimited: 0 });
    expect(await jsonlIds(dl.out)).toEqual(expectedIds());
    expect(maxInFlight).toBe(1);
    expect(events.at(-1)?.state).toBe('done');
    const counters = sim.control.counters().filter((x) => x.endpoint === 'listAssets');
    expect(counters).toEqual([{ vendor: 'demo', endpoint: 'listAssets', status: 200, count: 10 }]);
    const first = JSON.parse((await readFile(dl.out, 'utf8')).split('\n')[0] ?? '{}') as Record<string, unknown>;
    expect(Object.keys(first)).toEqual(expect.arrayContaining(['id', 'title', 'category', 'price', 'tags']));
  });

  it('exports CSV: header from the first page, every id once, nested tags JSON-encoded', async () => {
    const sim = await simulator();
    const dl = new CatalogDownload({ client: client(sim), baseUrl: sim.url, vendor: 'demo', out: join(dir, 'catalog.csv') });
    const result = await dl.start();
    expect(result).toMatchObject({ state: 'done', items: SIZE, pages: 5 });
    const [header, ...rows] = parseCsv(await readFile(dl.out, 'utf8'));
    expect(header).toEqual(['id', 'title', 'category', 'price', 'currency', 'rating', 'downloads', 'tags', 'created_at', 'updated_at']);
    expect(rows.map((r) => Number(r[0]))).toEqual(expectedIds());
    expect(rows.every((r) => r.length === header?.length)).toBe(true);
    expect(Array.isArray(JSON.parse(rows[0]?.[7] ?? 'null'))).toBe(true);
  });

  it('reads one page at a time for a paged table, and refuses a bad page size before sending', async () => {
    const sim = await simulator();
    const c = client(sim);
    const first = await readPage(c, { pageSize: 5 });
    const ids = expectedIds();
    expect(first.items.map((i) => i.id)).toEqual(ids.slice(0, 5));
    expect(first).toMatchObject({ cursor: ids[4], done: false, total: SIZE });
    const second = await readPage(c, { pageSize: 5, lastId: first.cursor });
    expect(second.items.map((i) => i.id)).toEqual(ids.slice(5, 10));
    const last = await readPage(c, { pageSize: 100, lastId: ids[SIZE - 3] });
    expect(last).toMatchObject({ done: true });
    expect(last.items.map((i) => i.id)).toEqual(ids.slice(SIZE - 2));

    const before = sim.control.counters().reduce((n, x) => n + x.count, 0);
    await expect(readPage(c, { pageSize: 0 })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(readPage(c, { pageSize: 101 })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(readPage(c, { lastId: '' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect(() => new CatalogDownload({ client: c, baseUrl: sim.url, vendor: 'demo', out: join(dir, 'x.jsonl'), pageSize: 0 })).toThrow(/Page size/);
    expect(sim.control.counters().reduce((n, x) => n + x.count, 0)).toBe(before);
  });

  it('survives a lost network: fails with the checkpoint intact, then resumes against a restarted simulator', async () => {
    const sim = await simulator();
    const port = sim.port;
    // Few, short retries, so that the lost network shows quickly.
    const c = client(sim, { retry: { maxAttempts: 2, baseMs: 20, capMs: 50, maxElapsedMs: 500 }, timeoutMs: 2_000 });
    const dl = new CatalogDownload({ client: c, baseUrl: sim.url, vendor: 'demo', out: join(dir, 'catalog.jsonl'), pageSize: 10, progressIntervalMs: 0 });
    let stopped: Promise<void> | null = null;
    dl.onProgress((p) => {
      if (p.pages >= 5 && !stopped) stopped = sim.stop();
    });
    const failed = await dl.start();
    await stopped;
    expect(failed.state).toBe('failed');
    expect(failed.error?.code).toBe('NETWORK');
    expect(failed.items).toBeGreaterThanOrEqual(50);
    expect(failed.items).toBeLessThan(SIZE);
    const cp = await readCheckpoint(dl.checkpointPath);
    expect(cp).toMatchObject({ done: false, items: failed.items });
    const saved = await jsonlIds(dl.out);
    expect(saved).toEqual(expectedIds().slice(0, failed.items));

    const again = await simulator(port);
    expect(again.url).toBe(sim.url);
    const resumed = await dl.resume();
    expect(resumed).toMatchObject({ state: 'done', resumed: true, items: SIZE });
    const ids = await jsonlIds(dl.out);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expectedIds());
  });
});
