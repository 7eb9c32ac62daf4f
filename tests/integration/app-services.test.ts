import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events as eventSchemas } from '../../shared/bridge/contract';
import type { CallName, CallResponse, EventName } from '../../shared/bridge/contract';
import { createAppServices, memoryVault } from '../../electron/app';
import type { AppServices } from '../../electron/app';
import { callApp, sleep, until } from '../helpers/app-calls';

type Got = { at: number; name: EventName; payload: unknown };

let dir: string;
let app: AppServices;
const got: Got[] = [];
const opened: string[] = [];

const call = <N extends CallName>(name: N, request: unknown): Promise<CallResponse<N>> => callApp(app, name, request);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'app-it-'));
  app = await createAppServices({
    shell: 'desktop',
    dataDir: dir,
    vault: memoryVault(),
    version: '9.9.9',
    openExternal: async (url) => void opened.push(url),
    log: () => undefined,
  });
  app.onEvent((name, payload) => got.push({ at: Date.now(), name, payload }));
});

afterAll(async () => {
  await app?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('app services on the embedded simulator', () => {
  it('opens the built-in demo when no profile is configured', async () => {
    const profiles = await call('listProfiles', {});
    expect(profiles.activeId).toBe('demo');
    expect(profiles.items[0]).toMatchObject({ id: 'demo', vendor: 'demo', demo: true });
    expect(profiles.items[0]!.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // The built-in demo's public tokens are shown as such (publicText), and nowhere else: never in the masked text.
    expect(profiles.items[0]!.tokens.map((t) => t.publicText)).toEqual(['demo-token-1', 'demo-token-2']);
    expect(JSON.stringify(profiles.items.map((p) => ({ ...p, tokens: p.tokens.map(({ publicText: _shown, ...t }) => t) })))).not.toContain('demo-token-1');
    expect(await call('appInfo', {})).toEqual({ shell: 'desktop', version: '9.9.9', tokenStorage: 'memory', settingsProblem: null });
    await until(async () => (await call('connection', {})).state === 'connected');
  });

  it('reads pages, searches and lists categories', async () => {
    const first = await call('listAssets', { profileId: 'demo', lastId: null, pageSize: 5 });
    expect(first.items).toHaveLength(5);
    expect(first.done).toBe(false);
    expect(first.total).toBe(5000);
    const second = await call('listAssets', { profileId: 'demo', lastId: first.cursor, pageSize: 5 });
    expect(Number(second.items[0]!.id)).toBeGreaterThan(Number(first.items[4]!.id));
    const found = await call('searchAssets', { profileId: 'demo', query: 'castle', category: null, limit: 3 });
    expect(found.items.length).toBeGreaterThan(0);
    for (const item of found.items) expect(String(item.title).toLowerCase()).toContain('castle');
    const categories = await call('categories', { profileId: 'demo' });
    expect(categories.items.length).toBeGreaterThan(3);
    const history = await call('assetHistory', { profileId: 'demo', assetId: first.items[0]!.id });
    expect(history.items.length).toBeGreaterThan(0);
    const bad = await app.dispatch('listAssets', { profileId: 'demo', lastId: '', pageSize: 5 });
    expect(bad).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST', message: expect.stringContaining('lastId') } });
  });

  it('runs the purchase flow to a download URL, opens only that URL, and cancels', async () => {
    const page = await call('listAssets', { profileId: 'demo', lastId: null, pageSize: 1 });
    const asset = page.items[0]!;
    const registered = await call('registerPurchase', { profileId: 'demo', assetId: asset.id, assetTitle: asset.title ?? null });
    expect(registered.state).toBe('registered');
    expect((await call('validatePurchase', { profileId: 'demo', purchaseId: registered.id })).state).toBe('validated');
    const url = await call('downloadUrl', { profileId: 'demo', purchaseId: registered.id });
    expect(url.url).toMatch(/^https:\/\//);
    await call('openExternal', { url: url.url });
    expect(opened).toEqual([url.url]);
    expect(await app.dispatch('openExternal', { url: 'https://elsewhere.example/x' })).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    expect((await call('cancelPurchase', { profileId: 'demo', purchaseId: registered.id })).state).toBe('cancelled');
    const again = await app.dispatch('validatePurchase', { profileId: 'demo', purchaseId: registered.id });
    expect(again).toMatchObject({ ok: false, error: { code: 'CONFLICT', status: 409 } });
    const ledger = await call('ledgerList', { limit: 10 });
    expect(ledger.items[0]).toMatchObject({ purchaseId: registered.id, state: 'registered', purchaseState: 'cancelled', assetTitle: asset.title ?? null });
    // The request log has the register call, token masked in its detail.
    const log = await call('requestLog', { endpoint: 'registerPurchase', status: 200, limit: 10 });
    expect(log.entries).toHaveLength(1);
    const detail = await call('requestDetail', { id: log.entries[0]!.id });
    expect(detail.requestHeaders.authorization).toMatch(/^Bearer demo…-\d$/);
    expect(detail.requestBody).toContain(String(asset.id));
    expect(JSON.stringify(detail)).not.toMatch(/demo-token-\d/);
  });

  it('shows demo traffic paced with no false foreign use, then detects a competitor', async () => {
    await call('simSetDemoTraffic', { share: 1, endpoints: ['categories'] });
    const t0 = Date.now();
    const own = async () => (await call('budgetHistory', { sinceMs: t0 })).aggregates.filter((a) => a.endpoint === 'categories');
    const sent = async () => (await own()).reduce((n, a) => n + a.requests, 0);
    // At least 1.5 s of traffic alone, and as long as a loaded machine needs for the client to send 16 requests.
    await sleep(1500);
    await until(async () => (await sent()) > 15).catch(() => undefined);
    expect(await sent()).toBeGreaterThan(15);
    expect((await own()).reduce((n, a) => n + a.foreignUse, 0)).toBe(0);

    await call('simSetDemoTraffic', { share: 0.5, endpoints: ['categories'] });
    await call('simSetCompetitors', { competitors: [{ vendor: 'demo', endpoint: 'categories', rps: 8 }] });
    const t1 = Date.now();
    // Found in a few seconds; the rest is headroom for a loaded machine (the test's own timeout is 30 s).
    await until(async () => (await call('budgetHistory', { sinceMs: t1 })).aggregates.some((a) => a.foreignUse > 0), 15_000);
    const state = await call('simSetDemoTraffic', { share: 0, endpoints: [] });
    expect(state.demoTraffic).toEqual({ share: 0, endpoints: [] });
    expect((await call('simSetCompetitors', { competitors: [] })).competitors).toEqual([]);
    const bad = await app.dispatch('simSetFaults', { errorRate: 3 });
    expect(bad).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST', message: expect.stringContaining('errorRate') } });
  });

  it('delivers events batched, summing to the request log', async () => {
    // Both streams are batched (at most one event per 50 ms each): the last batches are out once they sum to
    // what the log holds; waited for, as a loaded machine fires the batch timers late. The same sums are asserted below.
    const sums = () => ({
      requests: got
        .filter((g) => g.name === 'budget')
        .flatMap((g) => (g.payload as { aggregates: { requests: number }[] }).aggregates)
        .reduce((n, a) => n + a.requests, 0),
      entries: got.filter((g) => g.name === 'requestLog').flatMap((g) => (g.payload as { entries: unknown[] }).entries).length,
    });
    await until(async () => {
      const { requests, entries } = sums();
      return requests === entries && entries === (await call('requestLog', { endpoint: null, status: null, limit: 5000 })).entries.length;
    }).catch(() => undefined);
    const budget = got.filter((g) => g.name === 'budget');
    const logs = got.filter((g) => g.name === 'requestLog');
    expect(budget.length).toBeGreaterThan(5);
    for (const stream of [budget, logs]) {
      for (const g of stream) expect(stream.filter((h) => h.at >= g.at && h.at < g.at + 1000).length).toBeLessThanOrEqual(21);
    }
    for (const g of got) expect(eventSchemas[g.name].safeParse(g.payload).success, g.name).toBe(true);
    const { requests, entries } = sums();
    expect(requests).toBe(entries);
    const all = await call('requestLog', { endpoint: null, status: null, limit: 5000 });
    expect(all.entries.length).toBe(entries);
  });

  it('downloads the catalog with progress events, pauses and cancels deleting the file', async () => {
    const started = await call('downloadStart', { profileId: 'demo', format: 'jsonl', resume: false });
    expect(started.state).toBe('running');
    expect(started.outPath).toBe(join(dir, 'downloads', 'catalog-demo.jsonl'));
    await until(() => got.some((g) => g.name === 'downloadProgress' && (g.payload as { items: number }).items > 0));
    expect((await app.dispatch('downloadStart', { profileId: 'demo', format: 'csv', resume: false })).ok).toBe(false);
    await call('downloadPause', { profileId: 'demo' });
    await until(async () => (await call('downloadStatus', {})).state === 'paused');
    const paused = await call('downloadStatus', {});
    expect(paused.items).toBeGreaterThan(0);
    expect(readFileSync(paused.outPath!, 'utf8').trim().split('\n')).toHaveLength(paused.items);
    const cancelled = await call('downloadCancel', { profileId: 'demo', deleteFiles: true });
    expect(cancelled.state).toBe('cancelled');
    expect(existsSync(paused.outPath!)).toBe(false);
  });

  it('keeps the sim controls to the demo profile, and dispose leaves nothing running', async () => {
    const sim = await call('simState', {});
    expect(sim).not.toBeNull();
    const saved = await call('saveProfile', { name: 'Nowhere', vendor: 'acme', baseUrl: sim!.url, addTokens: ['acme-token-1'] });
    const conn = await call('selectProfile', { id: saved.id });
    expect(conn).toMatchObject({ profileId: saved.id, vendor: 'acme', demo: false });
    // The sim controls follow the active profile; the demo stays connected in the background.
    expect(await call('simState', {})).toBeNull();
    expect(await app.dispatch('simReset', {})).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND', message: 'Not connected to the built-in demo service.' },
    });
    await until(async () => (await call('connection', {})).state === 'connected');
    // Disconnecting the last demo profile stopped the simulator: the saved profile now points at a closed port.
    expect((await call('disconnectProfile', { id: 'demo' })).items.map((p) => p.profileId)).toEqual([saved.id]);
    await expect(fetch(`${sim!.url}/assets/categories`)).rejects.toThrow();
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).not.toContain('acme-token-1');

    await call('selectProfile', { id: 'demo' });
    const url = (await call('simState', {}))!.url;
    await call('simSetDemoTraffic', { share: 0.5, endpoints: ['listAssets', 'purchaseInfo'] });
    // Choosing the connected profile again changes nothing: the demo traffic keeps running.
    await call('selectProfile', { id: 'demo' });
    expect((await call('simState', {}))!.demoTraffic.share).toBe(0.5);
    await sleep(200);
    await app.dispose();
    await app.dispose(); // idempotent
    const count = got.length;
    await expect(fetch(`${url}/assets/categories`)).rejects.toThrow();
    expect(await app.dispatch('categories', { profileId: 'demo' })).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    await sleep(150);
    expect(got.length).toBe(count);
  });
});
