/**
 * The app's downloads carry the token fingerprints too: a checkpoint the app writes records its profile's
 * tokens (keyed hashes), and the app's resume with tokens none of which began the download (the profile's
 * tokens changed to another vendor's) is refused, the file untouched, as a CLI --resume with such a token is.
 * The app's DownloadController, the catalog CLI and a real PartnerClient against a loopback service whose
 * titles name the token that asked.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DownloadController } from '../../electron/app/download-controller';
import type { DownloadProgressView, DownloadTarget } from '../../electron/app/download-controller';
import { checkpointPathFor } from '../../electron/catalog';
import { runCatalogCli } from '../../electron/catalog/cli-main';
import { capturedIo } from '../helpers/catalog-cli-io';
import { BudgetRegistry, PartnerClient } from '../../electron/client';
import { until } from '../helpers/app-calls';
import { labelledCatalog } from '../helpers/labelled-catalog';
import type { LabelledCatalog } from '../helpers/labelled-catalog';

let dir: string;
let s: LabelledCatalog;
const clients: PartnerClient[] = [];
const controllers: DownloadController[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'download-app-tokens-'));
  s = await labelledCatalog(250);
});
afterEach(async () => {
  for (const c of controllers.splice(0)) await c.stop();
  for (const c of clients.splice(0)) c.close();
  await s.close();
  await rm(dir, { recursive: true, force: true });
});

function target(token: string): DownloadTarget {
  const client = new PartnerClient({ baseUrl: s.url, vendor: 'demo', tokens: [token], budgets: new BudgetRegistry(), retry: { baseMs: 1, capMs: 2 } });
  clients.push(client);
  return { profileId: 'p1', client, baseUrl: s.url, vendor: 'demo', tokens: [token] };
}
function controller(events: DownloadProgressView[]): DownloadController {
  const c = new DownloadController((v) => events.push(v));
  controllers.push(c);
  return c;
}
const lines = async (path: string): Promise<string[]> => (await readFile(path, 'utf8')).trim().split('\n');

/** The app's download with tok-A, stopped after its first page of 100 items (the service refuses the second request). */
async function stoppedInApp(): Promise<string> {
  s.refuseAfter = 1;
  const events: DownloadProgressView[] = [];
  const first = controller(events);
  await first.start(target('tok-A'), dir, { format: 'jsonl', resume: false });
  await until(() => events.some((e) => e.state === 'failed'), 10_000);
  s.refuseAfter = Infinity;
  const outPath = first.status().outPath!;
  expect(await lines(outPath)).toHaveLength(100);
  await first.stop();
  return outPath;
}

describe("the app's download and its tokens", () => {
  it("refuses to resume with another vendor's tokens, the file untouched; with its own it completes", async () => {
    const outPath = await stoppedInApp();
    const before = await readFile(outPath, 'utf8');
    const events: DownloadProgressView[] = [];
    const changed = controller(events);
    await changed.resume(target('tok-B'), dir);
    await until(() => events.some((e) => e.state === 'failed' || e.state === 'done'), 10_000);
    expect(changed.status().error).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/other tokens/) });
    expect(await readFile(outPath, 'utf8')).toBe(before);

    const own = controller(events);
    await own.resume(target('tok-A'), dir);
    await until(() => own.status().state === 'done', 10_000);
    const all = await lines(outPath);
    expect(all).toHaveLength(250);
    expect(all.every((l) => l.includes('tok-A'))).toBe(true);
  });

  it('writes checkpoints a CLI --resume with another token is refused on', async () => {
    const outPath = await stoppedInApp();
    const saved = JSON.parse(await readFile(checkpointPathFor(outPath), 'utf8')) as { tokens?: { hashes: string[] } };
    expect(saved.tokens?.hashes).toHaveLength(1);
    const io = capturedIo(dir, { PARTNER_RETRY_BASE_MS: '1' });
    const args = ['--base-url', s.url, '--token', 'tok-B', '--vendor', 'demo', '--out', outPath, '--no-detect', '--resume'];
    expect(await runCatalogCli(args, io)).toBe(1);
    expect(await lines(outPath)).toHaveLength(100);
  });
});
