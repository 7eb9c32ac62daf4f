/**
 * Idempotency keys over real HTTP against the simulator's idempotency mode: the registration's
 * client reference travels as its Idempotency-Key; a resend the user confirms gets the first answer
 * (one purchase), a second one while the first is in flight reads "still in progress or already
 * done: look it up"; the client itself never resends. Through the app, a confirmed re-register of an
 * unresolved intent reuses its reference (its key), so it cannot buy the asset twice.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppServices } from '../../electron/app';
import { BudgetRegistry, PartnerClient } from '../../electron/client';
import { errorOf, seededRandom } from '../../electron/client/testing';
import { PurchaseService } from '../../electron/purchases';
import { startSimulator } from '../../electron/simulator';
import type { RunningSimulator, SimulatorOptions } from '../../electron/simulator';
import type { PartnerError } from '../../shared/errors';
import { confirmationName } from '../../shared/bridge/ledger-schemas';
import Sqlite from 'better-sqlite3';
import { detectAtFirstContact } from '../../electron/service-map/first-contact';
import { LearnedNames } from '../../electron/service-map/learned-names';
import { STORE_FILE_NAME } from '../../electron/store';
import { DEFAULT_SERVICE_MAP } from '../../shared/service-map/schema';
import { callApp, shownProfile } from '../helpers/app-calls';
import { connectedApp } from '../helpers/connected-app';
import type { ConnectedApp } from '../helpers/connected-app';

const running: RunningSimulator[] = [];
const clients: PartnerClient[] = [];
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
  for (const c of clients.splice(0)) c.close();
  await Promise.all(running.splice(0).map((s) => s.stop()));
});

async function setup(options: SimulatorOptions, map = DEFAULT_SERVICE_MAP): Promise<{ sim: RunningSimulator; purchases: PurchaseService; asset: number }> {
  const sim = await startSimulator({ port: 0, catalogSize: 50, random: seededRandom(5), ...options });
  running.push(sim);
  const client = new PartnerClient({ baseUrl: sim.url, vendor: 'demo', tokens: ['demo-token-1'], budgets: new BudgetRegistry() });
  clients.push(client);
  const page = await client.request<{ items: { id: number }[] }>('listAssets', { query: { 'per-page': 1 } });
  return { sim, purchases: new PurchaseService(client, { map }), asset: page.body.items[0]!.id };
}

const registrationsSent = (sim: RunningSimulator): number =>
  sim.control
    .counters()
    .filter((c) => c.endpoint === 'registerPurchase' && !c.competitor)
    .reduce((n, c) => n + c.count, 0);

describe('the idempotency key on registration', () => {
  it('a confirmed resend after a lost answer gets the first purchase back: one purchase, two sends, none automatic', async () => {
    const { sim, purchases, asset } = await setup({ idempotencyKeys: true });
    sim.control.setFaults({ dropRate: 1 });
    const lost = await errorOf(purchases.register(asset, { reference: 'ref-lost-1' }));
    sim.control.setFaults({ dropRate: 0 });
    expect(lost.code).toBe('UNKNOWN_OUTCOME');
    expect(registrationsSent(sim)).toBe(1);

    const again = await purchases.register(asset, { reference: 'ref-lost-1' });
    const found = await purchases.findByReference('ref-lost-1');
    expect(found.items.map((p) => p.id)).toEqual([again.id]);
    expect(registrationsSent(sim)).toBe(2);
  });

  it('a second registration with the key while the first is in flight: "still in progress or already done: look it up"', async () => {
    const { sim, purchases, asset } = await setup({ idempotencyKeys: true });
    sim.control.setFaults({ latencyMs: 400 });
    // Another instance (its own client) sends the same intent while the first is in flight.
    const other = new PartnerClient({ baseUrl: sim.url, vendor: 'demo', tokens: ['demo-token-2'], budgets: new BudgetRegistry() });
    clients.push(other);
    const first = purchases.register(asset, { reference: 'ref-twice-1' });
    await new Promise((r) => setTimeout(r, 150));
    const second = new PurchaseService(other).register(asset, { reference: 'ref-twice-1' });
    // Whichever reached the service first is done; the other arrived while it was in flight.
    const results = await Promise.allSettled([first, second]);
    const fulfilled = results.filter((r): r is PromiseFulfilledResult<Awaited<typeof first>> => r.status === 'fulfilled');
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect([fulfilled.length, rejected.length]).toEqual([1, 1]);
    const done = fulfilled[0]!.value;
    const refused = rejected[0]!.reason as PartnerError;
    expect(refused.code).toBe('UNKNOWN_OUTCOME');
    expect(refused.data.status).toBe(409);
    expect(refused.message).toContain('still in progress or already done at the service');
    expect(refused.message).toContain('look it up');
    expect(refused.data.hint).toContain('look it up by its reference ref-twice-1');
    sim.control.setFaults({ latencyMs: 0 });
    expect((await purchases.findByReference('ref-twice-1')).items.map((p) => p.id)).toEqual([done.id]);
  });

  it('is ignored where not honoured, and not sent when the map turns it off', async () => {
    const plain = await setup({});
    await plain.purchases.register(plain.asset, { reference: 'ref-plain' });
    await plain.purchases.register(plain.asset, { reference: 'ref-plain' });
    expect((await plain.purchases.findByReference('ref-plain')).items).toHaveLength(2);
    const off = await setup({ idempotencyKeys: true }, { ...DEFAULT_SERVICE_MAP, idempotencyHeader: null });
    await off.purchases.register(off.asset, { reference: 'ref-off' });
    await off.purchases.register(off.asset, { reference: 'ref-off' });
    expect((await off.purchases.findByReference('ref-off')).items).toHaveLength(2);
  });
});

describe('one key per purchase intent, through the app', () => {
  it('a confirmed re-register of an unresolved registration resends its reference: the asset is bought once', async () => {
    const { sim, asset } = await setup({ idempotencyKeys: true });
    const { app } = await appOn(sim);

    sim.control.setFaults({ dropRate: 1 });
    expect(await app.dispatch('registerPurchase', { profileId: await shownProfile(app), assetId: asset, assetTitle: 'Eleven' })).toMatchObject({
      ok: false,
      error: { code: 'UNKNOWN_OUTCOME' },
    });
    sim.control.setFaults({ dropRate: 0 });
    const [unknown] = (await callApp(app, 'ledgerList', { assetId: asset, limit: 10 })).items;
    expect(unknown).toMatchObject({ state: 'unknown' });
    expect(await app.dispatch('registerPurchase', { profileId: await shownProfile(app), assetId: asset, assetTitle: 'Eleven' })).toMatchObject({
      ok: false,
      error: { code: 'CONFIRMATION_REQUIRED' },
    });

    const registered = await callApp(app, 'registerPurchase', {
      profileId: await shownProfile(app),
      assetId: asset,
      assetTitle: 'Eleven',
      confirmDuplicate: { seen: [confirmationName(unknown!)] },
    });
    expect(registered.client_reference).toBe(unknown!.reference);
    const atService = await callApp(app, 'findPurchases', { profileId: await shownProfile(app), reference: unknown!.reference! });
    expect(atService.items.map((p) => p.id)).toEqual([registered.id]);
    const records = (await callApp(app, 'ledgerList', { assetId: asset, limit: 10 })).items;
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ id: unknown!.id, state: 'registered', purchaseId: registered.id, reference: unknown!.reference });
  });
});

/** The app on a profile of this simulator, with its data folder (removed after the test). */
async function appOn(sim: RunningSimulator): Promise<ConnectedApp> {
  const connected = await connectedApp(sim.url);
  cleanups.push(connected.dispose);
  return connected;
}

/** A registration from the Catalog (id as a number) whose answer is lost: the simulator bought it, the record is unknown. */
async function lostRegistration(app: AppServices, sim: RunningSimulator, asset: number): Promise<{ id: number; reference: string }> {
  sim.control.setFaults({ dropRate: 1 });
  expect(await app.dispatch('registerPurchase', { profileId: await shownProfile(app), assetId: asset, assetTitle: 'Five' })).toMatchObject({
    ok: false,
    error: { code: 'UNKNOWN_OUTCOME' },
  });
  sim.control.setFaults({ dropRate: 0 });
  const [unknown] = (await callApp(app, 'ledgerList', { assetId: asset, limit: 10 })).items;
  expect(unknown).toMatchObject({ state: 'unknown' });
  return { id: unknown!.id, reference: unknown!.reference! };
}

describe('a confirmed resend under the same key', () => {
  it('sends the body first sent (the Purchases view gives the id as text): the first purchase comes back, never a second', async () => {
    const { sim, asset } = await setup({ idempotencyKeys: true });
    const { app } = await appOn(sim);
    const lost = await lostRegistration(app, sim, asset);

    // The Purchases view passes LedgerRecord.assetId, a string.
    const again = await callApp(app, 'registerPurchase', {
      profileId: await shownProfile(app),
      assetId: String(asset),
      assetTitle: 'Five',
      confirmDuplicate: { seen: [`${lost.reference} (unresolved)`] },
    });
    const atService = await callApp(app, 'findPurchases', { profileId: await shownProfile(app), reference: lost.reference });
    expect(atService.items.map((p) => p.id)).toEqual([again.id]);
    expect((await callApp(app, 'ledgerList', { assetId: asset, limit: 10 })).items).toMatchObject([{ id: lost.id, state: 'registered', purchaseId: again.id }]);
    // The next Register from the Catalog asks first: the asset is bought.
    expect(await app.dispatch('registerPurchase', { profileId: await shownProfile(app), assetId: asset, assetTitle: 'Five' })).toMatchObject({
      ok: false,
      error: { code: 'CONFIRMATION_REQUIRED' },
    });
    expect(registrationsSent(sim)).toBe(2);
  });

  it('refused by the service (422: its key with another body) stays unresolved, and the next Register asks first', async () => {
    const { sim, asset } = await setup({ idempotencyKeys: true });
    const { app, dir } = await appOn(sim);
    const lost = await lostRegistration(app, sim, asset);
    // A record whose kept body is not the one the service holds under the key (the id as text): the resend differs.
    const raw = new Sqlite(join(dir, STORE_FILE_NAME));
    raw.prepare(`UPDATE purchase_ledger SET sent_body = replace(sent_body, ?, ?)`).run(`"asset_id":${asset}`, `"asset_id":"${asset}"`);
    raw.close();

    const refused = await app.dispatch('registerPurchase', {
      profileId: await shownProfile(app),
      assetId: asset,
      assetTitle: 'Five',
      confirmDuplicate: { seen: [`${lost.reference} (unresolved)`] },
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'UNKNOWN_OUTCOME', status: 422 } });
    const [record] = (await callApp(app, 'ledgerList', { assetId: asset, limit: 10 })).items;
    expect(record).toMatchObject({ id: lost.id, state: 'unknown' });
    expect(record!.note).toContain('still in progress or already done');
    expect(await app.dispatch('registerPurchase', { profileId: await shownProfile(app), assetId: asset, assetTitle: 'Five' })).toMatchObject({
      ok: false,
      error: { code: 'CONFIRMATION_REQUIRED' },
    });
    // One purchase: the lost registration's.
    expect((await callApp(app, 'findPurchases', { profileId: await shownProfile(app), reference: lost.reference })).items).toHaveLength(1);
    expect(registrationsSent(sim)).toBe(2);
  });
});

describe('learning from a 400 against the idempotency mode', () => {
  it('a 400 is not kept under the key: the learned retry registers, and the next registration sends the learned name at once', async () => {
    const sim = await startSimulator({ port: 0, catalogSize: 50, random: seededRandom(5), idempotencyKeys: true, dialect: 'snake-envelope' });
    running.push(sim);
    const client = new PartnerClient({ baseUrl: sim.url, vendor: 'demo', tokens: ['demo-token-1'], budgets: new BudgetRegistry() });
    clients.push(client);
    const found = await detectAtFirstContact(client, DEFAULT_SERVICE_MAP);
    const wrong = { ...found.map!, register: { ...found.map!.register, assetIdField: 'assetId' } };
    const purchases = new PurchaseService(client, { map: wrong, names: new LearnedNames(wrong) });
    const asset = Number(/"asset_id":(\d+)/.exec(JSON.stringify((await client.request<unknown>('listAssets')).body))![1]);

    const first = await purchases.register(asset, { reference: 'ref-learn-1' });
    expect(first.id).not.toBe('');
    const second = await purchases.register(asset, { reference: 'ref-learn-2' });
    expect(second.id).not.toBe('');
    expect(second.id).not.toBe(first.id);
    const byStatus = (ok: (status: number) => boolean): number =>
      sim.control
        .counters()
        .filter((c) => c.endpoint === 'registerPurchase' && !c.competitor && ok(c.status))
        .reduce((n, c) => n + c.count, 0);
    // One 400 (the wrong guess), then two registrations; no 422.
    expect([byStatus((s) => s === 400), byStatus((s) => s >= 200 && s < 300), byStatus((s) => s === 422)]).toEqual([1, 2, 0]);
  });
});
