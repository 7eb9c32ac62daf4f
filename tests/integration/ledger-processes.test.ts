/**
 * The purchase ledger across real processes, against the simulator on loopback:
 * - kill -9 of the app process between the write-ahead and the answer, then a restart: the
 *   registration is listed as unresolved, Register asks first, a lookup resolves it;
 * - two app processes on one data folder registering the same assets at once: every asset is
 *   bought exactly once, the database stays sound, no record is doubled.
 * Between the app and the simulator sits a small loopback proxy that counts registrations and, when
 * told, holds their answers forever (the simulator has acted; the app never hears of it).
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import Sqlite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppServices, memoryVault } from '../../electron/app';
import type { AppServices } from '../../electron/app';
import { shownProfile } from '../helpers/app-calls';
import { LEDGER_CHILD_BUNDLE } from '../helpers/cli-bundles';
import { STORE_FILE_NAME } from '../../electron/store';
import { startSimulator } from '../../electron/simulator';
import type { RunningSimulator } from '../../electron/simulator';
import type { CallName, CallResponse } from '../../shared/bridge/contract';
import type { LedgerRecord } from '../../shared/bridge/ledger-schemas';

const ROOT = join(import.meta.dirname, '..', '..');

/** Headers of one connection, not passed on. */
const HOP_HEADERS = new Set(['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

interface Proxy {
  url: string;
  /** Registrations the simulator answered (held or passed on). */
  registered: { status: number; body: { id?: string; client_reference?: string } }[];
  hold: boolean;
  close(): Promise<void>;
}

async function startProxy(target: string): Promise<Proxy> {
  const held = new Set<ServerResponse>();
  const proxy: Proxy = { url: '', registered: [], hold: false, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && !HOP_HEADERS.has(k)) headers[k] = v;
        const answer = await fetch(target + req.url, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
        const text = await answer.text();
        if (req.method === 'POST' && req.url?.startsWith('/purchase/register')) {
          proxy.registered.push({ status: answer.status, body: JSON.parse(text) });
          if (proxy.hold) {
            held.add(res); // never answered: the app waits until it is killed
            return;
          }
        }
        const out: Record<string, string> = {};
        answer.headers.forEach((v, k) => {
          if (!HOP_HEADERS.has(k)) out[k] = v;
        });
        res.writeHead(answer.status, out).end(text);
      })().catch((e: unknown) => {
        console.error('ledger test proxy:', e);
        res.writeHead(502).end(String(e));
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  proxy.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  proxy.close = () =>
    new Promise<void>((r) => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      server.close(() => r());
    });
  return proxy;
}

interface Child {
  process: ChildProcess;
  lines: Record<string, unknown>[];
  exited: Promise<number | null>;
}

function startChild(dataDir: string, baseUrl: string, assets: (string | number)[]): Child {
  const child = spawn(process.execPath, [LEDGER_CHILD_BUNDLE, dataDir, baseUrl, ...assets.map(String)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Record<string, unknown>[] = [];
  createInterface({ input: child.stdout! }).on('line', (l) => lines.push(JSON.parse(l) as Record<string, unknown>));
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((r) =>
    child.on('exit', (code) => {
      if (code !== 0 && code !== null) console.error(stderr);
      r(code);
    }),
  );
  return { process: child, lines, exited };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(20);
  }
}

const cleanup: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function setup(): Promise<{ sim: RunningSimulator; proxy: Proxy; dataDir: string; assets: number[] }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ledger-proc-'));
  cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const sim = await startSimulator({ port: 0, catalogSize: 50 });
  cleanup.push(() => sim.stop());
  const proxy = await startProxy(sim.url);
  cleanup.push(() => proxy.close());
  const page = (await (await fetch(`${sim.url}/assets/list?per-page=10`, { headers: { authorization: 'Bearer demo-token-1' } })).json()) as {
    items: { id: number }[];
  };
  return { sim, proxy, dataDir, assets: page.items.map((a) => a.id) };
}

async function openApp(
  dataDir: string,
  baseUrl: string,
): Promise<{ app: AppServices; call: <N extends CallName>(name: N, request: unknown) => Promise<CallResponse<N>> }> {
  const app = await createAppServices({
    shell: 'web',
    dataDir,
    vault: memoryVault(),
    version: '0.0.0-test',
    embeddedSimulator: false,
    initialProfiles: [{ name: 'Simulator', vendor: 'demo', baseUrl, addTokens: ['demo-token-1'] }],
    log: () => undefined,
  });
  cleanup.push(() => app.dispose());
  const call = async <N extends CallName>(name: N, request: unknown): Promise<CallResponse<N>> => {
    const result = await app.dispatch(name, request);
    if (!result.ok) throw Object.assign(new Error(`${name}: ${result.error.code} ${result.error.message}`), { data: result.error });
    return result.value as CallResponse<N>;
  };
  return { app, call };
}

describe('the ledger across processes', () => {
  it('kill -9 between the write-ahead and the answer: after a restart the registration is unresolved and Register asks first', async () => {
    const { proxy, dataDir, assets } = await setup();
    const asset = assets[3]!;
    proxy.hold = true;
    const child = startChild(dataDir, proxy.url, [asset]);
    cleanup.push(() => void child.process.kill('SIGKILL'));
    // The simulator has registered it; the app's answer is held. Now the process dies.
    await until(() => proxy.registered.length === 1);
    const bought = proxy.registered[0]!.body;
    expect(proxy.registered[0]!.status).toBe(200);
    child.process.kill('SIGKILL');
    expect(await child.exited).toBeNull();
    expect(child.lines).toEqual([{ ready: true }]); // no answer ever reached it

    // What the dead process left on disk: the write-ahead, still "sending".
    const raw = new Sqlite(join(dataDir, STORE_FILE_NAME), { readonly: true });
    expect(raw.prepare('SELECT state, reference FROM purchase_ledger').all()).toEqual([{ state: 'sending', reference: bought.client_reference }]);
    raw.close();

    proxy.hold = false;
    const { app, call } = await openApp(dataDir, proxy.url);
    const listed = await call('ledgerList', { limit: 50 });
    expect(listed.unresolved).toBe(1);
    expect(listed.items).toEqual([
      expect.objectContaining({ assetId: String(asset), assetTitle: `Asset ${asset}`, state: 'unknown', reference: bought.client_reference, purchaseId: null }),
    ]);

    // Register asks first, naming the unresolved registration; nothing is sent.
    const refused = await app.dispatch('registerPurchase', { profileId: await shownProfile(app), assetId: asset, assetTitle: `Asset ${asset}` });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'CONFIRMATION_REQUIRED', body: { records: [{ reference: bought.client_reference, state: 'unknown' }] } },
    });
    expect(proxy.registered).toHaveLength(1);

    // A lookup by the reference finds the purchase the simulator made.
    const resolved = await call('ledgerResolve', { profileId: await shownProfile(app), id: listed.items[0]!.id, action: 'lookup' });
    expect(resolved.record).toMatchObject({ state: 'registered', purchaseId: bought.id, purchaseState: 'registered' });
    expect(resolved.message).toBe(`Found purchase ${bought.id} (registered).`);
    expect((await call('ledgerList', { limit: 50 })).unresolved).toBe(0);

    // Still bought: asking again names the purchase; confirming it registers a second one, once.
    const again = await app.dispatch('registerPurchase', { profileId: await shownProfile(app), assetId: asset, assetTitle: null });
    expect(again).toMatchObject({
      ok: false,
      error: { code: 'CONFIRMATION_REQUIRED', message: `This asset is already bought: purchase ${bought.id}. Registering again buys it a second time.` },
    });
    const second = await call('registerPurchase', {
      profileId: await shownProfile(app),
      assetId: asset,
      assetTitle: null,
      confirmDuplicate: { seen: [`${bought.client_reference} (registered)`] },
    });
    expect(second.id).not.toBe(bought.id);
    expect(proxy.registered).toHaveLength(2);
  });

  it('two app processes on one data folder: each asset bought once, no record doubled, the database sound', async () => {
    const { proxy, dataDir, assets } = await setup();
    // One instance creates the database first (the migration race is the migrations test's).
    const [a, b] = [startChild(dataDir, proxy.url, assets), startChild(dataDir, proxy.url, [...assets].reverse())];
    cleanup.push(
      () => void a.process.kill('SIGKILL'),
      () => void b.process.kill('SIGKILL'),
    );
    expect(await a.exited).toBe(0);
    expect(await b.exited).toBe(0);
    const results = [...a.lines, ...b.lines].filter((l) => 'assetId' in l);
    expect(results).toHaveLength(assets.length * 2);
    // Per asset: one instance registered it, the other was asked to confirm.
    for (const id of assets) {
      const codes = results.filter((r) => r.assetId === String(id)).map((r) => r.code ?? 'ok');
      expect(codes.sort()).toEqual(['CONFIRMATION_REQUIRED', 'ok']);
    }
    expect(proxy.registered).toHaveLength(assets.length);
    const db = new Sqlite(join(dataDir, STORE_FILE_NAME), { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const rows = db.prepare('SELECT asset_id AS assetId, state FROM purchase_ledger ORDER BY id').all() as Pick<LedgerRecord, 'assetId' | 'state'>[];
    db.close();
    expect(rows).toHaveLength(assets.length);
    expect(new Set(rows.map((r) => r.assetId))).toEqual(new Set(assets.map(String)));
    expect(rows.every((r) => r.state === 'registered')).toBe(true);
  });
});
