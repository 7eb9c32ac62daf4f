/**
 * Eight catalog CLI processes of one vendor, each with its own token, download the catalog at once
 * from the real simulator (whole-second limiter): none gives up (issue 10). Each exits 0 with exactly
 * the catalog's ids, in order, once. They share this machine's budget store (the CLI's default, in the
 * tests' own folder: vitest.config.ts): every request the service saw took a slot there.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_CLI_BUNDLE } from '../helpers/cli-bundles';
import { startSimulator } from '../../electron/simulator';
import type { RunningSimulator } from '../../electron/simulator';
import { AssetCatalog } from '../../electron/simulator/asset-catalog';
import { MachineSlotStore, machineStoreFile, storeKey } from '../../electron/client';
import { normalizeBaseUrl } from '../../shared/base-url';

const N = 8;
const SIZE = 300; // 30 pages of 10 each: 240 requests at 20/s, about 12 s shared by all eight
const SEED = 5;
const tokens = Array.from({ length: N }, (_, i) => `fleet-cli-token-${i + 1}`);

let dir: string;
let sim: RunningSimulator;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'catalog-fleet-'));
  sim = await startSimulator({ catalogSize: SIZE, seed: SEED, refill: 'whole-second', tokens: tokens.map((token) => ({ vendor: 'fleet', token })) });
});
afterAll(async () => {
  await sim.stop();
  await rm(dir, { recursive: true, force: true });
});

function download(i: number): Promise<{ code: number | null; stderr: string; out: string }> {
  const out = join(dir, `catalog-${i}.jsonl`);
  const child = spawn(
    process.execPath,
    [CATALOG_CLI_BUNDLE, '--base-url', sim.url, '--vendor', 'fleet', '--token', tokens[i]!, '--page-size', '10', '--out', out],
    {
      cwd: dir,
      env: { ...process.env, PARTNER_TOKENS: '' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((res) => child.on('close', (code) => res({ code, stderr, out })));
}

describe('a fleet of catalog CLI processes sharing one vendor budget', () => {
  it('eight at once: none gives up, each file holds exactly the catalog', { timeout: 180_000 }, async () => {
    const runs = await Promise.all(Array.from({ length: N }, (_, i) => download(i)));
    const catalog = new AssetCatalog(SIZE, SEED);
    const expected = Array.from({ length: SIZE }, (_, k) => catalog.idAt(k));
    for (const run of runs) {
      expect(run.code, run.stderr.slice(-500)).toBe(0);
      const ids = (await readFile(run.out, 'utf8'))
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => (JSON.parse(l) as { id: number }).id);
      expect(ids).toEqual(expected);
    }
    // The counts of complete seconds only: wait for the run's last second to end.
    await new Promise((r) => setTimeout(r, 1_000 - (Date.now() % 1000) + 50));
    const served = sim.control.counters().filter((c) => c.vendor === 'fleet' && c.endpoint === 'listAssets');
    const requests = served.reduce((n, c) => n + c.count, 0);
    const refused = served.filter((c) => c.status === 429).reduce((n, c) => n + c.count, 0);
    const machine = new MachineSlotStore(machineStoreFile());
    try {
      const granted = await machine.granted([storeKey(normalizeBaseUrl(sim.url), 'fleet', 'listAssets')], 120);
      // A slot read too late is given up for another; a lock held too long sends that one request on the headers.
      const slots = granted!.counts[0]!.reduce((a, b) => a + b, 0);
      expect(slots).toBeGreaterThanOrEqual(requests * 0.95);
      expect(slots).toBeLessThanOrEqual(requests * 1.05);
    } finally {
      await machine.close();
    }
    // Spaced by the store, not found by each process from the headers: 429s are rare.
    expect(refused / requests).toBeLessThanOrEqual(0.02);
  });
});
