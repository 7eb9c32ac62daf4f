/**
 * Look it up against a hostile service on loopback: the simulator behind a proxy whose purchase/info
 * ignores the reference filter (every lookup answers with the first registration's purchases).
 * An unresolved registration of asset B must not be recorded as asset A's purchase; A's record stays,
 * and Register for A still asks first. Find a purchase goes through the same check.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppServices } from '../../electron/app';
import { startSimulator } from '../../electron/simulator';
import type { RunningSimulator } from '../../electron/simulator';
import { callApp, shownProfile } from '../helpers/app-calls';
import { connectedApp } from '../helpers/connected-app';
import { startForwardProxy } from '../helpers/forward-proxy';
import type { ForwardProxy } from '../helpers/forward-proxy';

let dispose: () => Promise<void>;
let sim: RunningSimulator;
let proxy: ForwardProxy;
let app: AppServices;

/** Ignores the lookup's filter: always asks for the first reference it saw registered. */
function ignoringFilter(): (req: { method: string; url: string; body: string }) => string {
  let first: string | null = null;
  return (req) => {
    if (req.method === 'POST' && req.url.startsWith('/purchase/register')) first ??= (JSON.parse(req.body) as { client_reference: string }).client_reference;
    if (req.url.startsWith('/purchase/info') && req.url.includes('client_reference=') && first !== null) {
      return req.url.replace(/client_reference=[^&]*/, `client_reference=${encodeURIComponent(first)}`);
    }
    return req.url;
  };
}

beforeEach(async () => {
  sim = await startSimulator({ port: 0, catalogSize: 50 });
  proxy = await startForwardProxy(sim.url, ignoringFilter());
  ({ app, dispose } = await connectedApp(proxy.url, 'Hostile'));
});

afterEach(async () => {
  await dispose();
  await proxy.close();
  await sim.stop();
});

describe('Look it up against a service that ignores the reference filter', () => {
  it("does not record B's unresolved registration as A's purchase; A's record stays and still guards A", async () => {
    const page = await callApp(app, 'listAssets', { profileId: await shownProfile(app), lastId: null, pageSize: 2 });
    const [a, b] = page.items.map((x) => x.id);
    const bought = await callApp(app, 'registerPurchase', { profileId: await shownProfile(app), assetId: a!, assetTitle: 'A' });

    sim.control.setFaults({ dropRate: 1 });
    const lost = await app.dispatch('registerPurchase', { profileId: await shownProfile(app), assetId: b!, assetTitle: 'B' });
    sim.control.setFaults({ dropRate: 0 });
    expect(lost).toMatchObject({ ok: false, error: { code: 'UNKNOWN_OUTCOME' } });
    const recordB = (await callApp(app, 'ledgerList', { assetId: b!, limit: 10 })).items[0]!;
    expect(recordB.state).toBe('unknown');

    const looked = await callApp(app, 'ledgerResolve', { profileId: await shownProfile(app), id: recordB.id, action: 'lookup' });
    expect(looked.record.state).toBe('unknown');
    expect(looked.record.purchaseId).toBeNull();
    expect(looked.message).toContain(`No purchase in the service's answer has reference ${recordB.reference}`);
    expect(looked.message).toContain('stays unresolved');

    const rowsA = (await callApp(app, 'ledgerList', { assetId: a!, limit: 10 })).items;
    expect(rowsA).toHaveLength(1);
    expect(rowsA[0]).toMatchObject({ purchaseId: bought.id, state: 'registered', assetId: String(a) });
    const again = await app.dispatch('registerPurchase', { profileId: await shownProfile(app), assetId: a!, assetTitle: 'A' });
    expect(again).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_REQUIRED' } });

    // Find a purchase: the same check, so nothing of A's is shown (or recorded) as B's.
    const found = await callApp(app, 'findPurchases', { profileId: await shownProfile(app), reference: recordB.reference! });
    expect(found.items).toEqual([]);
    expect(found.warnings?.join(' ')).toContain('another reference');
    expect((await callApp(app, 'ledgerList', { assetId: b!, limit: 10 })).items[0]).toMatchObject({ state: 'unknown', purchaseId: null });
  });
});
