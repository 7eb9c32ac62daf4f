/**
 * The proof that the app reads services it was not configured for: for each simulator dialect on
 * loopback, detection alone (the probes, at most 3 requests) finds a map that reads the categories,
 * a category-filtered search, and — through the catalog CLI with that map only — the whole catalog,
 * every id exactly once and no warning. A wrong page-size parameter gets the verification warning.
 * Only this test knows the dialects' shapes (to build wrong maps and expected values); the app finds them by itself.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_CLI_BUNDLE } from '../helpers/cli-bundles';
import { PartnerClient } from '../../electron/client';
import { probeService } from '../../electron/service-map/probe';
import { startSimulator } from '../../electron/simulator';
import type { RunningSimulator, SimDialect } from '../../electron/simulator';
import { AssetCatalog } from '../../electron/simulator/asset-catalog';
import { readCategories, readSearch } from '../../shared/service-map/read';
import { searchRequest } from '../../shared/service-map/requests';
import type { ServiceMap } from '../../shared/service-map/schema';

const SIZE = 230;
const SEED = 5;
const TOKEN = 'demo-token-1';
const DIALECTS: SimDialect[] = ['jsonapi', 'camel-minor', 'snake-envelope', 'default'];
/** The page-size name each dialect honours: only to build a WRONG map for the warning test. */
const OTHER_PAGE_SIZE_PARAM: Record<SimDialect, string> = { default: 'limit', jsonapi: 'per-page', 'camel-minor': 'per-page', 'snake-envelope': 'per-page' };

const catalog = new AssetCatalog(SIZE, SEED);
const expectedIds = Array.from({ length: SIZE }, (_, k) => catalog.idAt(k));

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dialects-detect-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const sims: RunningSimulator[] = [];
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.stop()));
});

async function detect(dialect: SimDialect): Promise<{ sim: RunningSimulator; client: PartnerClient; map: ServiceMap; requests: number; warnings: string[] }> {
  const sim = await startSimulator({ catalogSize: SIZE, seed: SEED, dialect });
  sims.push(sim);
  const client = new PartnerClient({ baseUrl: sim.url, vendor: 'demo', tokens: [TOKEN] });
  const { proposal, requests } = await probeService(client);
  return { sim, client, map: proposal.map, requests, warnings: proposal.warnings };
}

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CATALOG_CLI_BUNDLE, ...args], {
    cwd: dir,
    env: { ...process.env, PARTNER_TOKENS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((res) => child.on('close', (code) => res({ code, stdout, stderr })));
}

/** The lines of a downloaded JSON Lines file: assets as read through the map (major-unit prices). */
async function fileAssets(path: string): Promise<{ id: number; title: string; price: number }[]> {
  const lines = (await readFile(path, 'utf8')).split('\n').filter((l) => l !== '');
  return lines.map((l) => JSON.parse(l) as { id: number; title: string; price: number });
}

describe.each(DIALECTS)('dialect %s, with the map found by detection alone', (dialect) => {
  it('detection spends at most 3 requests; categories and a category-filtered search read right', async () => {
    const { client, map, requests } = await detect(dialect);
    expect(requests).toBeLessThanOrEqual(3);

    const categories = readCategories((await client.request('categories')).body, map);
    expect(categories.missing).toEqual([]);
    const canonical = catalog.categories();
    expect(categories.value.map((c) => [c.name, c.count])).toEqual(canonical.map((c) => [c.name, c.count]));

    // Filter by the third category, as the app would: its id as read, sent where the map says.
    const audio = categories.value[2]!;
    const parts = searchRequest(map, '', String(audio.id), 50);
    const found = readSearch((await client.request('searchAssets', { body: parts.body, ...(parts.query ? { query: parts.query } : {}) })).body, map);
    const want = catalog.search('', canonical[2]!.id, 50).items.map((a) => a.id);
    expect(found.value.items.map((a) => Number(a.id))).toEqual(want);
    expect(new Set(found.value.items.map((a) => String(a.category)))).toEqual(new Set([String(audio.id)]));
  });

  it('the catalog CLI downloads every id exactly once with the detected map file, and warns of nothing', async () => {
    const { sim, map } = await detect(dialect);
    const mapFile = join(dir, `${dialect}.map.json`);
    await writeFile(mapFile, JSON.stringify(map));
    const out = join(dir, `${dialect}.jsonl`);
    const run = await cli(['--base-url', sim.url, '--token', TOKEN, '--vendor', 'demo', '--page-size', '25', '--service-map', mapFile, '--out', out]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/warning/i);
    const assets = await fileAssets(out);
    expect(assets.map((a) => Number(a.id))).toEqual(expectedIds);
    // Titles and prices read right whatever the dialect's names and money (minor units, decimal strings).
    expect(assets.map((a) => [a.title, a.price])).toEqual(expectedIds.map((_, k) => [catalog.assetAt(k).title, catalog.assetAt(k).price]));
    const summary = JSON.parse(run.stdout.trim()) as { items: number; pages: number };
    expect(summary.items).toBe(SIZE);
    // The page size was honoured: 230 items in pages of 25.
    expect(summary.pages).toBe(Math.ceil(SIZE / 25));
  });

  it('the catalog CLI with --detect alone (no map file) downloads every id exactly once, and warns of nothing', async () => {
    const sim = await startSimulator({ catalogSize: SIZE, seed: SEED, dialect });
    sims.push(sim);
    const out = join(dir, `${dialect}.detect.jsonl`);
    const run = await cli(['--base-url', sim.url, '--token', TOKEN, '--vendor', 'demo', '--page-size', '25', '--detect', '--out', out]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/detected a service map with [1-3] requests/);
    expect(run.stderr).not.toMatch(/warning/i);
    const assets = await fileAssets(out);
    expect(assets.map((a) => Number(a.id))).toEqual(expectedIds);
    expect(assets.map((a) => [a.title, a.price])).toEqual(expectedIds.map((_, k) => [catalog.assetAt(k).title, catalog.assetAt(k).price]));
    const summary = JSON.parse(run.stdout.trim()) as { items: number; pages: number; warnings?: string[] };
    expect(summary).toMatchObject({ items: SIZE, pages: Math.ceil(SIZE / 25) });
    expect(summary.warnings ?? []).toEqual([]);
  });

  it('a wrong page-size parameter in the map gets the verification warning naming the setting', async () => {
    const { sim, map } = await detect(dialect);
    const wrong: ServiceMap = { ...map, list: { ...map.list, pageSizeParam: OTHER_PAGE_SIZE_PARAM[dialect] } };
    const mapFile = join(dir, `${dialect}.wrong.map.json`);
    await writeFile(mapFile, JSON.stringify(wrong));
    const run = await cli([
      '--base-url',
      sim.url,
      '--token',
      TOKEN,
      '--vendor',
      'demo',
      '--page-size',
      '25',
      '--service-map',
      mapFile,
      '--out',
      join(dir, `${dialect}.wrong.jsonl`),
    ]);
    expect(run.stderr).toMatch(new RegExp(`warning: The page-size parameter \`${wrong.list.pageSizeParam}\` seems ignored.*list\\.pageSizeParam`));
  });
});
