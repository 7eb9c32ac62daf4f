/**
 * Issue 21 item 6 through the app's own dispatch: a service on loopback whose asset ids are
 * snowflakes written as JSON numbers (and one written as a string). The Catalog's pages show
 * distinct ids, paging sends the exact last_id, and a registration's body carries the id as the
 * service wrote it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallName, CallResponse } from '../../shared/bridge/contract';
import { createAppServices, memoryVault } from '../../electron/app';
import type { AppServices } from '../../electron/app';
import { callApp, shownProfile } from '../helpers/app-calls';
import { SNOWFLAKE_IDS, startSnowflakeService } from '../helpers/snowflake-service';
import type { SnowflakeService } from '../helpers/snowflake-service';

const STRING_ID = '98765432109876543210';

let dir: string;
let app: AppServices;
let service: SnowflakeService;
const call = <N extends CallName>(name: N, request: unknown): Promise<CallResponse<N>> => callApp(app, name, request);

beforeAll(async () => {
  service = await startSnowflakeService([...SNOWFLAKE_IDS.map((id) => ({ id })), { id: STRING_ID }]);
  dir = mkdtempSync(join(tmpdir(), 'app-exact-ids-'));
  app = await createAppServices({
    shell: 'desktop',
    dataDir: dir,
    vault: memoryVault(),
    version: '0.0.0',
    openExternal: async () => undefined,
    log: () => undefined,
    embeddedSimulator: false,
  });
  const profile = await call('saveProfile', { name: 'Snowflakes', vendor: 'flake', baseUrl: service.url, addTokens: ['flake-token-1'] });
  await call('selectProfile', { id: profile.id });
});

afterAll(async () => {
  await app?.dispose();
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('ids past 2^53 in the app', () => {
  it("the Catalog's pages show every asset under its own id, paging by the exact last_id", async () => {
    const ids: unknown[] = [];
    let lastId: string | number | null = null;
    for (let pages = 0; pages < 10; pages++) {
      const page: CallResponse<'listAssets'> = await call('listAssets', { profileId: await shownProfile(app), lastId, pageSize: 3 });
      ids.push(...page.items.map((a) => a.id));
      if (page.done || page.cursor === null) break;
      lastId = page.cursor;
    }
    expect(ids).toEqual([...SNOWFLAKE_IDS.map(String), STRING_ID]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(service.lastIds.filter((l) => l !== '')).toEqual(['9007199254740994', '1234567890123456790']);
  });

  it('registers such an asset with its id as the number text the service wrote, and a string id as a string', async () => {
    const purchase = await call('registerPurchase', { profileId: await shownProfile(app), assetId: '1234567890123456789', assetTitle: null });
    expect(service.registerBodies.at(-1)).toMatch(/"asset_id":1234567890123456789[,}]/);
    expect(purchase.asset_id).toBe('1234567890123456789');
    const records = await call('ledgerList', { assetId: '1234567890123456789' });
    expect(records.items.map((r) => [r.assetId, r.state])).toEqual([['1234567890123456789', 'registered']]);

    await call('registerPurchase', { profileId: await shownProfile(app), assetId: STRING_ID, assetTitle: null });
    expect(service.registerBodies.at(-1)).toMatch(new RegExp(`"asset_id":"${STRING_ID}"`));
  });

  it('refuses an id past 2^53 sent as a number: it was rounded on its way', async () => {
    const answer = await app.dispatch('registerPurchase', { profileId: await shownProfile(app), assetId: 1234567890123456789, assetTitle: null });
    expect(answer).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST', message: expect.stringContaining('past 2^53') } });
  });
});
