/**
 * First contact without a hidden click: for each simulator dialect on loopback, the app's services
 * (what the desktop app and browser mode serve) with a profile that has only a base URL and a token
 * read categories, prices, history and purchases right with no Detect call; the catalog CLI started
 * with only --base-url and --token uses the page size it asked for. A request name the map got wrong
 * is learned from the service's 400 and sent once more, once; --resume reads the rest with the map its
 * checkpoint recorded. Only this test knows the dialects' shapes.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CATALOG_CLI_BUNDLE } from '../helpers/cli-bundles';
import { createAppServices, memoryVault } from '../../electron/app';
import type { AppServices } from '../../electron/app';
import { startSimulator } from '../../electron/simulator';
import type { RunningSimulator, SimDialect } from '../../electron/simulator';
import { AssetCatalog } from '../../electron/simulator/asset-catalog';
import { readCheckpoint } from '../../electron/catalog/checkpoint';
import type { CallName, CallResponse } from '../../shared/bridge/contract';
import type { EndpointId } from '../../shared/endpoints';
import type { ServiceMap } from '../../shared/service-map/schema';
import { parseWebArgs, profilesFromArgs } from '../../electron/web/args';
import { shownProfile } from '../helpers/app-calls';

const SIZE = 230;
const SEED = 5;
const TOKEN = 'demo-token-1';
const DIALECTS: SimDialect[] = ['jsonapi', 'camel-minor', 'snake-envelope', 'default'];
const catalog = new AssetCatalog(SIZE, SEED);

let dir: string | null = null;
let app: AppServices | null = null;
let sim: RunningSimulator | null = null;

afterEach(async () => {
  await app?.dispose();
  app = null;
  await sim?.stop();
  sim = null;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = null;
});

type Call = <N extends CallName>(name: N, request: unknown) => Promise<CallResponse<N>>;

/** Browser mode's services, started as `npm run web -- <args>` would start them. */
async function startApp(args: string[], serviceMap?: ServiceMap): Promise<Call> {
  dir = await mkdtemp(join(tmpdir(), 'first-contact-'));
  const parsed = parseWebArgs(args);
  if (!parsed.ok) throw new Error(parsed.error);
  app = await createAppServices({
    shell: 'web',
    dataDir: dir,
    vault: memoryVault(),
    version: '0.0.0',
    embeddedSimulator: false,
    initialProfiles: profilesFromArgs(parsed.options).map((p) => (serviceMap ? { ...p, serviceMap } : p)),
    detectServiceMaps: parsed.options.detect,
    detectAtFirstContact: !parsed.options.noDetect,
    log: () => undefined,
  });
  const a = app;
  return async (name, request) => {
    const result = await a.dispatch(name, request);
    if (!result.ok) throw new Error(`${name} failed: ${JSON.stringify(result.error)}`);
    return result.value as CallResponse<typeof name>;
  };
}

/** Requests the simulator answered, per endpoint and status. */
function count(endpoint: EndpointId | null, status?: number): number {
  return sim!.control
    .counters()
    .filter((c) => (endpoint === null || c.endpoint === endpoint) && (status === undefined || c.status === status) && !c.competitor)
    .reduce((n, c) => n + c.count, 0);
}

function spawnCli(args: string[], cwd: string) {
  return spawn(process.execPath, [CATALOG_CLI_BUNDLE, ...args], {
    cwd,
    env: { ...process.env, PARTNER_TOKENS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function cli(args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnCli(args, cwd);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((res) => child.on('close', (code) => res({ code, stdout, stderr })));
}

describe.each(DIALECTS)('dialect %s, a profile with only a base URL and a token', (dialect) => {
  it('the app reads categories, prices, history and purchases right with no Detect call; the map shows as detected, not yet reviewed', async () => {
    sim = await startSimulator({ catalogSize: SIZE, seed: SEED, dialect });
    const call = await startApp(['--base-url', sim.url, '--token', `acme:${TOKEN}`]);
    // Detection at first contact: at most 3 requests before the app's own.
    expect(count(null)).toBeLessThanOrEqual(4); // 3 probes + the connection's one cheap request

    const categories = await call('categories', { profileId: await shownProfile(app!) });
    expect(categories.items.map((c) => [c.name, c.count])).toEqual(catalog.categories().map((c) => [c.name, c.count]));

    const page = await call('listAssets', { profileId: await shownProfile(app!), lastId: null, pageSize: 7 });
    expect(page.items).toHaveLength(7);
    expect(page.items.map((a) => [Number(a.id), a.title, a.price])).toEqual(
      [0, 1, 2, 3, 4, 5, 6].map((k) => [catalog.idAt(k), catalog.assetAt(k).title, catalog.assetAt(k).price]),
    );
    expect(page.warnings ?? []).toEqual([]);

    const history = await call('assetHistory', { profileId: await shownProfile(app!), assetId: page.items[0]!.id });
    expect(history.items.map((p) => p.price)).toEqual(catalog.history(catalog.idAt(0))!.map((e) => e.price));

    const registered = await call('registerPurchase', { profileId: await shownProfile(app!), assetId: page.items[1]!.id, assetTitle: page.items[1]!.title });
    expect(registered.id).not.toBe('');
    expect(registered.stateKind).toBe('registered');
    const validated = await call('validatePurchase', { profileId: await shownProfile(app!), purchaseId: registered.id });
    expect(validated.stateKind).toBe('validated');
    const info = await call('purchaseInfo', { profileId: await shownProfile(app!), purchaseId: registered.id });
    expect(info.stateKind).toBe('validated');
    expect(info.id).toBe(registered.id);
    expect(String(info.asset_id)).toBe(String(catalog.idAt(1)));
    const link = await call('downloadUrl', { profileId: await shownProfile(app!), purchaseId: registered.id });
    expect(link.url).toMatch(/^https?:\/\//);
    expect((await call('cancelPurchase', { profileId: await shownProfile(app!), purchaseId: registered.id })).stateKind).toBe('cancelled');

    const { activeId } = await call('listProfiles', {});
    const view = await call('serviceMapGet', { profileId: activeId! });
    expect(view.source).toBe('detected');
    // The user's one-click review: the same map saved as theirs.
    expect((await call('serviceMapSave', { profileId: activeId!, map: view.map })).source).toBe('saved');
  }, 60_000);

  it('the catalog CLI with only --base-url and --token asks pages of 100 and gets them: ~N/100 requests, every item read right', async () => {
    sim = await startSimulator({ catalogSize: SIZE, seed: SEED, dialect });
    dir = await mkdtemp(join(tmpdir(), 'first-contact-cli-'));
    const run = await cli(['--base-url', sim.url, '--token', TOKEN], dir);
    expect(run.code, run.stderr).toBe(0);
    const summary = JSON.parse(run.stdout.trim()) as { items: number; pages: number; warnings: string[] };
    expect(summary).toMatchObject({ items: SIZE, pages: Math.ceil(SIZE / 100), warnings: [] });
    // Detection's 2 probes and 3 pages: no page of 10.
    expect(count('listAssets')).toBe(1 + Math.ceil(SIZE / 100));
    const lines = (await readFile(join(dir, 'catalog-default.jsonl'), 'utf8')).split('\n').filter((l) => l !== '');
    const assets = lines.map((l) => JSON.parse(l) as { id: number; title: string; price: number });
    expect(assets.map((a) => [Number(a.id), a.title, a.price])).toEqual(
      Array.from({ length: SIZE }, (_, k) => [catalog.idAt(k), catalog.assetAt(k).title, catalog.assetAt(k).price]),
    );
  }, 60_000);
});

describe('--resume', () => {
  it('reuses the map its checkpoint recorded: no detection again, every id exactly once', async () => {
    sim = await startSimulator({ catalogSize: SIZE, seed: SEED, dialect: 'jsonapi' });
    sim.control.setFaults({ latencyMs: 40 });
    dir = await mkdtemp(join(tmpdir(), 'first-contact-resume-'));
    const args = ['--base-url', sim.url, '--token', TOKEN, '--page-size', '10'];
    const checkpoint = join(dir, 'catalog-default.jsonl.checkpoint.json');
    const first = spawnCli(args, dir);
    const until = Date.now() + 20_000;
    while (Date.now() < until && ((await readCheckpoint(checkpoint).catch(() => null))?.pages ?? 0) < 4) await new Promise((r) => setTimeout(r, 20));
    first.kill('SIGKILL');
    const recorded = await readCheckpoint(checkpoint);
    expect(recorded?.done).toBe(false);
    expect(recorded?.serviceMap?.list.pageSizeParam).toBe('page[size]');

    const categoriesBefore = count('categories');
    const second = await cli([...args, '--resume'], dir);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain('resuming with the service map the checkpoint recorded');
    expect(second.stderr).not.toMatch(/detected a service map/);
    expect(count('categories')).toBe(categoriesBefore);
    const ids = (await readFile(join(dir, 'catalog-default.jsonl'), 'utf8'))
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => Number((JSON.parse(l) as { id: number }).id));
    expect(ids).toEqual(Array.from({ length: SIZE }, (_, k) => catalog.idAt(k)));
  }, 60_000);
});

describe('request names learned from a 400', () => {
  it('a registration whose asset field the map guessed wrong learns it from the 400 and succeeds on the one retry; history and purchase ids too; the names are kept, marked learned', async () => {
    sim = await startSimulator({ catalogSize: SIZE, seed: SEED, dialect: 'snake-envelope' });
    // Read the dialect's answers right, but with the request names guessed in the wrong case style.
    const detect = await startApp(['--base-url', sim.url, '--token', `acme:${TOKEN}`]);
    const found = (await detect('serviceMapGet', { profileId: (await detect('listProfiles', {})).activeId! })).map;
    await app!.dispose();
    app = null;
    await rm(dir!, { recursive: true, force: true });
    const camel = { in: 'query' as const, name: 'purchaseId' };
    const wrong: ServiceMap = {
      ...found,
      register: { ...found.register, assetIdField: 'assetId' },
      history: { ...found.history, assetIdField: 'assetId' },
      purchaseId: { purchaseInfo: camel, downloadUrl: camel, viewUrl: camel, cancelPurchase: camel },
    };
    sim.control.resetAll();
    const call = await startApp(['--base-url', sim.url, '--token', `acme:${TOKEN}`], wrong);
    const assetId = catalog.idAt(3);

    const registered = await call('registerPurchase', { profileId: await shownProfile(app!), assetId, assetTitle: null });
    expect(registered.id).not.toBe('');
    expect(String(registered.asset_id)).toBe(String(assetId));
    expect(registered.notes?.join(' ')).toMatch(/registration's asset field.*learned/);
    // One 400 (it created nothing), one retry that registered: never more.
    expect(count('registerPurchase', 400)).toBe(1);
    expect(count('registerPurchase')).toBe(2);
    // Learned: the next registration is right the first time.
    await call('registerPurchase', { profileId: await shownProfile(app!), assetId: catalog.idAt(4), assetTitle: null });
    expect(count('registerPurchase', 400)).toBe(1);
    expect(count('registerPurchase')).toBe(3);

    const history = await call('assetHistory', { profileId: await shownProfile(app!), assetId });
    expect(history.items.map((p) => p.price)).toEqual(catalog.history(assetId)!.map((e) => e.price));
    expect(count('assetHistory', 400)).toBe(1);

    expect((await call('purchaseInfo', { profileId: await shownProfile(app!), purchaseId: registered.id })).stateKind).toBe('registered');
    expect((await call('viewUrl', { profileId: await shownProfile(app!), purchaseId: registered.id })).url).toMatch(/^https?:\/\//);
    expect(count('purchaseInfo', 400) + count('viewUrl', 400)).toBe(1);

    const { activeId } = await call('listProfiles', {});
    const view = await call('serviceMapGet', { profileId: activeId! });
    expect(view.map.register.assetIdField).toBe('asset_id');
    expect(view.map.history.assetIdField).toBe('asset_id');
    expect(view.map.purchaseId.viewUrl).toEqual({ in: 'query', name: 'purchase_id' });
    expect([...(view.map.learned ?? [])].sort()).toEqual(['history.assetIdField', 'purchaseId', 'register.assetIdField']);
  }, 60_000);

  it('a 400 that names nothing new is not retried', async () => {
    sim = await startSimulator({ catalogSize: SIZE, seed: SEED, dialect: 'snake-envelope' });
    // --no-detect: the built-in shapes, whose asset field snake-envelope shares. A bad value is a 400 naming the field sent.
    const call = await startApp(['--base-url', sim.url, '--token', `acme:${TOKEN}`, '--no-detect']);
    expect(count(null)).toBeLessThanOrEqual(1);
    await expect(call('registerPurchase', { profileId: await shownProfile(app!), assetId: 'not-a-number', assetTitle: null })).rejects.toThrow(
      /400|BAD_REQUEST/,
    );
    expect(count('registerPurchase')).toBe(1);
  }, 30_000);
});
