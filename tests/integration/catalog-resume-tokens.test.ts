/**
 * A --resume goes on only with the tokens the download began with: the checkpoint keeps a keyed hash of
 * each (never a token), and a resume with none of them (another vendor's token under the same --vendor) is
 * refused, the file untouched. An older checkpoint without the hashes is resumed and then carries them.
 * The catalog CLI in-process against a loopback service whose titles name the token that asked.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCatalogCli } from '../../electron/catalog/cli-main';
import { capturedIo } from '../helpers/catalog-cli-io';
import { checkpointPathFor } from '../../electron/catalog';
import { labelledCatalog } from '../helpers/labelled-catalog';
import type { LabelledCatalog } from '../helpers/labelled-catalog';

let dir: string;
let s: LabelledCatalog;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'resume-tokens-'));
  s = await labelledCatalog(30);
});
afterEach(async () => {
  await s.close();
  await rm(dir, { recursive: true, force: true });
});

async function cli(token: string, ...extra: string[]): Promise<{ code: number; err: string }> {
  const io = capturedIo(dir, { PARTNER_RETRY_BASE_MS: '1' });
  const args = ['--base-url', s.url, '--token', token, '--out', 'cat.jsonl', '--page-size', '10', '--no-detect', ...extra];
  return { code: await runCatalogCli(args, io), err: io.err() };
}
const out = (): string => join(dir, 'cat.jsonl');
const lines = async (): Promise<string[]> => (await readFile(out(), 'utf8')).trim().split('\n');

/** A first run with tok-A that stops after page 1 (the service refuses the second request). */
async function stoppedAfterPageOne(): Promise<void> {
  s.refuseAfter = 1;
  expect((await cli('tok-A')).code).toBe(1);
  s.refuseAfter = Infinity;
  expect(await lines()).toHaveLength(10);
}

describe('--resume and the tokens of the download', () => {
  it("is refused with another vendor's token, the file untouched; with the same token it completes", async () => {
    await stoppedAfterPageOne();
    const before = await readFile(out(), 'utf8');
    const other = await cli('tok-B', '--resume');
    expect(other.code).toBe(1);
    expect(other.err).toMatch(/token/i);
    expect(await readFile(out(), 'utf8')).toBe(before);
    const checkpoint = await readFile(checkpointPathFor(out()), 'utf8');
    expect(checkpoint).not.toContain('tok-A');

    const same = await cli('tok-A', '--resume');
    expect(same.code).toBe(0);
    const all = await lines();
    expect(all).toHaveLength(30);
    expect(all.every((l) => l.includes('tok-A'))).toBe(true);
  });

  it('goes on when one of the tokens it began with is among the new ones (a set of tokens, one replaced)', async () => {
    await stoppedAfterPageOne();
    expect((await cli('tok-C', '--token', 'tok-A', '--resume')).code).toBe(0);
    expect(await lines()).toHaveLength(30);
  });

  it('resumes an older checkpoint without the hashes, which then carries them', async () => {
    await stoppedAfterPageOne();
    const path = checkpointPathFor(out());
    const saved = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    delete saved.tokens;
    await writeFile(path, JSON.stringify(saved));
    s.refuseAfter = s.requests + 1;
    expect((await cli('tok-A', '--resume')).code).toBe(1);
    s.refuseAfter = Infinity;
    expect((await cli('tok-B', '--resume')).code).toBe(1);
    expect(await lines()).toHaveLength(20);
  });
});
