/**
 * The ledger locked right after the service accepted a registration: another connection (as another
 * process would) holds a write lock on the same SQLite file. The answer is shown with its purchase id
 * and a warning that the ledger will be updated; validate's answer too; once the lock goes, the
 * record lands in order (registered, then validated) and never stays "sending".
 */
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppServices } from '../../electron/app';
import { STORE_FILE_NAME } from '../../electron/store';
import { startSimulator } from '../../electron/simulator';
import type { RunningSimulator } from '../../electron/simulator';
import { callApp, until, shownProfile } from '../helpers/app-calls';
import { connectedApp } from '../helpers/connected-app';

let dir: string;
let dispose: () => Promise<void>;
let sim: RunningSimulator;
let app: AppServices;
let locker: Sqlite.Database | null = null;

beforeEach(async () => {
  sim = await startSimulator({ port: 0, catalogSize: 50 });
  ({ app, dir, dispose } = await connectedApp(sim.url));
});

afterEach(async () => {
  if (locker?.inTransaction) locker.exec('ROLLBACK');
  locker?.close();
  locker = null;
  await dispose();
  await sim.stop();
});

describe('a ledger that cannot be written after the service answered', () => {
  it('shows the purchase with its id and a warning, and updates the record once the lock is released', async () => {
    const asset = (await callApp(app, 'listAssets', { profileId: await shownProfile(app), lastId: null, pageSize: 1 })).items[0]!;
    locker = new Sqlite(join(dir, STORE_FILE_NAME));
    // Slow answers, so that the lock is taken between the write-ahead and the answer.
    sim.control.setFaults({ latencyMs: 1000 });
    const registering = callApp(app, 'registerPurchase', { profileId: await shownProfile(app), assetId: asset.id, assetTitle: 'Locked' });
    await until(() => (locker!.prepare(`SELECT COUNT(*) AS n FROM purchase_ledger WHERE state = 'sending'`).get() as { n: number }).n === 1);
    locker.exec('BEGIN IMMEDIATE');
    sim.control.setFaults({ latencyMs: 0 });

    const registered = await registering;
    expect(registered.id).toMatch(/^p_/);
    expect(registered.state).toBe('registered');
    expect(registered.ledgerWarning).toMatch(/could not be written just now \(database is locked\)\. It will be updated as soon as it can/);
    const validated = await callApp(app, 'validatePurchase', { profileId: await shownProfile(app), purchaseId: registered.id });
    expect(validated.state).toBe('validated');
    expect(validated.ledgerWarning).toContain('It will be updated as soon as it can');
    // Still held: the record waits, "sending", with nothing lost.
    expect(locker.prepare('SELECT state, purchase_id FROM purchase_ledger').all()).toEqual([{ state: 'sending', purchase_id: null }]);

    locker.exec('COMMIT');
    await until(async () => (await callApp(app, 'ledgerList', { limit: 10 })).items[0]?.purchaseState === 'validated', 8000);
    const [record] = (await callApp(app, 'ledgerList', { limit: 10 })).items;
    expect(record).toMatchObject({ state: 'registered', purchaseId: registered.id, purchaseState: 'validated', assetId: String(asset.id) });
    expect((await callApp(app, 'ledgerList', { limit: 10 })).unresolved).toBe(0);
  }, 20_000);

  it('refuses a new registration of the asset while its answer waits for the store, in words; once it lands, the asset asks to confirm', async () => {
    const [asset, other] = (await callApp(app, 'listAssets', { profileId: await shownProfile(app), lastId: null, pageSize: 2 })).items;
    locker = new Sqlite(join(dir, STORE_FILE_NAME));
    sim.control.setFaults({ latencyMs: 1000 });
    const registering = callApp(app, 'registerPurchase', { profileId: await shownProfile(app), assetId: asset!.id, assetTitle: 'Locked' });
    await until(() => (locker!.prepare(`SELECT COUNT(*) AS n FROM purchase_ledger WHERE state = 'sending'`).get() as { n: number }).n === 1);
    locker.exec('BEGIN IMMEDIATE');
    sim.control.setFaults({ latencyMs: 0 });
    const registered = await registering;
    expect(registered.ledgerWarning).toContain('It will be updated as soon as it can');
    const sent = (): number =>
      sim.control
        .counters()
        .filter((c) => c.endpoint === 'registerPurchase')
        .reduce((n, c) => n + c.count, 0);
    expect(sent()).toBe(1);

    // The guard would read "sending" (may have gone through) although the app knows the purchase: not asked, refused.
    const again = await app.dispatch('registerPurchase', { profileId: await shownProfile(app), assetId: asset!.id, assetTitle: 'Locked' });
    expect(again).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    expect((again as { error: { message: string } }).error.message).toContain('being updated');
    expect(sent()).toBe(1);
    locker.exec('COMMIT');
    // The lock gone: another asset registers; the first asks to confirm (it is bought).
    await until(async () => (await callApp(app, 'ledgerList', { limit: 10 })).unresolved === 0, 8000);
    expect((await callApp(app, 'registerPurchase', { profileId: await shownProfile(app), assetId: other!.id, assetTitle: 'Other' })).id).toMatch(/^p_/);
    expect(await app.dispatch('registerPurchase', { profileId: await shownProfile(app), assetId: asset!.id, assetTitle: 'Locked' })).toMatchObject({
      ok: false,
      error: { code: 'CONFIRMATION_REQUIRED' },
    });
  }, 20_000);
});
