/**
 * CatalogDownload against an in-memory fake of the client, with real files in a temp folder:
 * the write order, resume, refusals, pause and cancel.
 */
import { appendFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CatalogClient, ListRequestOptions } from '../../electron/catalog/client-port';
import { readCheckpoint } from '../../electron/catalog/checkpoint';
import { CatalogDownload } from '../../electron/catalog/download';
import type { CatalogDownloadOptions } from '../../electron/catalog/download';
import type { CatalogProgress } from '../../electron/catalog/progress';
import { readPage } from '../../electron/catalog/read-page';
import { PartnerError } from '../../shared/errors';
import { DEFAULT_SERVICE_MAP } from '../../shared/service-map/schema';
import type { BudgetSample } from '../../shared/rate-limit';

type Item = Record<string, unknown>;

interface FakeOptions {
  size: number;
  /** Another body for the same page (odd shapes). */
  shapeBody?: (items: Item[], lastId: number | null, hasMore: boolean, total: number) => unknown;
  /** Runs before answering call n (1-based); may throw or wait. */
  before?: (call: number, options: ListRequestOptions) => void | Promise<void>;
}

/** The client's catalog surface over an in-memory catalog, in the simulator's page shape. */
class FakeCatalogClient implements CatalogClient {
  readonly calls: ListRequestOptions[] = [];
  readonly items: Item[];
  private listeners = new Set<(s: BudgetSample) => void>();

  constructor(private readonly options: FakeOptions) {
    this.items = Array.from({ length: options.size }, (_, i) => ({
      id: i + 1,
      title: i % 5 === 0 ? `Asset "${i + 1}", special\nline` : `Asset ${i + 1}`,
      price: (i % 7) + 0.5,
      tags: ['a', `t${i % 3}`],
    }));
  }

  onSample(listener: (s: BudgetSample) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async request(_endpoint: 'listAssets', options: ListRequestOptions): Promise<{ status: number; body: unknown }> {
    this.calls.push(options);
    await this.options.before?.(this.calls.length, options);
    if (options.signal?.aborted) throw new PartnerError({ code: 'CANCELLED', message: 'cancelled', retryable: true });
    const perPage = Number(options.query['per-page'] ?? 20);
    const lastId = options.query['last_id'] === undefined ? 0 : Number(options.query['last_id']);
    const start = this.items.findIndex((it) => (it.id as number) > lastId);
    const page = start < 0 ? [] : this.items.slice(start, start + perPage);
    const last = page[page.length - 1];
    const hasMore = last !== undefined && (last.id as number) < this.items.length;
    const lastIdOut = last === undefined ? null : (last.id as number);
    const body = this.options.shapeBody
      ? this.options.shapeBody(page, lastIdOut, hasMore, this.items.length)
      : { items: page, last_id: lastIdOut, has_more: hasMore, total: this.items.length };
    this.emit(200, 5, 'listAssets', options);
    return { status: 200, body };
  }

  /** A sample to every subscriber (as PartnerClient does) and, for an attempt of a request, to that request's own listener. */
  emit(status: number, waitedMs = 5, endpoint: BudgetSample['endpoint'] = 'listAssets', request?: ListRequestOptions): void {
    const sample: BudgetSample = {
      vendor: 'demo',
      endpoint,
      at: Date.now(),
      status,
      limit: 20,
      remaining: 10,
      reset: 0,
      latencyMs: 1,
      waitedMs,
      attempt: 1,
      headerProblems: [],
    };
    for (const l of this.listeners) l(sample);
    request?.onSample?.(sample);
  }
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'catalog-dl-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function download(client: CatalogClient, patch: Partial<CatalogDownloadOptions> = {}): CatalogDownload {
  return new CatalogDownload({ client, baseUrl: 'http://127.0.0.1:9/', vendor: 'demo', out: join(dir, 'catalog.jsonl'), pageSize: 10, ...patch });
}

async function jsonlIds(path: string): Promise<number[]> {
  const text = await readFile(path, 'utf8');
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => (JSON.parse(l) as { id: number }).id);
}

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);

/** A catalog of `size` items whose `failingCall`-th request throws `error`: the run stops there, as a crash would. */
function failingOn(failingCall: number, size: number, error: Error): FakeCatalogClient {
  return new FakeCatalogClient({
    size,
    before: (call) => {
      if (call === failingCall) throw error;
    },
  });
}

function failNetwork(): never {
  throw new PartnerError({ code: 'NETWORK', message: 'connection refused', retryable: true });
}

describe('readPage', () => {
  it('sends last_id and the page size under the configured name, in the background when asked', async () => {
    const client = new FakeCatalogClient({ size: 30 });
    const first = await readPage(client, { pageSize: 10, priority: 'background' });
    expect(first.items).toHaveLength(10);
    expect(first.total).toBe(30);
    expect(client.calls[0]?.query).toEqual({ 'per-page': 10 });
    expect(client.calls[0]?.priority).toBe('background');
    const second = await readPage(client, { pageSize: 10, lastId: first.cursor });
    expect(second.items[0]).toMatchObject({ id: 11 });
    expect(client.calls[1]?.query).toEqual({ 'per-page': 10, last_id: 10 });
    expect(client.calls[1]?.priority).toBe('interactive');
  });

  it('uses a configured page-size parameter name', async () => {
    const client = new FakeCatalogClient({ size: 3 });
    await readPage(client, { pageSizeParam: 'limit' });
    expect(client.calls[0]?.query).toEqual({ limit: 100 });
  });

  it("a cursor equal to the one sent does not advance: the next cursor is the last item's id, said in a warning", async () => {
    // A constant cursor: 5 on every page.
    const client = new FakeCatalogClient({ size: 30, shapeBody: (items, _l, more) => ({ items, next_cursor: '5', has_more: more }) });
    const page = await readPage(client, { lastId: 5, pageSize: 10, tolerant: true });
    expect(page).toMatchObject({ cursor: 15, cursorEchoed: true, done: false });
    expect(page.warnings.join()).toMatch(/`next_cursor` does not advance: it sent back the last_id it was given \(5\)/);
    const other = await readPage(client, { lastId: 3, pageSize: 10 });
    expect(other.cursor).toBe('5');
    expect(other.cursorEchoed).toBeUndefined();
  });

  it('refuses a bad page size or an empty cursor before sending anything', async () => {
    const client = new FakeCatalogClient({ size: 5 });
    await expect(readPage(client, { pageSize: 0 })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(readPage(client, { pageSize: 500 })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(readPage(client, { lastId: '' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect(client.calls).toHaveLength(0);
  });
});

describe('CatalogDownload', () => {
  it('downloads every item once as JSON Lines, with a checkpoint that says done', async () => {
    const client = new FakeCatalogClient({ size: 95 });
    const dl = download(client);
    const result = await dl.start();
    expect(result).toMatchObject({ state: 'done', items: 95, pages: 10, total: 95, percent: 100, requests: 10, resumed: false });
    expect(result.statuses).toEqual({ '200': 10 });
    expect(result.waitedMs).toBe(50);
    expect(await jsonlIds(dl.out)).toEqual(range(95));
    const cp = await readCheckpoint(dl.checkpointPath);
    expect(cp).toMatchObject({ done: true, items: 95, cursor: 95, bytes: (await stat(dl.out)).size });
    expect(client.calls.every((c) => c.priority === 'background' && c.signal instanceof AbortSignal)).toBe(true);
    expect(client.calls[1]?.query).toEqual({ 'per-page': 10, last_id: 10 });
  });

  it('writes CSV with a header from the first page, quoted cells and JSON-encoded arrays', async () => {
    const client = new FakeCatalogClient({ size: 12 });
    const dl = download(client, { out: join(dir, 'catalog.csv') });
    expect((await dl.start()).state).toBe('done');
    const text = await readFile(dl.out, 'utf8');
    expect(text.startsWith('id,title,price,tags\r\n1,"Asset ""1"", special\nline",0.5,"[""a"",""t0""]"\r\n2,Asset 2,1.5,')).toBe(true);
    expect((await readCheckpoint(dl.checkpointPath))?.columns).toEqual(['id', 'title', 'price', 'tags']);
  });

  it('names each field the first page did not have, which the CSV leaves out, once, also after a resume', async () => {
    // Item 25 (page 3) has a discount, items 31 and 35 (page 4) a colour and a discount.
    const extra = (i: Item): Item => ({
      ...i,
      ...(i.id === 25 || i.id === 35 ? { discount: 0.5 } : {}),
      ...(i.id === 31 || i.id === 35 ? { colour: 'red' } : {}),
    });
    const shapeBody = (items: Item[], last: number | null, more: boolean, total: number) => ({ items: items.map(extra), last_id: last, has_more: more, total });
    const out = join(dir, 'catalog.csv');
    const crashing = new FakeCatalogClient({ size: 40, shapeBody, before: (call) => void (call === 4 && failNetwork()) });
    const first = download(crashing, { out });
    expect(await first.start()).toMatchObject({ state: 'failed', items: 30 });
    const dropped = (w: string[]) => w.filter((x) => /not in the CSV/.test(x));
    expect(dropped(first.warnings)).toEqual([
      'Field "discount" first seen on page 3 is not in the CSV, whose columns come from the first page; JSONL keeps every field.',
    ]);
    const resumed = download(new FakeCatalogClient({ size: 40, shapeBody }), { out, resume: true });
    expect(await resumed.start()).toMatchObject({ state: 'done', items: 40 });
    expect(dropped(resumed.warnings)).toEqual([
      'Field "discount" first seen on page 3 is not in the CSV, whose columns come from the first page; JSONL keeps every field.',
      'Field "colour" first seen on page 4 is not in the CSV, whose columns come from the first page; JSONL keeps every field.',
    ]);
    // The header stays the first page's, written once.
    expect((await readFile(out, 'utf8')).match(/^id,.*$/gm)).toEqual(['id,title,price,tags']);
    // Chosen columns leave out what they do not name by choice; JSON Lines keeps every field.
    const chosen = download(new FakeCatalogClient({ size: 40, shapeBody }), { out: join(dir, 'chosen.csv'), columns: ['id', 'title'] });
    expect(await chosen.start()).toMatchObject({ state: 'done' });
    expect(dropped(chosen.warnings)).toEqual([]);
    const jsonl = download(new FakeCatalogClient({ size: 40, shapeBody }), { out: join(dir, 'all.jsonl') });
    expect(await jsonl.start()).toMatchObject({ state: 'done' });
    expect(dropped(jsonl.warnings)).toEqual([]);
  });

  it('ends on an empty page when the body gives no end marker (top-level arrays)', async () => {
    const client = new FakeCatalogClient({ size: 20, shapeBody: (items) => items });
    const result = await download(client).start();
    expect(result).toMatchObject({ state: 'done', items: 20, pages: 3, total: null, percent: null, etaSeconds: null });
    expect(client.calls).toHaveLength(3);
  });

  it('an empty page that says more follows but gives no total fails after its retries, never "done"', async () => {
    const client = new FakeCatalogClient({
      size: 30,
      // The second page comes back empty while still saying more follows; no total anywhere.
      shapeBody: (items, lastId, hasMore) =>
        lastId !== null && lastId > 20 ? { items: [], last_id: null, has_more: true } : { items, last_id: lastId, has_more: hasMore },
    });
    const dl = download(client, { emptyPageRetries: 1, emptyPageRetryDelayMs: 0 });
    const result = await dl.start();
    expect(result.state).toBe('failed');
    expect(result.error?.message).toMatch(/empty page 2 times in a row while saying more follows \(20 items saved\)/);
    expect(client.calls).toHaveLength(4);
    expect((await readCheckpoint(dl.checkpointPath))?.items).toBe(20);
  });

  it('stops with INVALID_RESPONSE when the server returns the same cursor twice', async () => {
    const client = new FakeCatalogClient({
      size: 50,
      // A server that ignores last_id: the same page and cursor every time.
      shapeBody: () => ({ items: [{ id: 1 }, { id: 2 }], next_cursor: 'same', has_more: true }),
    });
    const dl = download(client);
    const result = await dl.start();
    expect(result.state).toBe('failed');
    expect(result.error?.code).toBe('INVALID_RESPONSE');
    // The constant cursor is caught on page 2 (its answer dropped); asked after the last item (2), the page repeats.
    expect(dl.warnings.join('\n')).toMatch(/`next_cursor` does not advance/);
    expect(result.error?.message).toMatch(/same cursor \(2\) twice/);
    expect(client.calls).toHaveLength(3);
    // The first page is kept and resumable.
    expect((await readCheckpoint(dl.checkpointPath))?.items).toBe(2);
  });

  it('a cursor that echoes the request resumes from the last item written; an older checkpoint without one stops loudly', async () => {
    // `last_id` sends back the request's last_id (null on page 1) beside has_more true.
    const echo = (sent: ListRequestOptions['query']) => (items: Item[], _last: number | null, hasMore: boolean, total: number) => ({
      items,
      last_id: sent['last_id'] ?? null,
      has_more: hasMore,
      total,
    });
    let sent: ListRequestOptions['query'] = {};
    const crashing = new FakeCatalogClient({
      size: 45,
      shapeBody: (...a) => echo(sent)(...a),
      before: (call, options) => {
        sent = options.query;
        if (call === 3) throw new PartnerError({ code: 'NETWORK', message: 'connection refused', retryable: true });
      },
    });
    expect(await download(crashing).start()).toMatchObject({ state: 'failed', items: 20 });
    expect(await readCheckpoint(join(dir, 'catalog.jsonl.checkpoint.json'))).toMatchObject({ cursor: 20, lastItemId: 20 });
    const client = new FakeCatalogClient({ size: 45, shapeBody: (...a) => echo(sent)(...a), before: (_c, options) => void (sent = options.query) });
    const resumed = download(client, { resume: true });
    expect(await resumed.start()).toMatchObject({ state: 'done', items: 45 });
    expect(client.calls.map((c) => c.query['last_id'])).toEqual([20, 30, 40]);
    expect(await jsonlIds(resumed.out)).toEqual(range(45));
    expect(resumed.warnings.join('\n')).toMatch(/`last_id` does not advance: it sent back the last_id it was given \(20\)/);

    // A checkpoint written before the last item's id was kept: whether its cursor came from an item is unknown.
    const path = join(dir, 'catalog.jsonl.checkpoint.json');
    const cp = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    delete cp['lastItemId'];
    await writeFile(resumed.out, (await readFile(resumed.out, 'utf8')).split('\n').slice(0, 20).join('\n') + '\n');
    await writeFile(path, JSON.stringify({ ...cp, done: false, cursor: 20, pages: 2, items: 20, bytes: (await stat(resumed.out)).size }));
    const old = await download(new FakeCatalogClient({ size: 45, shapeBody: (...a) => echo(sent)(...a), before: (_c, o) => void (sent = o.query) }), {
      resume: true,
    }).start();
    expect(old).toMatchObject({ state: 'failed', items: 20, error: { code: 'INVALID_RESPONSE' } });
    expect(old.error?.message).toMatch(/`last_id` does not advance: it sent back the cursor it was given \(20\)/);
    expect(old.error?.hint).toMatch(/list\.cursor to none/);
    expect(await jsonlIds(resumed.out)).toEqual(range(20));
  });

  it('an empty page whose cursor sends back the last_id it was given ends the catalog, also on a resume', async () => {
    // `last_id` echoes the request; has_more says "this page was full", so a full last page is followed by an empty one.
    let sent: ListRequestOptions['query'] = {};
    const echoFull = (items: Item[]) => ({ items, last_id: sent['last_id'] ?? null, has_more: items.length === 10 });
    const onePage = new FakeCatalogClient({ size: 10, shapeBody: echoFull, before: (_c, o) => void (sent = o.query) });
    const dl = download(onePage, { emptyPageRetries: 1, emptyPageRetryDelayMs: 0 });
    expect(await dl.start()).toMatchObject({ state: 'done', items: 10 });
    expect(await jsonlIds(dl.out)).toEqual(range(10));

    const crashing = new FakeCatalogClient({
      size: 40,
      shapeBody: echoFull,
      before: (call, o) => {
        sent = o.query;
        if (call === 5) throw new PartnerError({ code: 'NETWORK', message: 'connection refused', retryable: true });
      },
    });
    const out = join(dir, 'forty.jsonl');
    expect(await download(crashing, { out }).start()).toMatchObject({ state: 'failed', items: 40 });
    const resumed = download(new FakeCatalogClient({ size: 40, shapeBody: echoFull, before: (_c, o) => void (sent = o.query) }), {
      out,
      resume: true,
      emptyPageRetries: 1,
      emptyPageRetryDelayMs: 0,
    });
    expect(await resumed.start()).toMatchObject({ state: 'done', items: 40 });
    expect(await jsonlIds(out)).toEqual(range(40));
  });

  it('a null `last_id` on a full first page (an echo of the first request) is confirmed by the next page, not taken as the end', async () => {
    let sent: ListRequestOptions['query'] = {};
    const client = new FakeCatalogClient({
      size: 45,
      shapeBody: (items) => ({ items, last_id: sent['last_id'] ?? null }),
      before: (_c, o) => void (sent = o.query),
    });
    const dl = download(client);
    expect(await dl.start()).toMatchObject({ state: 'done', items: 45 });
    expect(await jsonlIds(dl.out)).toEqual(range(45));
    expect(dl.warnings.join('\n')).toMatch(/`last_id` is null on the first page/);
    // A service whose null next cursor is a real end costs one request more, and ends done.
    const end = new FakeCatalogClient({ size: 10, shapeBody: (items, last, more) => ({ items, last_id: more ? last : null }) });
    const one = download(end, { out: join(dir, 'one.jsonl') });
    expect(await one.start()).toMatchObject({ state: 'done', items: 10 });
    expect(end.calls.map((c) => c.query['last_id'])).toEqual([undefined, 10]);
  });

  it('a service whose cursor is inclusive (each page starts with the last item of the one before) writes every item once', async () => {
    // The cursor given names the item before the last one, so the next page starts with the last one again.
    const client = new FakeCatalogClient({
      size: 45,
      shapeBody: (items, last, more) => ({ items, last_id: more ? (last as number) - 1 : null, has_more: more }),
    });
    const dl = download(client);
    expect(await dl.start()).toMatchObject({ state: 'done', items: 45 });
    expect(await jsonlIds(dl.out)).toEqual(range(45));
    expect(dl.warnings.join('\n')).toMatch(/starts with the last item of the page before/);
  });

  it('a page that goes back writes the items already written once, and says how many the service sent again', async () => {
    // The third request is answered as if its last_id were 15, with a fresh cursor (25): items 16-20 again.
    const client = new FakeCatalogClient({ size: 30, before: (call, o) => void (call === 3 && (o.query['last_id'] = 15)) });
    const dl = download(client);
    expect(await dl.start()).toMatchObject({ state: 'done', items: 30, total: 30 });
    expect(await jsonlIds(dl.out)).toEqual(range(30));
    expect(dl.warnings.filter((w) => /already written/.test(w))).toEqual([
      'The service sent 5 items that were already written (a page that went back): they were left out.',
    ]);
    expect((await readCheckpoint(dl.checkpointPath))?.items).toBe(30);
  });

  it('says so when more items were written than the total the service gives', async () => {
    const client = new FakeCatalogClient({ size: 30, shapeBody: (items, last, more) => ({ items, last_id: last, has_more: more, total: 25 }) });
    const dl = download(client);
    expect(await dl.start()).toMatchObject({ state: 'done', items: 30 });
    expect(dl.warnings.filter((w) => /more than the total/.test(w))).toEqual([
      '30 items were written by page 3, more than the total of 25 the service gives: it counts fewer items than it sends, or items were added during the download.',
    ]);
  });

  it('a service that ignores the cursor and sends the first page again fails loudly instead of writing it twice', async () => {
    // `last_id: null` on a full first page is confirmed by a second request; this service answers it with page 1 again.
    const client = new FakeCatalogClient({ size: 45, shapeBody: (items) => ({ items, last_id: null }), before: (_c, o) => void delete o.query['last_id'] });
    const dl = download(client);
    const result = await dl.start();
    expect(result).toMatchObject({ state: 'failed', items: 10, error: { code: 'INVALID_RESPONSE' } });
    expect(result.error?.message).toMatch(/same page twice .* ignore `last_id`/);
    expect(await jsonlIds(dl.out)).toEqual(range(10));

    // Stopped after its first page, then resumed: the checkpoint knows that page's first item.
    const out = join(dir, 'stopped.jsonl');
    const stopping = new FakeCatalogClient({
      size: 45,
      shapeBody: (items) => ({ items, last_id: null }),
      before: (call) => {
        if (call === 2) throw new PartnerError({ code: 'NETWORK', message: 'connection refused', retryable: true });
      },
    });
    expect(await download(stopping, { out }).start()).toMatchObject({ state: 'failed', items: 10 });
    const ignoring = new FakeCatalogClient({
      size: 45,
      shapeBody: (items) => ({ items, last_id: null }),
      before: (_c, o) => void delete o.query['last_id'],
    });
    const resumed = await download(ignoring, { out, resume: true }).start();
    expect(resumed).toMatchObject({ state: 'failed', items: 10, error: { code: 'INVALID_RESPONSE' } });
    expect(await jsonlIds(out)).toEqual(range(10));
  });

  it('a page that ends the catalog short of its total is not an end; an empty page there fails, never "done"', async () => {
    // The service drops its last 5 items but still counts them.
    const client = new FakeCatalogClient({
      size: 25,
      shapeBody: (items, last, _more, total) => {
        const kept = items.filter((i) => (i.id as number) <= 20);
        return { items: kept, last_id: kept.length > 0 && (last ?? 0) < 20 ? last : null, total };
      },
    });
    const dl = download(client, { emptyPageRetries: 1, emptyPageRetryDelayMs: 0 });
    const result = await dl.start();
    expect(result).toMatchObject({ state: 'failed', items: 20, error: { code: 'INVALID_RESPONSE' } });
    expect(result.error?.message).toMatch(/\(20 of 25 items saved\)/);
    expect(dl.warnings.join('\n')).toMatch(/ended the catalog at 20 items while the same answer gives a total of 25/);
    expect(await jsonlIds(dl.out)).toEqual(range(20));
  });

  it("an empty page with a new cursor moves on (a filtered scan's empty stretch) rather than fail", async () => {
    // After item 10, an empty page that names the next cursor 15: items 11-15 are not in this catalog.
    const skipping = new FakeCatalogClient({
      size: 30,
      shapeBody: (items, last, more) =>
        items[0]?.id === 11 ? { items: [], next_cursor: 15, has_more: true } : { items, next_cursor: more ? last : null, has_more: more },
    });
    const dl = download(skipping, { emptyPageRetries: 1, emptyPageRetryDelayMs: 0 });
    expect(await dl.start()).toMatchObject({ state: 'done', items: 25 });
    expect(await jsonlIds(dl.out)).toEqual([...range(10), ...range(30).slice(15)]);
    expect(skipping.calls.map((c) => c.query['last_id'])).toEqual([undefined, 10, 15, 25]);
  });

  it('fails with INVALID_RESPONSE on items without an id, writing nothing of that page', async () => {
    const client = new FakeCatalogClient({
      size: 30,
      shapeBody: (items, _l, hasMore) => ({ items: items.map(({ id: _id, ...rest }) => rest), has_more: hasMore }),
    });
    const dl = download(client);
    const result = await dl.start();
    expect(result).toMatchObject({ state: 'failed', items: 0, error: { code: 'INVALID_RESPONSE' } });
    // Nothing was written, so nothing is left behind to block the next run.
    await expect(stat(dl.out)).rejects.toThrow();
    await expect(stat(dl.checkpointPath)).rejects.toThrow();
  });

  it('a run killed before its first page does not block the next one', async () => {
    const out = join(dir, 'catalog.jsonl');
    // What a SIGKILL during the first request leaves: an empty output and a checkpoint with no page.
    await writeFile(out, '');
    await writeFile(
      `${out}.checkpoint.json`,
      JSON.stringify({
        version: 1,
        output: 'catalog.jsonl',
        cursor: null,
        done: false,
        pages: 0,
        items: 0,
        bytes: 0,
        columns: null,
        total: null,
        settings: { baseUrl: 'http://127.0.0.1:9', vendor: 'demo', format: 'jsonl', idField: 'id', pageSize: 10, pageSizeParam: 'per-page' },
        startedAt: '2024-01-01T00:00:00Z',
        updatedAt: '2024-01-01T00:00:00Z',
      }),
    );
    expect((await download(new FakeCatalogClient({ size: 12 })).start()).state).toBe('done');
    expect(await jsonlIds(out)).toEqual(range(12));
  });

  it('refuses to overwrite an existing output unless resuming or told to overwrite', async () => {
    const client = new FakeCatalogClient({ size: 5 });
    const out = join(dir, 'catalog.jsonl');
    await writeFile(out, 'precious\n');
    const result = await download(client).start();
    expect(result.state).toBe('failed');
    expect(result.error).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('already exists') });
    expect(result.error?.hint).toMatch(/--resume/);
    expect(await readFile(out, 'utf8')).toBe('precious\n');
    expect(client.calls).toHaveLength(0);
    // Resuming a file without a checkpoint is refused too: where it stopped is unknown.
    expect((await download(client, { resume: true }).start()).error?.message).toMatch(/no checkpoint/);
    expect((await download(client, { overwrite: true }).start()).state).toBe('done');
    expect(await jsonlIds(out)).toEqual(range(5));
  });

  it('resumes after a crash mid-page: the torn page is dropped and nothing is lost or doubled', async () => {
    const out = join(dir, 'catalog.jsonl');
    // First run dies on the 4th request.
    const crashing = failingOn(4, 57, new PartnerError({ code: 'NETWORK', message: 'connection refused', retryable: true }));
    const first = await download(crashing).start();
    expect(first).toMatchObject({ state: 'failed', items: 30, error: { code: 'NETWORK' } });
    // As if the process died after writing part of page 4 but before its checkpoint.
    await appendFile(out, '{"id":31,"title":"Asset 31"}\n{"id":32,"ti');
    const client = new FakeCatalogClient({ size: 57 });
    const second = await download(client, { resume: true }).start();
    expect(second).toMatchObject({ state: 'done', resumed: true, items: 57, requests: 3 });
    expect(client.calls[0]?.query).toEqual({ 'per-page': 10, last_id: 30 });
    expect(await jsonlIds(out)).toEqual(range(57));
  });

  /** A checkpoint of 30 items as an older version wrote it: the id field and page-size parameter in its settings. */
  async function legacyCheckpoint(version: 1 | 2, idField: string): Promise<string> {
    const out = join(dir, 'catalog.jsonl');
    const crashing = failingOn(4, 57, new PartnerError({ code: 'NETWORK', message: 'connection refused', retryable: true }));
    expect((await download(crashing).start()).items).toBe(30);
    const path = `${out}.checkpoint.json`;
    const { serviceMap, lastItemId, ...rest } = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown> & { settings: object };
    const older = {
      ...rest,
      version,
      settings: { ...rest.settings, idField, pageSizeParam: 'per-page' },
      ...(version === 2 ? { serviceMap, lastItemId } : {}),
    };
    await writeFile(path, JSON.stringify(older));
    return path;
  }

  it('writes the page-size parameter and id field overrides into the map it reads with and records', async () => {
    const client = new FakeCatalogClient({ size: 5 });
    const dl = download(client, { pageSizeParam: 'limit', idField: 'id' });
    expect(await dl.start()).toMatchObject({ state: 'done', items: 5 });
    expect(client.calls[0]?.query).toEqual({ limit: 10 });
    expect((await readCheckpoint(dl.checkpointPath))?.serviceMap?.list.pageSizeParam).toBe('limit');
  });

  it.each([1, 2] as const)('resumes a version %i checkpoint that named the id field and page-size parameter in its settings', async (version) => {
    const path = await legacyCheckpoint(version, 'id');
    const client = new FakeCatalogClient({ size: 57 });
    const second = await download(client, { resume: true }).start();
    expect(second).toMatchObject({ state: 'done', resumed: true, items: 57, requests: 3 });
    expect(client.calls[0]?.query).toEqual({ 'per-page': 10, last_id: 30 });
    expect(await jsonlIds(join(dir, 'catalog.jsonl'))).toEqual(range(57));
    // Written back once without them: the recorded map carries the names.
    const after = JSON.parse(await readFile(path, 'utf8')) as {
      version: number;
      settings: object;
      serviceMap: { asset: { id: string }; list: { pageSizeParam: string } };
    };
    expect(after.version).toBe(2);
    expect(Object.keys(after.settings).sort()).toEqual(['baseUrl', 'format', 'pageSize', 'vendor']);
    expect(after.serviceMap.asset.id).toBe('id');
    expect(after.serviceMap.list.pageSizeParam).toBe('per-page');
  });

  it.each([1, 2] as const)("refuses to resume a version %i checkpoint whose id field is not the map's", async (version) => {
    await legacyCheckpoint(version, 'uuid');
    const client = new FakeCatalogClient({ size: 57 });
    const result = await download(client, { resume: true }).start();
    expect(result).toMatchObject({ state: 'failed', error: { code: 'BAD_REQUEST' } });
    expect(result.error?.message).toMatch(/the id field \(asset\.id\) was "uuid", now "id"/);
    expect(client.calls).toHaveLength(0);
  });

  it('refuses to resume under a map that reads prices in another unit, writing and sending nothing', async () => {
    const minor = { ...DEFAULT_SERVICE_MAP, asset: { ...DEFAULT_SERVICE_MAP.asset, priceUnit: 'minor' as const } };
    const major = { ...minor, asset: { ...minor.asset, priceUnit: 'major' as const } };
    const crashing = failingOn(3, 40, new PartnerError({ code: 'NETWORK', message: 'connection refused', retryable: true }));
    expect(await download(crashing, { map: minor }).start()).toMatchObject({ state: 'failed', items: 20 });
    const before = await readFile(join(dir, 'catalog.jsonl'), 'utf8');
    const client = new FakeCatalogClient({ size: 40 });
    const result = await download(client, { map: major, resume: true }).start();
    expect(result).toMatchObject({ state: 'failed', error: { code: 'BAD_REQUEST' } });
    expect(result.error?.message).toMatch(/the price unit \(asset\.priceUnit\) was "minor", now "major"/);
    expect(result.error?.message).toMatch(/start over or restore the map/);
    expect(client.calls).toHaveLength(0);
    expect(await readFile(join(dir, 'catalog.jsonl'), 'utf8')).toBe(before);
    // Under the recorded map the rest is read as the first part was: one reading of the prices in the whole file.
    expect(await download(client, { map: minor, resume: true }).start()).toMatchObject({ state: 'done', items: 40 });
    const prices = (await readFile(join(dir, 'catalog.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { price: number }).price);
    expect(prices).toEqual(client.items.map((i) => (i.price as number) / 100));
  });

  it('resumes with another page size, keeping the CSV header and writing it once', async () => {
    const out = join(dir, 'catalog.csv');
    const crashing = failingOn(2, 40, new PartnerError({ code: 'TIMEOUT', message: 'timeout', retryable: true }));
    expect((await download(crashing, { out }).start()).items).toBe(10);
    const result = await download(new FakeCatalogClient({ size: 40 }), { out, pageSize: 25, resume: true }).start();
    expect(result).toMatchObject({ state: 'done', items: 40, pages: 3 });
    const lines = (await readFile(out, 'utf8')).split('\r\n').filter((l) => /^\d+,/.test(l));
    expect(lines.map((l) => Number(l.split(',')[0]))).toEqual(range(40));
    expect((await readFile(out, 'utf8')).match(/^id,title/gm)).toHaveLength(1);
  });

  it('refuses to resume with another vendor, base URL or format, saying why', async () => {
    const client = failingOn(2, 30, new Error('boom'));
    await download(client).start();
    const otherVendor = await download(new FakeCatalogClient({ size: 30 }), { vendor: 'acme', resume: true }).start();
    expect(otherVendor.error?.message).toMatch(/other settings \(vendor was "demo", now "acme"\)/);
    const otherUrl = await download(new FakeCatalogClient({ size: 30 }), { baseUrl: 'http://example.test', resume: true }).start();
    expect(otherUrl.error?.message).toMatch(/baseUrl/);
    const otherFormat = await download(new FakeCatalogClient({ size: 30 }), { format: 'csv', resume: true }).start();
    expect(otherFormat.error?.message).toMatch(/format was "jsonl", now "csv"/);
    // The trailing slash of a base URL does not matter.
    const same = await download(new FakeCatalogClient({ size: 30 }), { baseUrl: 'http://127.0.0.1:9', resume: true }).start();
    expect(same).toMatchObject({ state: 'done', items: 30 });
  });

  it('a resume of a finished download sends nothing', async () => {
    const client = new FakeCatalogClient({ size: 15 });
    await download(client).start();
    const finished = download(client, { resume: true });
    const again = await finished.start();
    expect(again).toMatchObject({ state: 'done', items: 15, requests: 0, resumed: true });
    expect(client.calls).toHaveLength(2);
    // Cancelling a finished download does not make it "cancelled".
    expect((await finished.cancel()).state).toBe('done');
  });

  it('pauses after the page in flight and resumes from its checkpoint', async () => {
    let dl: CatalogDownload | null = null;
    const client = new FakeCatalogClient({
      size: 50,
      before: (call) => {
        if (call === 2) dl?.pause();
      },
    });
    dl = download(client);
    const paused = await dl.start();
    expect(paused).toMatchObject({ state: 'paused', items: 20, pages: 2 });
    expect((await readCheckpoint(dl.checkpointPath))?.items).toBe(20);
    const done = await dl.resume();
    expect(done).toMatchObject({ state: 'done', items: 50 });
    expect(await jsonlIds(dl.out)).toEqual(range(50));
  });

  it('cancel aborts the request in flight, keeps a resumable pair, or deletes both when asked', async () => {
    let release: () => void = () => undefined;
    const client = new FakeCatalogClient({
      size: 50,
      before: (call, options) =>
        call === 3
          ? new Promise<void>((resolve) => {
              release = resolve;
              options.signal?.addEventListener('abort', () => resolve());
            })
          : undefined,
    });
    const dl = download(client);
    const running = dl.start();
    await waitUntil(() => client.calls.length === 3);
    const cancelled = await dl.cancel();
    release();
    expect(cancelled).toMatchObject({ state: 'cancelled', items: 20 });
    expect((await running).state).toBe('cancelled');
    expect(client.calls[2]?.signal?.aborted).toBe(true);
    const resumed = await download(new FakeCatalogClient({ size: 50 }), { resume: true }).start();
    expect(resumed).toMatchObject({ state: 'done', items: 50 });
    expect(await jsonlIds(dl.out)).toEqual(range(50));

    const dl2 = download(new FakeCatalogClient({ size: 5 }), { out: join(dir, 'other.jsonl') });
    await dl2.start();
    await dl2.cancel({ deleteFiles: true });
    await expect(stat(dl2.out)).rejects.toThrow();
    await expect(stat(dl2.checkpointPath)).rejects.toThrow();
  });

  it('cancel with deleteFiles from a run refused by the lock deletes nothing of the run that holds it', async () => {
    let release: () => void = () => undefined;
    const client = new FakeCatalogClient({ size: 30, before: (call) => (call === 2 ? new Promise<void>((r) => (release = r)) : undefined) });
    const a = download(client);
    const running = a.start();
    await waitUntil(() => client.calls.length === 2);
    const b = download(new FakeCatalogClient({ size: 30 }), { resume: true });
    expect((await b.start()).error?.message).toMatch(/is in use by another run/);
    await expect(b.cancel({ deleteFiles: true })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/^Not deleting .*catalog\.jsonl or its checkpoint\. The download into .* is in use by another run/),
    });
    release();
    expect(await running).toMatchObject({ state: 'done', items: 30 });
    expect(await jsonlIds(a.out)).toEqual(range(30));
    expect((await readCheckpoint(a.checkpointPath))?.done).toBe(true);
    // Once that run has ended, the files are deleted, and the lock goes with the deletion.
    await b.cancel({ deleteFiles: true });
    await expect(stat(a.out)).rejects.toThrow();
    await expect(stat(a.checkpointPath)).rejects.toThrow();
    await expect(stat(`${a.out}.lock`)).rejects.toThrow();
  });

  it('refuses a second start while running', async () => {
    let release: () => void = () => undefined;
    const client = new FakeCatalogClient({ size: 5, before: () => new Promise<void>((r) => (release = r)) });
    const dl = download(client);
    const running = dl.start();
    await expect(dl.start()).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await waitUntil(() => client.calls.length === 1);
    release();
    expect((await running).state).toBe('done');
  });

  it('counts only its own requests and reports 429s, statuses and time waited', async () => {
    const client = new FakeCatalogClient({
      size: 20,
      before: (call, options) => {
        if (call === 1) {
          client.emit(429, 300, 'listAssets', options); // its own first attempt, refused
          client.emit(200, 0, 'purchaseInfo');
          client.emit(200, 0, 'listAssets'); // the Catalog view's page while the download's is in flight: not counted
        }
      },
    });
    client.emit(200); // before the download: not counted
    const result = await download(client).start();
    expect(result).toMatchObject({ requests: 3, rateLimited: 1, waitedMs: 310, statuses: { '200': 2, '429': 1 } });
  });

  it('emits progress: running first, the final state last', async () => {
    const client = new FakeCatalogClient({ size: 30 });
    const dl = download(client, { progressIntervalMs: 0 });
    const seen: CatalogProgress[] = [];
    dl.onProgress((p) => seen.push(p));
    await dl.start();
    expect(seen[0]?.state).toBe('running');
    expect(seen.at(-1)).toMatchObject({ state: 'done', items: 30 });
    expect(seen.map((p) => p.items)).toEqual([...seen.map((p) => p.items)].sort((a, b) => a - b));
  });

  it('refuses bad settings at construction', () => {
    const client = new FakeCatalogClient({ size: 1 });
    expect(() => download(client, { pageSize: 0 })).toThrow(/Page size/);
    expect(() => download(client, { out: join(dir, 'x.txt') })).toThrow(/format/);
    expect(() => download(client, { pageSizeParam: '' })).toThrow(/page-size parameter/);
    expect(() => download(client, { idField: '' })).toThrow(/id field/);
    expect(() => download(client, { out: join(dir, 'a.csv'), columns: [] })).toThrow(/columns/);
  });
});

async function waitUntil(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!cond()) throw new Error('condition not met');
}
