/**
 * One download runs at a time, and it is its profile's: another profile's status never shows it as its
 * own (it says another profile is downloading, and names it), and that profile's Pause and Cancel are
 * refused instead of acting on it. The app's DownloadController, a real PartnerClient and the simulator.
 */
import { mkdtemp, rm } from 'node:fs/promises';
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
let downloads: DownloadController;
const events: DownloadProgressView[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'download-profiles-'));
  sim = await startSimulator({ host: '127.0.0.1', port: 0, catalogSize: 2000, seed: 3, faults: { latencyMs: 40 } });
  client = new PartnerClient({ baseUrl: sim.url, vendor: 'alpha', tokens: ['demo-token-1'], budgets: new BudgetRegistry() });
  events.length = 0;
  downloads = new DownloadController((v) => events.push(v));
});
afterEach(async () => {
  await downloads.stop();
  client.close();
  await sim.stop();
  await rm(dir, { recursive: true, force: true });
});

describe("another profile's download", () => {
  it("is not shown as B's own, is named as another profile's, and B's Pause and Cancel are refused", async () => {
    const a: DownloadTarget = { profileId: 'a', profileName: 'Alpha shop', client, baseUrl: sim.url, vendor: 'alpha', tokens: ['demo-token-1'] };
    const b = { profileId: 'b', baseUrl: sim.url, vendor: 'beta' };
    await downloads.start(a, dir, { format: 'jsonl', resume: false });
    await until(() => events.some((e) => e.pages >= 1), 10_000);
    expect(events.every((e) => e.profileId === 'a')).toBe(true);

    const seenByB = await downloads.statusFor(b, dir);
    expect(seenByB).toMatchObject({ state: 'idle', outPath: null, pages: 0, profileId: null, otherProfile: { id: 'a', name: 'Alpha shop' } });
    expect(() => downloads.pause('b')).toThrow(expect.objectContaining({ data: expect.objectContaining({ code: 'CONFLICT' }) }));
    await expect(downloads.cancel('b', true)).rejects.toMatchObject({ data: { code: 'CONFLICT' } });
    expect(downloads.status().state).toBe('running');

    const seenByA = await downloads.statusFor({ ...b, profileId: 'a', vendor: 'alpha' }, dir);
    expect(seenByA).toMatchObject({ state: 'running', profileId: 'a', otherProfile: null });
    downloads.pause('a');
    await until(() => downloads.status().state === 'paused', 10_000);
    // Paused, it is still A's: B sees its own (nothing), and no other profile is downloading.
    expect(await downloads.statusFor(b, dir)).toMatchObject({ state: 'idle', outPath: null, otherProfile: null });
    expect((await downloads.cancel('a', false)).state).toBe('cancelled');
  });
});
