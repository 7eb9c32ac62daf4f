/**
 * Resolving an unresolved registration at the edges a real desk meets, on the simulator (loopback):
 * one still on its way (the latency fault; a 429 pause holds it the same way) can be neither looked
 * up nor marked as checked until its answer lands, since a lookup that finds nothing yet would lead
 * to a second purchase; a purchase id typed in is taken only if its reference is the registration's;
 * two purchases under one reference (a resend the service did not deduplicate) are both kept.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppServices } from '../../electron/app';
import { confirmationName } from '../../shared/bridge/ledger-schemas';
import type { LedgerRecord } from '../../shared/bridge/ledger-schemas';
import { startSimulator } from '../../electron/simulator';
import type { RunningSimulator } from '../../electron/simulator';
import { callApp, shownProfile, until } from '../helpers/app-calls';
import { connectedApp } from '../helpers/connected-app';
import { loseRegistration } from '../helpers/lost-registration';

let dispose: () => Promise<void>;
let sim: RunningSimulator;
let app: AppServices;

beforeEach(async () => {
  sim = await startSimulator({ port: 0, catalogSize: 20 });
  ({ app, dispose } = await connectedApp(sim.url));
});

afterEach(async () => {
  await dispose();
  await sim.stop();
});

describe('a registration still being sent', () => {
  it('cannot be looked up or marked as checked until its answer lands; then it is the one purchase of its asset', async () => {
    const profileId = await shownProfile(app);
    const asset = (await callApp(app, 'listAssets', { profileId, lastId: null, pageSize: 1 })).items[0]!.id;
    sim.control.setFaults({ latencyMs: 1_500 });
    const registering = app.dispatch('registerPurchase', { profileId, assetId: asset, assetTitle: 'A' });
    let record: LedgerRecord | undefined;
    await until(async () => {
      record = (await callApp(app, 'ledgerList', { assetId: asset, limit: 10 })).items[0];
      return record?.state === 'sending';
    });

    for (const action of ['lookup', 'markChecked'] as const) {
      const refused = await app.dispatch('ledgerResolve', { profileId, id: record!.id, action });
      expect(refused).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
      expect(JSON.stringify(refused)).toContain('still being sent');
    }
    // A second Register of the asset meanwhile is asked to confirm, as before.
    expect(await app.dispatch('registerPurchase', { profileId, assetId: asset, assetTitle: 'A' })).toMatchObject({
      ok: false,
      error: { code: 'CONFIRMATION_REQUIRED' },
    });

    sim.control.setFaults({ latencyMs: 0 });
    expect(await registering).toMatchObject({ ok: true });
    const rows = (await callApp(app, 'ledgerList', { assetId: asset, limit: 10 })).items;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: record!.id, state: 'registered' });
  });
});

describe('a purchase id typed in for an unresolved registration', () => {
  it('is refused when the service says it was registered under another reference (an earlier registration of the same asset)', async () => {
    const profileId = await shownProfile(app);
    const asset = (await callApp(app, 'listAssets', { profileId, lastId: null, pageSize: 1 })).items[0]!.id;
    const earlier = await callApp(app, 'registerPurchase', { profileId, assetId: asset, assetTitle: 'A' });
    await callApp(app, 'cancelPurchase', { profileId, purchaseId: earlier.id });
    const lost = await loseRegistration(app, sim, profileId, asset);

    const refused = await app.dispatch('ledgerResolve', { profileId, id: lost.id, action: 'lookup', purchaseId: earlier.id });
    expect(refused).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    expect(JSON.stringify(refused)).toContain('another registration');
    expect((await callApp(app, 'ledgerList', { assetId: asset, state: 'unresolved', limit: 10 })).items).toMatchObject([{ id: lost.id, state: 'unknown' }]);
    // Its own lookup still finds it.
    expect((await callApp(app, 'ledgerResolve', { profileId, id: lost.id, action: 'lookup' })).record).toMatchObject({ state: 'registered' });
  });
});

describe("a lookup that finds two purchases under the registration's reference", () => {
  it('settles the record with one and lists the other as a row of its own (a resend the service did not deduplicate)', async () => {
    const profileId = await shownProfile(app);
    const asset = (await callApp(app, 'listAssets', { profileId, lastId: null, pageSize: 1 })).items[0]!.id;
    const lost = await loseRegistration(app, sim, profileId, asset);
    // Confirmed, the intent is sent again under its reference, its answer lost too; this simulator does not take the reference as a key.
    sim.control.setFaults({ dropRate: 1 });
    const resent = await app.dispatch('registerPurchase', { profileId, assetId: asset, assetTitle: 'A', confirmDuplicate: { seen: [confirmationName(lost)] } });
    sim.control.setFaults({ dropRate: 0 });
    expect(resent).toMatchObject({ ok: false, error: { code: 'UNKNOWN_OUTCOME' } });

    const looked = await callApp(app, 'ledgerResolve', { profileId, id: lost.id, action: 'lookup' });
    expect(looked.message).toContain('1 more with the same reference, now listed');
    const rows = (await callApp(app, 'ledgerList', { assetId: asset, limit: 10 })).items;
    expect(rows).toHaveLength(2);
    expect(new Set(rows.map((r) => r.purchaseId)).size).toBe(2);
    expect(rows.every((r) => r.state === 'registered' && r.purchaseId !== null)).toBe(true);
  });
});
