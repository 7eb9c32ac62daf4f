/**
 * Issue 21 items 6 and 7: the catalog CLI (in-process, the real client) against services on
 * loopback that write snowflake ids (past 2^53) as JSON numbers, and one item nested 6,000 deep.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCatalogCli } from '../../electron/catalog/cli-main';
import { capturedIo } from '../helpers/catalog-cli-io';
import type { CapturedIo } from '../helpers/catalog-cli-io';
import { SNOWFLAKE_IDS, startSnowflakeService } from '../helpers/snowflake-service';
import type { SnowflakeService } from '../helpers/snowflake-service';

const lines = async (path: string): Promise<string[]> => (await readFile(path, 'utf8')).split(/\r?\n/).filter(Boolean);
/** The id of a JSON Lines record as its bytes (the number text, or a quoted string). */
const jsonlIdText = (line: string): string => /^\{"id":(-?\d+|"[^"]*")[,}]/.exec(line)?.[1] ?? `no id in ${line.slice(0, 60)}`;

let dir: string;
let service: SnowflakeService | null = null;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'catalog-exact-'));
});
afterEach(async () => {
  await service?.close();
  service = null;
  await rm(dir, { recursive: true, force: true });
});

async function download(format: 'jsonl' | 'csv', pageSize: number, flags: string[] = []): Promise<{ code: number; run: CapturedIo; out: string }> {
  const run = capturedIo(dir);
  const out = join(dir, `cat.${format}`);
  const code = await runCatalogCli(['--base-url', service!.url, '--token', 'tok-1', '--page-size', String(pageSize), '--out', `cat.${format}`, ...flags], run);
  return { code, run, out };
}

describe('ids past 2^53 (snowflakes) in a catalog download', () => {
  const expected = SNOWFLAKE_IDS.map(String);

  it('writes exactly the ids the service sent to JSON Lines, none twice, none skipped, and pages by the exact last_id', async () => {
    service = await startSnowflakeService(SNOWFLAKE_IDS.map((id) => ({ id })));
    const { code, run, out } = await download('jsonl', 3, ['--no-detect']);
    expect(run.err()).not.toMatch(/error/i);
    expect(code).toBe(0);
    expect((await lines(out)).map(jsonlIdText)).toEqual(expected);
    expect(service.lastIds).toEqual(['', '9007199254740994', '1234567890123456790']);
    // The checkpoint keeps the last cursor as the service wrote it (a --resume would send it back exactly).
    expect(await readFile(`${out}.checkpoint.json`, 'utf8')).toContain('"cursor": 1234567890123456800,');
  });

  it('detects the map of such a service (snowflake ids are ids) and downloads it exactly', async () => {
    service = await startSnowflakeService(SNOWFLAKE_IDS.map((id) => ({ id })));
    const { code, run, out } = await download('jsonl', 3, ['--detect']);
    // As for small ids: the ids read as ids, and the cursor field found.
    expect(run.err()).toMatch(/confidence 0\.\d+\): items at items, id id, page size `per-page`, cursor last_id/);
    expect(code).toBe(0);
    expect((await lines(out)).map(jsonlIdText)).toEqual(expected);
  });

  it('writes exactly those ids to CSV', async () => {
    service = await startSnowflakeService(SNOWFLAKE_IDS.map((id) => ({ id })));
    const { code, out } = await download('csv', 3);
    expect(code).toBe(0);
    const [header, ...rows] = await lines(out);
    expect(header).toBe('id,title');
    expect(rows.map((r) => r.split(',')[0])).toEqual(expected);
  });

  it('keeps an id the service wrote as a string a string', async () => {
    service = await startSnowflakeService([{ id: 9007199254740993n }, { id: '9007199254740995' }]);
    const { code, out } = await download('jsonl', 3);
    expect(code).toBe(0);
    expect((await lines(out)).map(jsonlIdText)).toEqual(['9007199254740993', '"9007199254740995"']);
  });
});

describe('one item nested 6,000 deep (12 KB) in a 50-item catalog', () => {
  const deep = `${'['.repeat(6000)}${']'.repeat(6000)}`;
  const items = Array.from({ length: 50 }, (_, i) => ({ id: BigInt(i + 1), ...(i === 4 ? { deep } : {}) }));

  it.each(['jsonl', 'csv'] as const)('the %s download completes with every item, the deep one written whole', async (format) => {
    service = await startSnowflakeService(items, 10);
    const { code, run, out } = await download(format, 10);
    expect(run.err()).not.toMatch(/stack|error/i);
    expect(code).toBe(0);
    expect(JSON.parse(run.out())).toMatchObject({ state: 'done', items: 50 });
    const written = await lines(out);
    if (format === 'jsonl') {
      expect(written).toHaveLength(50);
      expect(written[4]).toBe(`{"id":5,"title":"Asset 5","deep":${deep}}`);
    } else {
      expect(written).toHaveLength(51);
      // On the first page, so the header has its column.
      expect(written[0]).toBe('id,title,deep');
      expect(written[5]).toBe(`5,Asset 5,${deep}`);
      expect(written.slice(1).map((r) => r.split(',')[0])).toEqual(items.map((i) => String(i.id)));
    }
  });
});
