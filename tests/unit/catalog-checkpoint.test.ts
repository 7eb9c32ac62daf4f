import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CHECKPOINT_VERSION,
  assertResumable,
  checkpointPathFor,
  readCheckpoint,
  settingsConflicts,
  truncateToCheckpoint,
  writeCheckpoint,
} from '../../electron/catalog/checkpoint';
import type { Checkpoint } from '../../electron/catalog/checkpoint';
import { NumberText } from '../../shared/json/number-text';
import { DEFAULT_SERVICE_MAP } from '../../shared/service-map/schema';
import type { ServiceMap } from '../../shared/service-map/schema';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'catalog-cp-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function checkpoint(patch: Partial<Checkpoint> = {}): Checkpoint {
  return {
    version: CHECKPOINT_VERSION,
    output: 'out.jsonl',
    settings: { baseUrl: 'http://127.0.0.1:1', vendor: 'demo', format: 'jsonl', pageSize: 100 },
    cursor: 200,
    done: false,
    pages: 2,
    items: 200,
    bytes: 1234,
    columns: null,
    total: 500,
    startedAt: '2024-01-01T00:00:00.000Z',
    updatedAt: '2024-01-01T00:00:01.000Z',
    serviceMap: DEFAULT_SERVICE_MAP,
    ...patch,
  };
}

/** What the versions before the map was the one source of names wrote: the two names in the settings. */
function legacyFile(version: 1 | 2, names: { idField: string; pageSizeParam: string }, serviceMap?: ServiceMap): string {
  const { serviceMap: _none, settings, ...rest } = checkpoint();
  return JSON.stringify({ ...rest, version, settings: { ...settings, ...names }, ...(serviceMap ? { serviceMap } : {}) });
}

const withNames = (map: ServiceMap, pageSizeParam: string | null, id: string): ServiceMap => ({
  ...map,
  list: { ...map.list, pageSizeParam },
  asset: { ...map.asset, id },
});

describe('checkpoint file', () => {
  it('sits beside the output', () => {
    expect(checkpointPathFor('/a/b/catalog.csv')).toBe('/a/b/catalog.csv.checkpoint.json');
  });

  it('round-trips and leaves no temp file behind', async () => {
    const path = join(dir, 'out.jsonl.checkpoint.json');
    await writeCheckpoint(path, checkpoint());
    await writeCheckpoint(path, checkpoint({ cursor: 'abc', items: 300 }));
    expect(await readCheckpoint(path)).toEqual(checkpoint({ cursor: 'abc', items: 300 }));
    expect(await readdir(dir)).toEqual(['out.jsonl.checkpoint.json']);
  });

  it('keeps the fields the CSV leaves out; one it cannot read is dropped, not fatal', async () => {
    const path = join(dir, 'out.csv.checkpoint.json');
    await writeCheckpoint(path, checkpoint({ unlistedFields: [{ field: 'discount', page: 4 }] }));
    expect((await readCheckpoint(path))?.unlistedFields).toEqual([{ field: 'discount', page: 4 }]);
    await writeFile(path, JSON.stringify({ ...checkpoint(), unlistedFields: 'discount' }));
    expect(await readCheckpoint(path)).toEqual(checkpoint());
  });

  it('is null when missing', async () => {
    expect(await readCheckpoint(join(dir, 'none.json'))).toBeNull();
  });

  it('keeps the previous checkpoint whole when a write fails', async () => {
    const path = join(dir, 'cp.json');
    await writeCheckpoint(path, checkpoint({ items: 100 }));
    // A folder where the temp file should go makes the write fail before the rename.
    await mkdir(`${path}.${process.pid}.tmp`);
    await expect(writeCheckpoint(path, checkpoint({ items: 999 }))).rejects.toThrow(/Cannot write the checkpoint/);
    expect((await readCheckpoint(path))?.items).toBe(100);
  });

  it('ignores a temp file left by a crash in the middle of a write', async () => {
    const path = join(dir, 'cp.json');
    await writeCheckpoint(path, checkpoint({ items: 100 }));
    await writeFile(`${path}.12345.tmp`, '{"version":1,"outp');
    expect((await readCheckpoint(path))?.items).toBe(100);
  });

  it('refuses a damaged or foreign checkpoint with a clear message', async () => {
    const path = join(dir, 'cp.json');
    await writeFile(path, '{not json');
    await expect(readCheckpoint(path)).rejects.toThrow(/not valid JSON/);
    await writeFile(path, JSON.stringify({ version: 99 }));
    await expect(readCheckpoint(path)).rejects.toThrow(/not a catalog checkpoint/);
  });
});

describe('checkpoint cursor past 2^53 (version 2)', () => {
  it('writes the cursor as the number text the service sent and reads it back exact', async () => {
    const path = join(dir, 'out.jsonl.checkpoint.json');
    await writeCheckpoint(path, checkpoint({ cursor: new NumberText('1234567890123456789') }));
    expect(await readFile(path, 'utf8')).toContain('"cursor": 1234567890123456789,');
    const read = await readCheckpoint(path);
    expect(read?.version).toBe(2);
    expect(read?.cursor).toEqual(new NumberText('1234567890123456789'));
  });

  it('reads a version 1 checkpoint with a safe cursor, and refuses one whose cursor an older version rounded', async () => {
    const path = join(dir, 'out.jsonl.checkpoint.json');
    const v1 = (cursor: string): string => legacyFile(1, { idField: 'id', pageSizeParam: 'per-page' }).replace('"cursor":200', `"cursor":${cursor}`);
    await writeFile(path, v1('200'));
    expect(await readCheckpoint(path)).toMatchObject({ version: 2, cursor: 200 });
    await writeFile(path, v1('1234567890123456800'));
    await expect(readCheckpoint(path)).rejects.toThrow(/rounded ids past 2\^53/);
  });
});

describe('checkpoints that named the id field and page-size parameter in their settings', () => {
  it('reads the names of a version 1 checkpoint without a map into the built-in map, and writes no settings names back', async () => {
    const path = join(dir, 'out.jsonl.checkpoint.json');
    await writeFile(path, legacyFile(1, { idField: 'uuid', pageSizeParam: 'limit' }));
    const read = await readCheckpoint(path);
    expect(read).toMatchObject({ version: 2, cursor: 200, settings: { baseUrl: 'http://127.0.0.1:1', vendor: 'demo', format: 'jsonl', pageSize: 100 } });
    expect(read?.settings).not.toHaveProperty('idField');
    expect(read?.settings).not.toHaveProperty('pageSizeParam');
    expect(read?.serviceMap).toEqual(withNames(DEFAULT_SERVICE_MAP, 'limit', 'uuid'));
    await writeCheckpoint(path, read!);
    const written = JSON.parse(await readFile(path, 'utf8')) as { settings: Record<string, unknown>; serviceMap: ServiceMap };
    expect(Object.keys(written.settings).sort()).toEqual(['baseUrl', 'format', 'pageSize', 'vendor']);
    expect(written.serviceMap.list.pageSizeParam).toBe('limit');
    expect(await readCheckpoint(path)).toEqual(read);
  });

  it("writes a version 2 checkpoint's names into its recorded map: they are what its download sent", async () => {
    const path = join(dir, 'out.jsonl.checkpoint.json');
    const recorded = withNames(DEFAULT_SERVICE_MAP, null, 'id');
    await writeFile(path, legacyFile(2, { idField: 'key', pageSizeParam: 'size' }, recorded));
    expect((await readCheckpoint(path))?.serviceMap).toEqual(withNames(recorded, 'size', 'key'));
  });

  it('drops names that make no map, as an unreadable map is dropped', async () => {
    const path = join(dir, 'out.jsonl.checkpoint.json');
    await writeFile(path, legacyFile(2, { idField: '__proto__', pageSizeParam: 'per-page' }));
    const read = await readCheckpoint(path);
    expect(read?.cursor).toBe(200);
    expect(read?.serviceMap).toBeUndefined();
  });
});

describe('resume rules', () => {
  it("allows another page size or page-size parameter but not another base URL, vendor, format or the map's id field", () => {
    const saved = checkpoint().settings;
    const map = DEFAULT_SERVICE_MAP;
    expect(settingsConflicts(saved, { ...saved, pageSize: 10 }, map, withNames(map, 'limit', 'id'))).toEqual([]);
    expect(settingsConflicts(saved, { ...saved, baseUrl: 'http://other' })[0]).toContain('baseUrl');
    expect(settingsConflicts(saved, { ...saved, vendor: 'acme' })[0]).toContain('vendor');
    expect(settingsConflicts(saved, { ...saved, format: 'csv' })[0]).toContain('format');
    expect(settingsConflicts(saved, saved, map, withNames(map, 'per-page', 'uuid'))[0]).toContain('asset.id');
  });

  it('refuses a map that sends or reads the cursor elsewhere (Detect again, an edited map, --service-map on resume)', () => {
    const saved = checkpoint().settings;
    const map = DEFAULT_SERVICE_MAP;
    const other = (list: Partial<typeof map.list>) => ({ ...map, list: { ...map.list, ...list } });
    expect(settingsConflicts(saved, saved, map, other({ cursorParam: 'after' }))).toEqual([
      'the cursor parameter (list.cursorParam) was "last_id", now "after"',
    ]);
    expect(settingsConflicts(saved, saved, map, other({ cursor: 'meta.next' }))[0]).toContain('list.cursor');
    expect(settingsConflicts(saved, saved, map, other({ items: 'data' }))[0]).toContain('list.items');
    expect(settingsConflicts(saved, saved, map, other({ pageSizeParam: 'limit', hasMore: 'more' }))).toEqual([]);
  });

  it('refuses a map that reads the items otherwise (price unit, price, currency, title): the file would mix two readings', () => {
    const saved = checkpoint().settings;
    const map = DEFAULT_SERVICE_MAP;
    const other = (asset: Partial<typeof map.asset>) => ({ ...map, asset: { ...map.asset, ...asset } });
    expect(settingsConflicts(saved, saved, other({ priceUnit: 'minor' }), map)).toEqual(['the price unit (asset.priceUnit) was "minor", now "major"']);
    expect(settingsConflicts(saved, saved, map, other({ price: 'price_cents', currency: null, fixedCurrency: 'EUR' }))).toEqual([
      'the price field (asset.price) was "price", now "price_cents"',
      'the currency field (asset.currency) was "currency", now null',
      'the fixed currency (asset.fixedCurrency) was null, now "EUR"',
    ]);
    expect(settingsConflicts(saved, saved, map, other({ title: 'name' }))[0]).toContain('asset.title');
  });

  it('refuses to resume when the recorded map could not be read, rather than compare nothing', async () => {
    const path = join(dir, 'out.jsonl.checkpoint.json');
    await writeFile(path, JSON.stringify({ ...checkpoint(), serviceMap: { version: 99 } }));
    const read = await readCheckpoint(path);
    expect(read?.serviceMap).toBeUndefined();
    expect(() => assertResumable(path, read!, read!.settings, DEFAULT_SERVICE_MAP)).toThrow(/the service map it recorded could not be read/);
  });

  it('says why it refuses', () => {
    const saved = checkpoint({ settings: { ...checkpoint().settings, format: 'csv' }, columns: ['id', 'title'] });
    const map = DEFAULT_SERVICE_MAP;
    expect(() => assertResumable('cp.json', saved, { ...saved.settings, vendor: 'acme' }, map)).toThrow(/other settings \(vendor was "demo", now "acme"\)/);
    expect(() => assertResumable('cp.json', saved, saved.settings, withNames(map, 'per-page', 'uuid'))).toThrow(
      /the id field \(asset.id\) was "id", now "uuid"/,
    );
    expect(() => assertResumable('cp.json', saved, saved.settings, withNames(map, 'per-page', 'uuid'))).toThrow(/start over or restore the map/);
    expect(() => assertResumable('cp.json', saved, saved.settings, map, ['id'])).toThrow(/columns were id,title, now id/);
    expect(() => assertResumable('cp.json', saved, saved.settings, map, ['id', 'title'])).not.toThrow();
  });
});

describe('truncateToCheckpoint', () => {
  it('drops a half-written page after the checkpoint length', async () => {
    const out = join(dir, 'out.jsonl');
    const safe = '{"id":1}\n{"id":2}\n';
    await writeFile(out, `${safe}{"id":3}\n{"id":4`);
    const dropped = await truncateToCheckpoint(out, Buffer.byteLength(safe));
    expect(dropped).toBe(Buffer.byteLength(`{"id":3}\n{"id":4`));
    expect(await readFile(out, 'utf8')).toBe(safe);
  });

  it('leaves a file of exactly the checkpoint length as it is', async () => {
    const out = join(dir, 'out.jsonl');
    await writeFile(out, 'abc\n');
    expect(await truncateToCheckpoint(out, 4)).toBe(0);
    expect(await readFile(out, 'utf8')).toBe('abc\n');
  });

  it('refuses a file shorter than the checkpoint says, or a missing one', async () => {
    const out = join(dir, 'out.jsonl');
    await writeFile(out, 'abc');
    await expect(truncateToCheckpoint(out, 10)).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect(await readFile(out, 'utf8')).toBe('abc');
    await expect(truncateToCheckpoint(join(dir, 'missing.jsonl'), 10)).rejects.toThrow(/missing/);
    expect(await truncateToCheckpoint(join(dir, 'missing.jsonl'), 0)).toBe(0);
  });
});
