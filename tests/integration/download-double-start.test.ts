/**
 * Two "Download" clicks at once (a double click, a second window) through the app's DownloadController,
 * a real PartnerClient and the real simulator on loopback: one download runs, the other is refused,
 * and status and pause act on the one that runs.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
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
let downloads: DownloadController | null = null;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'download-double-'));
  // 5000 items in pages of 100, each answer 40 ms late: the download lasts long enough to pause it mid-way.
  sim = await startSimulator({ host: '127.0.0.1', port: 0, catalogSize: 5000, seed: 3, faults: { latencyMs: 40 } });
  client = new PartnerClient({ baseUrl: sim.url, vendor: 'demo', tokens: ['demo-token-1', 'demo-token-2'], budgets: new BudgetRegistry() });
});
afterEach(async () => {
  await downloads?.stop();
  downloads = null;
  client.close();
  await sim.stop();
  await rm(dir, { recursive: true, force: true });
});

const listRequests = (): number => sim.control.counters().reduce((n, c) => n + (c.endpoint === 'listAssets' ? c.count : 0), 0);

describe('two downloads started at once', () => {
  it('runs one, refuses the other clearly, and status and pause act on the one that runs', async () => {
    const events: DownloadProgressView[] = [];
    const controller = new DownloadController((v) => events.push(v));
    downloads = controller;
    const target: DownloadTarget = { profileId: 'p1', client, baseUrl: sim.url, vendor: 'demo', tokens: ['demo-token-1', 'demo-token-2'] };
    const starts = await Promise.allSettled([
      controller.start(target, dir, { format: 'jsonl', resume: false }),
      controller.start(target, dir, { format: 'jsonl', resume: false }),
    ]);
    expect(starts.map((s) => s.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = starts.find((s) => s.status === 'rejected') as PromiseRejectedResult;
    expect(String(refused.reason)).toMatch(/already running; pause or cancel it first/);

    await until(() => events.some((e) => e.items > 0), 10_000);
    expect(controller.status().state).toBe('running');
    expect(controller.pause('p1').state).not.toBe('idle');
    await until(() => controller.status().state === 'paused', 10_000);
    // Paused means no more requests: nothing keeps asking for pages behind the app's back.
    const afterPause = listRequests();
    await new Promise((r) => setTimeout(r, 400));
    expect(listRequests()).toBe(afterPause);
    const paused = controller.status();
    expect(paused.items).toBeGreaterThan(0);
    expect(paused.items).toBeLessThan(5000);
    expect((await readFile(paused.outPath!, 'utf8')).trim().split('\n')).toHaveLength(paused.items);
  });
});
