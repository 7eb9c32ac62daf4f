/**
 * A confirmation names the records the dialog showed, in the state it showed them: a record that was
 * settled meanwhile (another window looked it up) is asked about again, and nothing is sent.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { AppServices } from '../../electron/app';
import { startSimulator } from '../../electron/simulator';
import type { RunningSimulator } from '../../electron/simulator';
import { confirmationName } from '../../shared/bridge/ledger-schemas';
import type { LedgerRecord } from '../../shared/bridge/ledger-schemas';
import { callApp, shownProfile } from '../helpers/app-calls';
import { connectedApp } from '../helpers/connected-app';
import { loseRegistration } from '../helpers/lost-registration';

let dispose: () => Promise<void>;
let sim: RunningSimulator;
let app: AppServices;
beforeEach(async () => {
  sim = await startSimulator({ port: 0, catalogSize: 20, idempotencyKeys: true });
  ({ app, dispose } = await connectedApp(sim.url));
});
/** Registrations the service answered, all statuses. */
const registers = (): number =>
  sim.control
    .counters()
    .filter((c) => c.endpoint === 'registerPurchase')
    .reduce((n, c) => n + c.count, 0);

afterEach(async () => {
  await dispose();
  await sim.stop();
});

it('a confirmation of an unknown registration that another window settled as bought meanwhile is asked again, naming the new state, and sends nothing', async () => {
  const profileId = await shownProfile(app);
  const asset = (await callApp(app, 'listAssets', { profileId, lastId: null, pageSize: 1 })).items[0]!.id;
  const lost = await loseRegistration(app, sim, profileId, asset);
  // Window B asks to register: main names the unknown record, and B's dialog shows it.
  const asked = await app.dispatch('registerPurchase', { profileId, assetId: asset, assetTitle: 'A' });
  expect(asked).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_REQUIRED' } });
  const shown = (asked as { error: { body: { records: LedgerRecord[] } } }).error.body.records;
  expect(shown.map((r) => r.state)).toEqual(['unknown']);
  // Window A looks it up: bought.
  const resolved = await callApp(app, 'ledgerResolve', { profileId, id: lost.id, action: 'lookup' });
  expect(resolved.record.state).toBe('registered');
  const registersBefore = registers();
  // B confirms what its dialog showed.
  const b = await app.dispatch('registerPurchase', { profileId, assetId: asset, assetTitle: 'A', confirmDuplicate: { seen: shown.map(confirmationName) } });
  expect(b).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_REQUIRED', message: expect.stringMatching(/now registered/) } });
  expect((b as { error: { body: { records: LedgerRecord[] } } }).error.body.records.map((r) => r.state)).toEqual(['registered']);
  expect(registers()).toBe(registersBefore);
  const rows = (await callApp(app, 'ledgerList', { assetId: asset, limit: 10 })).items;
  expect(rows.map((r) => r.purchaseId)).toEqual([resolved.record.purchaseId]);
});

it('a confirmation of the record in the state the dialog showed still resends its key (no second purchase)', async () => {
  const profileId = await shownProfile(app);
  const asset = (await callApp(app, 'listAssets', { profileId, lastId: null, pageSize: 1 })).items[0]!.id;
  const lost = await loseRegistration(app, sim, profileId, asset);
  const again = await callApp(app, 'registerPurchase', { profileId, assetId: asset, assetTitle: 'A', confirmDuplicate: { seen: [confirmationName(lost)] } });
  const rows = (await callApp(app, 'ledgerList', { assetId: asset, limit: 10 })).items;
  expect(rows).toMatchObject([{ id: lost.id, state: 'registered', purchaseId: again.id }]);
});
