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
    settings: { baseUrl: 'http://127.0.0.1:1', vendor: 'demo', format: 'jsonl', idField: 'id', pageSize: 100, pageSizeParam: 'per-page' },
    cursor: 200,
    done: false,
    pages: 2,
    items: 200,
    bytes: 1234,
    columns: null,
    total: 500,
    startedAt: '2024-01-01T00:00:00.000Z',
    updatedAt: '2024-01-01T00:00:01.000Z',
    ...patch,
  };
}

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
    const v1 = (cursor: string): string => JSON.stringify({ ...checkpoint(), version: 1, cursor: 0 }).replace('"cursor":0', `"cursor":${cursor}`);
    await writeFile(path, v1('200'));
    expect(await readCheckpoint(path)).toMatchObject({ version: 2, cursor: 200 });
    await writeFile(path, v1('1234567890123456800'));
    await expect(readCheckpoint(path)).rejects.toThrow(/rounded ids past 2\^53/);
  });
});

describe('resume rules', () => {
  it('allows another page size but not another base URL, vendor, format or id field', () => {
    const saved = checkpoint().settings;
    expect(settingsConflicts(saved, { ...saved, pageSize: 10, pageSizeParam: 'limit' })).toEqual([]);
    expect(settingsConflicts(saved, { ...saved, baseUrl: 'http://other' })[0]).toContain('baseUrl');
    expect(settingsConflicts(saved, { ...saved, vendor: 'acme' })[0]).toContain('vendor');
    expect(settingsConflicts(saved, { ...saved, format: 'csv' })[0]).toContain('format');
    expect(settingsConflicts(saved, { ...saved, idField: 'uuid' })[0]).toContain('idField');
  });

  it('says why it refuses', () => {
    const saved = checkpoint({ settings: { ...checkpoint().settings, format: 'csv' }, columns: ['id', 'title'] });
    expect(() => assertResumable('cp.json', saved, { ...saved.settings, vendor: 'acme' })).toThrow(/other settings \(vendor was "demo", now "acme"\)/);
    expect(() => assertResumable('cp.json', saved, saved.settings, ['id'])).toThrow(/columns were id,title, now id/);
    expect(() => assertResumable('cp.json', saved, saved.settings, ['id', 'title'])).not.toThrow();
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
