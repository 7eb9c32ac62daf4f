/**
 * A download interrupted by a restart or a disconnect (its checkpoint left on disk, no download in memory): the
 * app says so and offers to resume it, and a plain Start does not replace it; only "start over" does. The app's
 * DownloadController, a real PartnerClient and the simulator on loopback.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DownloadController } from '../../electron/app/download-controller';
import type { DownloadProgressView, DownloadTarget } from '../../electron/app/download-controller';
import { BudgetRegistry, PartnerClient } from '../../electron/client';
import { startSimulator } from '../../electron/simulator';
import type { RunningSimulator } from '../../electron/simulator';
import { until } from '../helpers/app-calls';

let dir: string;
let sim: RunningSimulator;
let client: PartnerClient;
let controllers: DownloadController[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'download-interrupted-'));
  // Pages of 100, each answer 40 ms late: the first run is stopped mid-way.
  sim = await startSimulator({ host: '127.0.0.1', port: 0, catalogSize: 2000, seed: 3, faults: { latencyMs: 40 } });
  client = new PartnerClient({ baseUrl: sim.url, vendor: 'demo', tokens: ['demo-token-1'], budgets: new BudgetRegistry() });
});
afterEach(async () => {
  for (const c of controllers) await c.stop();
  controllers = [];
  client.close();
  await sim.stop();
  await rm(dir, { recursive: true, force: true });
});

const target: DownloadTarget = { profileId: 'p1', client: null as never, baseUrl: '', vendor: 'demo', tokens: ['demo-token-1'] };
const controller = (events: DownloadProgressView[] = []): DownloadController => {
  const c = new DownloadController((v) => events.push(v));
  controllers.push(c);
  return c;
};
const lines = async (path: string): Promise<string[]> => (await readFile(path, 'utf8')).trim().split('\n');

/** A first run stopped after some pages, as a disconnect or a quit stops it; a new controller, as after a restart. */
async function interruptedRun(): Promise<{ t: DownloadTarget; outPath: string; items: number; next: DownloadController }> {
  const t = { ...target, client, baseUrl: sim.url };
  const events: DownloadProgressView[] = [];
  const first = controller(events);
  await first.start(t, dir, { format: 'jsonl', resume: false });
  await until(() => events.some((e) => e.pages >= 2), 10_000);
  const outPath = first.status().outPath!;
  await first.stop();
  const items = (await lines(outPath)).length;
  return { t, outPath, items, next: controller() };
}

describe('a download interrupted by a restart or a disconnect', () => {
  it('is shown as interrupted, is not replaced by a plain Start, and resumes from its last page', async () => {
    const { t, outPath, items, next } = await interruptedRun();
    expect(items).toBeGreaterThan(0);
    expect(items).toBeLessThan(2000);
    const shown = await next.statusFor(t, dir);
    expect(shown).toMatchObject({ state: 'idle', interrupted: { format: 'jsonl', outPath, items } });

    await expect(next.start(t, dir, { format: 'jsonl', resume: false })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('interrupted'),
    });
    expect(await lines(outPath)).toHaveLength(items);

    await next.resume(t, dir);
    await until(() => next.status().state === 'done', 20_000);
    const ids = (await lines(outPath)).map((l) => (JSON.parse(l) as { id: number }).id);
    expect(ids).toHaveLength(2000);
    expect(new Set(ids).size).toBe(2000);
    expect((await next.statusFor(t, dir)).interrupted).toBeNull();
  });

  it('is replaced when the person chooses to start over', async () => {
    const { t, outPath, next } = await interruptedRun();
    await next.start(t, dir, { format: 'jsonl', resume: false, replace: true });
    await until(() => next.status().state === 'done', 20_000);
    expect(await lines(outPath)).toHaveLength(2000);
  });

  it('is not offered to another profile of the vendor on another service, whose plain start does not replace it either', async () => {
    const { t, outPath, items, next } = await interruptedRun();
    const staging: DownloadTarget = { ...t, profileId: 'p2', baseUrl: 'http://127.0.0.1:9' };
    expect((await next.statusFor(staging, dir)).interrupted).toBeNull();
    await expect(next.resume(staging, dir)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(next.start(staging, dir, { format: 'jsonl', resume: false })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining(t.baseUrl),
    });
    expect(await lines(outPath)).toHaveLength(items);
  });

  it("is not replaced by another profile's plain start while this controller still holds it (cancelled, files kept)", async () => {
    const t = { ...target, client, baseUrl: sim.url };
    const events: DownloadProgressView[] = [];
    const one = controller(events);
    await one.start(t, dir, { format: 'jsonl', resume: false });
    await until(() => events.some((e) => e.pages >= 2), 10_000);
    const cancelled = await one.cancel(t.profileId, false);
    const items = (await lines(cancelled.outPath!)).length;
    const other: DownloadTarget = { ...t, profileId: 'p2', baseUrl: 'http://127.0.0.1:9' };
    await expect(one.start(other, dir, { format: 'jsonl', resume: false })).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await lines(cancelled.outPath!)).toHaveLength(items);
  });

  it("is not offered to a vendor whose name only files the same ('de mo' and 'de/mo'), and a damaged one is replaced by a start over", async () => {
    const { t, outPath, next } = await interruptedRun();
    const checkpoint = JSON.parse(await readFile(`${outPath}.checkpoint.json`, 'utf8')) as { settings: { vendor: string } };
    checkpoint.settings.vendor = 'de mo';
    await writeFile(join(dir, 'catalog-de_mo.jsonl.checkpoint.json'), JSON.stringify(checkpoint));
    await writeFile(join(dir, 'catalog-de_mo.jsonl'), await readFile(outPath));
    expect((await next.statusFor({ ...t, vendor: 'de/mo' }, dir)).interrupted).toBeNull();
    expect((await next.statusFor({ ...t, vendor: 'de mo' }, dir)).interrupted).not.toBeNull();

    await writeFile(`${outPath}.checkpoint.json`, '{ not json');
    expect((await next.statusFor(t, dir)).interrupted).toBeNull();
    await next.start(t, dir, { format: 'jsonl', resume: false, replace: true });
    await until(() => next.status().state === 'done', 20_000);
    expect(await lines(outPath)).toHaveLength(2000);
  });
});
