/**
 * A start over's swap of the output: when the output cannot be replaced (Windows refuses a file open in
 * Excel with EBUSY/EPERM) the previous checkpoint is put back and the error names the file in use; a
 * checkpoint left aside by a run that died mid-swap is put back while the output is still the old one.
 * Real files in a temporary folder; the rename seam fails as Windows does.
 */
import { mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StartOver } from '../../electron/catalog/start-over';

let dir: string;
let out: string;
let checkpoint: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'start-over-'));
  out = join(dir, 'cat.csv');
  checkpoint = `${out}.checkpoint.json`;
  await writeFile(out, 'old\n');
  await writeFile(checkpoint, '{"old":true}');
  await writeFile(`${out}.new`, 'new\n');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const busy =
  (target: string) =>
  async (from: string, to: string): Promise<void> => {
    if (to === target) throw Object.assign(new Error(`EBUSY: resource busy or locked, rename '${from}' -> '${to}'`), { code: 'EBUSY' });
    await rename(from, to);
  };

describe('a start over that cannot replace the output', () => {
  it('puts the previous checkpoint back and names the file in use', async () => {
    const error = await new StartOver(out, checkpoint, busy(out)).commit().catch((e: unknown) => e);
    expect(error).toMatchObject({ data: { code: 'INTERNAL', message: expect.stringContaining(`Cannot replace ${out}: it is in use`) } });
    expect((error as { data: { hint: string } }).data.hint).toContain(out);
    expect(await readFile(out, 'utf8')).toBe('old\n');
    expect(await readFile(checkpoint, 'utf8')).toBe('{"old":true}');
    expect((await readdir(dir)).sort()).toEqual(['cat.csv', 'cat.csv.checkpoint.json', 'cat.csv.new']);
  });

  it('replaces the output and drops the old checkpoint when it can', async () => {
    await new StartOver(out, checkpoint).commit();
    expect(await readFile(out, 'utf8')).toBe('new\n');
    expect(await readdir(dir)).toEqual(['cat.csv']);
  });
});

describe('a checkpoint left aside by a run that died mid-swap', () => {
  it('is put back while the staging file shows the output was not replaced', async () => {
    await rename(checkpoint, `${checkpoint}.prev`);
    await new StartOver(out, checkpoint).recover();
    expect(await readFile(checkpoint, 'utf8')).toBe('{"old":true}');
  });

  it('is dropped once the output was replaced (never the old checkpoint beside the new file)', async () => {
    await rename(checkpoint, `${checkpoint}.prev`);
    await rename(`${out}.new`, out);
    await new StartOver(out, checkpoint).recover();
    expect(await readdir(dir)).toEqual(['cat.csv']);
  });
});
