/**
 * The app's services (what both shells serve) against a simulator dialect over loopback, through
 * the bridge's dispatch: a profile from flags with --detect, the map calls, tolerant catalog answers
 * with verification warnings, tokens masked in what is shown, and a 2xx registration that cannot be read.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppServices, memoryVault } from '../../electron/app';
import type { AppServices } from '../../electron/app';
import { shownProfile } from '../helpers/app-calls';
import { startSimulator } from '../../electron/simulator';
import type { RunningSimulator } from '../../electron/simulator';
import type { CallName, CallResponse } from '../../shared/bridge/contract';
import { DEFAULT_SERVICE_MAP } from '../../shared/service-map/schema';
import { parseWebArgs, profilesFromArgs } from '../../electron/web/args';

let dir: string;
let app: AppServices | null = null;
let sim: RunningSimulator | null = null;
const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  await app?.dispose();
  app = null;
  await sim?.stop();
  sim = null;
  for (const close of closers.splice(0)) await close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function start(baseUrl: string, token: string, extra: string[] = []) {
  dir = await mkdtemp(join(tmpdir(), 'map-app-'));
  const parsed = parseWebArgs(['--base-url', baseUrl, '--token', `acme:${token}`, ...extra]);
  if (!parsed.ok) throw new Error(parsed.error);
  app = await createAppServices({
    shell: 'web',
    dataDir: dir,
    vault: memoryVault(),
    version: '0.0.0',
    embeddedSimulator: false,
    initialProfiles: profilesFromArgs(parsed.options),
    detectServiceMaps: parsed.options.detect,
    log: () => undefined,
  });
  const a = app;
  return async function call<N extends CallName>(name: N, request: unknown): Promise<CallResponse<N>> {
    const result = await a.dispatch(name, request);
    if (!result.ok) throw new Error(`${name} failed: ${JSON.stringify(result.error)}`);
    return result.value as CallResponse<N>;
  };
}

describe('service maps in the app', () => {
  it('--detect at start: the camel-minor dialect is browsed, searched and filtered with the detected map', async () => {
    sim = await startSimulator({ catalogSize: 800, seed: 5, dialect: 'camel-minor' });
    const call = await start(sim.url, 'demo-token-1', ['--detect']);
    const { activeId } = await call('listProfiles', {});
    const view = await call('serviceMapGet', { profileId: activeId! });
    // Detected, not yet reviewed: the user's own save marks it reviewed.
    expect(view.source).toBe('detected');
    expect(view.map.list.pageSizeParam).toBe('limit');
    const page = await call('listAssets', { profileId: await shownProfile(app!), lastId: null, pageSize: 7 });
    expect(page.items).toHaveLength(7);
    expect(page.warnings).toEqual([]);
    expect(page.missing).toEqual([]);
    expect(typeof page.items[0]!.price).toBe('number');
    expect(page.items[0]!.currency).toBe('USD');
    const next = await call('listAssets', { profileId: await shownProfile(app!), lastId: page.cursor, pageSize: 7 });
    expect(next.items[0]!.id).not.toBe(page.items[0]!.id);
    const categories = await call('categories', { profileId: await shownProfile(app!) });
    expect(categories.items.length).toBeGreaterThan(1);
    expect(categories.items.every((c) => typeof c.count === 'number')).toBe(true);
  }, 30_000);

  it('verification: with the default map, a page-size parameter the service ignores is a warning, and so is an ignored category filter', async () => {
    sim = await startSimulator({ catalogSize: 300, seed: 5, dialect: 'camel-minor' });
    const call = await start(sim.url, 'demo-token-1');
    const { activeId } = await call('listProfiles', {});
    // Read its items by hand, but keep the default request names (per-page, category): the service ignores both.
    const map = {
      ...DEFAULT_SERVICE_MAP,
      asset: {
        ...DEFAULT_SERVICE_MAP.asset,
        title: 'name',
        category: 'categoryId',
        price: 'priceCents',
        priceUnit: 'minor' as const,
        currency: 'currencyCode',
      },
    };
    await call('serviceMapSave', { profileId: activeId!, map });
    const page = await call('listAssets', { profileId: await shownProfile(app!), lastId: null, pageSize: 7 });
    expect(page.warnings?.join(' ')).toContain('The page-size parameter `per-page` seems ignored');
    const categories = await call('categories', { profileId: await shownProfile(app!) });
    const found = await call('searchAssets', { profileId: await shownProfile(app!), query: 'a', category: String(categories.items[0]!.id), limit: 5 });
    expect(found.warnings?.join(' ')).toContain('The category filter `category` seems ignored');
  }, 30_000);

  it('a 2xx registration whose answer cannot be read is a purchase that may exist, never an error; echoed tokens are masked', async () => {
    const token = 'sEcReT-token-123456';
    const server = createServer((req, res) => {
      const headers = { 'Content-Type': 'application/json', 'X-Rate-Limit-Limit': '10', 'X-Rate-Limit-Remaining': '9', 'X-Rate-Limit-Reset': '0' };
      res.writeHead(req.url?.startsWith('/purchase/register') ? 201 : 200, headers);
      if (req.url?.startsWith('/purchase/register')) res.end(JSON.stringify({ ok: true, created_by_token: token }));
      else if (req.url?.startsWith('/assets/list')) res.end(JSON.stringify([{ id: 1, title: 'One', created_by_token: token }]));
      else res.end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise((r) => server.close(() => r())));
    const call = await start(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, token);
    const page = await call('listAssets', { profileId: await shownProfile(app!), lastId: null, pageSize: 5 });
    expect(JSON.stringify(page)).not.toContain(token);
    expect(page.items[0]!.created_by_token).toMatch(/…/);
    const purchase = await call('registerPurchase', { profileId: await shownProfile(app!), assetId: 1, assetTitle: 'One' });
    expect(purchase.unresolved).toBe(true);
    expect(purchase.id).toBe('');
    expect(purchase.stateKind).toBe('registered');
    expect(purchase.client_reference).toMatch(/^pc-/);
    expect(purchase.warnings?.join(' ')).toContain('a purchase may exist');
    expect(JSON.stringify(purchase.raw)).not.toContain(token);
  }, 30_000);
});
