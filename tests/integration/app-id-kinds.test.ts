/**
 * An asset id goes out as its service wrote it (number or string) whichever view sends it: the
 * Catalog (its row), the Purchases view (the ledger's text), the route (its text), and after a restart.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createAppServices, memoryVault } from '../../electron/app';
import type { AppServices } from '../../electron/app';
import { confirmationName } from '../../shared/bridge/ledger-schemas';
import { callApp, shownProfile } from '../helpers/app-calls';
import { SNOWFLAKE_IDS, startSnowflakeService } from '../helpers/snowflake-service';

let dir: string;
const vault = memoryVault();
const make = (): Promise<AppServices> =>
  createAppServices({
    shell: 'desktop',
    dataDir: dir,
    vault,
    version: '0.0.0',
    openExternal: async () => undefined,
    log: () => undefined,
    embeddedSimulator: false,
  });

/** A service whose catalog page is `listBody` and which registers anything, keeping the bodies it was sent. */
async function registerService(listBody: string): Promise<{ server: Server; bodies: string[] }> {
  const bodies: string[] = [];
  let n = 0;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const send = (s: number, t: string): void => {
      res.writeHead(s, { 'content-type': 'application/json' });
      res.end(t);
    };
    if (url.pathname === '/assets/list') return send(200, listBody);
    if (url.pathname === '/purchase/register') {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString()));
      req.on('end', () => {
        bodies.push(text);
        const body = JSON.parse(text) as { asset_id: unknown; client_reference: string };
        send(200, JSON.stringify({ id: `P-${++n}`, asset_id: body.asset_id, state: 'registered', client_reference: body.client_reference }));
      });
      return;
    }
    send(404, '{"message":"no"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { server, bodies };
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'app-id-kinds-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('a 64-bit id registered from the Catalog goes out as the same number from the Purchases view after a restart', async () => {
  const service = await startSnowflakeService(SNOWFLAKE_IDS.map((id) => ({ id })));
  let app = await make();
  try {
    const profile = await callApp(app, 'saveProfile', { name: 'Snowflakes', vendor: 'flake', baseUrl: service.url, addTokens: ['flake-token-1'] });
    await callApp(app, 'selectProfile', { id: profile.id });
    const row = (await callApp(app, 'listAssets', { profileId: await shownProfile(app), lastId: null, pageSize: 3 })).items[0]!;
    await callApp(app, 'registerPurchase', { profileId: await shownProfile(app), assetId: row.id, assetTitle: null });
    const fromCatalog = service.registerBodies.at(-1)!;
    expect(fromCatalog).toMatch(/"asset_id":\d{16,}[,}]/);
    await app.dispose();
    app = await make();
    await callApp(app, 'selectProfile', { id: profile.id });
    const [record] = (await callApp(app, 'ledgerList', { assetId: String(row.id) })).items;
    // The Purchases view sends the record's text, confirming the record it showed.
    await callApp(app, 'registerPurchase', {
      profileId: await shownProfile(app),
      assetId: record!.assetId,
      assetTitle: null,
      confirmDuplicate: { seen: [confirmationName(record!)] },
    });
    expect(service.registerBodies.at(-1)!.match(/"asset_id":[^,}]*/)![0]).toBe(fromCatalog.match(/"asset_id":[^,}]*/)![0]);
  } finally {
    await app.dispose();
    await service.close();
  }
});

it('a string id "00042" reopened by its route stays "00042": its Register is held by the guard', async () => {
  const { server, bodies } = await registerService('{"items":[{"id":"00042","title":"Sku 42"}],"has_more":false}');
  const app = await make();
  try {
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const p = await callApp(app, 'saveProfile', { name: 'Z', vendor: 'z', baseUrl, addTokens: ['z-token-123456'] });
    await callApp(app, 'selectProfile', { id: p.id });
    const profileId = await shownProfile(app);
    const [row] = (await callApp(app, 'listAssets', { profileId, lastId: null, pageSize: 10 })).items;
    await callApp(app, 'registerPurchase', { profileId, assetId: row!.id, assetTitle: 'Sku 42' });
    const [record] = (await callApp(app, 'ledgerList', { limit: 10 })).items;
    // Purchases view -> "Open the asset in the Catalog" (#catalog/00042) -> the route's text, as spelt
    // (tests/unit/renderer/asset-source.test.ts) -> Register.
    expect(record!.assetId).toBe('00042');
    const again = await app.dispatch('registerPurchase', { profileId, assetId: record!.assetId, assetTitle: null });
    expect(again).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_REQUIRED' } });
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toContain('"asset_id":"00042"');
  } finally {
    await app.dispose();
    server.close();
  }
});

it('a guessed id kind is not kept: after a restart, with the catalog showing numbers, asset 77 goes out as a number like 78', async () => {
  const { server, bodies } = await registerService('{"items":[{"id":78,"title":"Sku 78"}],"has_more":false}');
  let app = await make();
  try {
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const p = await callApp(app, 'saveProfile', { name: 'N', vendor: 'n', baseUrl, addTokens: ['n-token-123456'] });
    await callApp(app, 'selectProfile', { id: p.id });
    // Opened by its route before any catalog page: its kind is a guess.
    await callApp(app, 'registerPurchase', { profileId: await shownProfile(app), assetId: '77', assetTitle: null });
    expect(bodies[0]).toContain('"asset_id":"77"');
    await app.dispose();
    app = await make();
    await callApp(app, 'selectProfile', { id: p.id });
    const profileId = await shownProfile(app);
    await callApp(app, 'listAssets', { profileId, lastId: null, pageSize: 10 });
    const [record] = (await callApp(app, 'ledgerList', { assetId: '77' })).items;
    await callApp(app, 'registerPurchase', { profileId, assetId: '77', assetTitle: null, confirmDuplicate: { seen: [confirmationName(record!)] } });
    await callApp(app, 'registerPurchase', { profileId, assetId: '78', assetTitle: null });
    expect(bodies.slice(1).map((b) => /"asset_id":[^,}]*/.exec(b)![0])).toEqual(['"asset_id":77', '"asset_id":78']);
  } finally {
    await app.dispose();
    server.close();
  }
});
