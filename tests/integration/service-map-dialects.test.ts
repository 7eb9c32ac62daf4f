/**
 * Detection over real HTTP: the simulator in each payload dialect, a client that knows none of
 * them, the probes (<= 3 requests) and then a whole-catalog download, a filtered search, categories
 * and the purchase flow with the detected map only.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BudgetRegistry, PartnerClient } from '../../electron/client';
import { CatalogDownload } from '../../electron/catalog';
import { PurchaseService } from '../../electron/purchases';
import { probeService } from '../../electron/service-map/probe';
import { startSimulator } from '../../electron/simulator';
import type { RunningSimulator, SimDialect } from '../../electron/simulator';
import { readHistoryOrDetect } from '../../shared/service-map/fallback';
import { readCategories, readSearch } from '../../shared/service-map/read';
import { historyRequest, searchRequest } from '../../shared/service-map/requests';
import { verifySearch } from '../../shared/service-map/verify';
import { SIM_DIALECTS } from '../../shared/sim-dialects';

const SIZE = 1500;
const running: { sim: RunningSimulator; client: PartnerClient; dir: string | null }[] = [];

afterEach(async () => {
  for (const r of running.splice(0)) {
    r.client.close();
    await r.sim.stop();
    if (r.dir) await rm(r.dir, { recursive: true, force: true });
  }
});

async function setup(dialect: SimDialect) {
  const sim = await startSimulator({ catalogSize: SIZE, seed: 7, dialect });
  const client = new PartnerClient({ baseUrl: sim.url, vendor: 'demo', tokens: ['demo-token-1'], budgets: new BudgetRegistry() });
  const entry = { sim, client, dir: null as string | null };
  running.push(entry);
  return entry;
}

describe.each(SIM_DIALECTS)('detection against the %s dialect', (dialect) => {
  it('finds the map with at most 3 requests, then downloads, searches and buys with it alone', async () => {
    const env = await setup(dialect);
    const before = env.sim.control.counters().reduce((n, c) => n + c.count, 0);
    const { proposal, requests } = await probeService(env.client);
    const spent = env.sim.control.counters().reduce((n, c) => n + c.count, 0) - before;
    expect(requests).toBeLessThanOrEqual(3);
    expect(spent).toBe(requests);
    const map = proposal.map;
    expect(proposal.confidence, JSON.stringify(proposal.fields)).toBeGreaterThan(0.5);
    expect(map.list.pageSizeParam, proposal.warnings.join('\n')).not.toBeNull();

    // Whole catalog with the detected map only: every asset once, in pages of the size asked.
    env.dir = await mkdtemp(join(tmpdir(), 'pc-map-'));
    const out = join(env.dir, 'catalog.jsonl');
    const download = new CatalogDownload({
      client: env.client,
      baseUrl: env.sim.url,
      vendor: 'demo',
      out,
      map,
      pageSize: 100,
      pageSizeParam: map.list.pageSizeParam ?? undefined,
    });
    const done = await download.start();
    expect(done.state, JSON.stringify(done.error)).toBe('done');
    const rows = (await readFile(out, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows).toHaveLength(SIZE);
    expect(new Set(rows.map((r) => String(r.id))).size).toBe(SIZE);
    expect(done.pages).toBeLessThanOrEqual(Math.ceil(SIZE / 100) + 1);
    for (const r of rows.slice(0, 5)) {
      expect(typeof r.title).toBe('string');
      expect(typeof r.price).toBe('number');
      expect(r.price as number).toBeGreaterThan(0);
      expect(r.price as number).toBeLessThan(1000);
    }

    // Categories and a filtered search read and honoured.
    const categories = readCategories((await env.client.request('categories')).body, map);
    expect(categories.missing).toEqual([]);
    expect(categories.value.length).toBeGreaterThan(1);
    const category = String(rows[0]!.category);
    const word = String(rows[0]!.title).split(/\s+/)[0]!;
    const found = readSearch((await env.client.request('searchAssets', searchRequest(map, word, category, 5))).body, map);
    expect(found.value.items.length).toBeGreaterThan(0);
    expect(found.value.items.every((a) => a.category === category)).toBe(true);
    // The limit is honoured, or, where the sample could not tell its name, verification says so.
    const warnings = verifySearch({ category, field: map.search.categoryField, limit: 5, limitField: map.search.limitField, items: found.value.items });
    expect(warnings.filter((w) => w.includes('category'))).toEqual([]);
    if (found.value.items.length > 5) expect(warnings.join(' ')).toContain('search limit');

    // History: not probed (it is per asset); the first answer is read with the map or, failing that, detected.
    const history = readHistoryOrDetect((await env.client.request('assetHistory', historyRequest(map, rows[0]!.id as string | number))).body, map);
    expect(history.value.length).toBeGreaterThan(0);
    for (const point of history.value) {
      expect(Number.isNaN(Date.parse(point.at))).toBe(false);
      expect(typeof point.price).toBe('number');
    }
    // A detected layout is a note (once, kept for the session), never a warning.
    expect(history.warnings).toEqual([]);
    const again = readHistoryOrDetect((await env.client.request('assetHistory', historyRequest(map, rows[1]!.id as string | number))).body, map);
    expect(again).toMatchObject({ warnings: [], notes: [], missing: [] });

    // The purchase flow: register, validate, a download link, cancel; states understood.
    const purchases = new PurchaseService(env.client, { map });
    const registered = await purchases.register(rows[0]!.id as string | number);
    expect(registered.unresolved).toBeUndefined();
    expect(registered.stateKind).toBe('registered');
    const validated = await purchases.validate(registered.id, { assetId: registered.asset_id });
    expect(validated.stateKind).toBe('validated');
    const link = await purchases.downloadUrl(registered.id);
    expect(link.url).toMatch(/^https:/);
    expect(link.expiresAt).not.toBeNull();
    expect(link.warnings).toEqual([]);
    const link2 = await purchases.viewUrl(registered.id);
    expect(link2).toMatchObject({ warnings: [], missing: [] });
    expect(link2.notes ?? []).toEqual([]);
    expect((await purchases.cancel(registered.id)).stateKind).toBe('cancelled');
  }, 30_000);
});
