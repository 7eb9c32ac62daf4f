/**
 * A profile's vendor is free text: "de mo" and "de  mo" are one vendor (shared/vendor-key), and both name
 * the file catalog-de_mo. The app offers the unfinished download of that file to either spelling, and the
 * resume it offers goes through. The app's DownloadController and a real PartnerClient on loopback.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { DownloadController } from '../../electron/app/download-controller';
import type { DownloadProgressView, DownloadTarget } from '../../electron/app/download-controller';
import { BudgetRegistry, PartnerClient } from '../../electron/client';
import { until } from '../helpers/app-calls';
import { labelledCatalog } from '../helpers/labelled-catalog';
import type { LabelledCatalog } from '../helpers/labelled-catalog';

let dir: string;
let s: LabelledCatalog;
const clients: PartnerClient[] = [];
const controllers: DownloadController[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'download-vendor-spelling-'));
  s = await labelledCatalog(250);
});
afterEach(async () => {
  for (const c of controllers.splice(0)) await c.stop();
  for (const c of clients.splice(0)) c.close();
  await s.close();
  await rm(dir, { recursive: true, force: true });
});

function target(vendor: string): DownloadTarget {
  const client = new PartnerClient({ baseUrl: s.url, vendor, tokens: ['tok-A'], budgets: new BudgetRegistry(), retry: { baseMs: 1, capMs: 2 } });
  clients.push(client);
  return { profileId: 'p1', client, baseUrl: s.url, vendor, tokens: ['tok-A'] };
}

it('offers and resumes the unfinished download of the same vendor typed another way', async () => {
  s.refuseAfter = 1;
  const events: DownloadProgressView[] = [];
  const first = new DownloadController((v) => events.push(v));
  controllers.push(first);
  await first.start(target('de mo'), dir, { format: 'jsonl', resume: false });
  await until(() => events.some((e) => e.state === 'failed'), 10_000);
  const outPath = first.status().outPath!;
  await first.stop();
  s.refuseAfter = Infinity;

  const next = new DownloadController(() => undefined);
  controllers.push(next);
  const retyped = target('de  mo');
  expect((await next.statusFor(retyped, dir)).interrupted).toMatchObject({ outPath, items: 100 });
  await next.resume(retyped, dir);
  await until(() => next.status().state === 'done' || next.status().state === 'failed', 10_000);
  expect(next.status().error).toBeNull();
  expect((await readFile(outPath, 'utf8')).trim().split('\n')).toHaveLength(250);
});
