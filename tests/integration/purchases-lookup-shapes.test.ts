/**
 * Look it up where the service's lookup answers in another shape than a bare list (the map names no
 * items path): the simulator behind a proxy that reshapes purchase/info's answers by reference. A
 * purchase the service holds is found in the one array that holds anything, or as the single object
 * answered; an answer that cannot be read never says "did not go through" (that advice, followed,
 * would register the asset a second time).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AppServices } from '../../electron/app';
import { startSimulator } from '../../electron/simulator';
import type { RunningSimulator } from '../../electron/simulator';
import { callApp, shownProfile } from '../helpers/app-calls';
import { connectedApp } from '../helpers/connected-app';
import { startForwardProxy } from '../helpers/forward-proxy';
import { loseRegistration } from '../helpers/lost-registration';
import type { ForwardProxy } from '../helpers/forward-proxy';

let dispose: () => Promise<void>;
let sim: RunningSimulator;
let proxy: ForwardProxy;
let app: AppServices;

/** `reshape` gets the purchases the simulator answered (its answer is `{ items: [...] }`). */
async function start(reshape: (purchases: unknown[]) => unknown): Promise<void> {
  sim = await startSimulator({ port: 0, catalogSize: 20 });
  proxy = await startForwardProxy(sim.url, undefined, (req, body) =>
    req.url.startsWith('/purchase/info') && req.url.includes('client_reference=')
      ? JSON.stringify(reshape((JSON.parse(body) as { items: unknown[] }).items))
      : body,
  );
  ({ app, dispose } = await connectedApp(proxy.url, 'Reshaped'));
}

afterEach(async () => {
  await dispose();
  await proxy.close();
  await sim.stop();
});

/** A registration whose answer was lost (the service bought it, the connection dropped), looked up. */
async function lostThenLookedUp() {
  const profileId = await shownProfile(app);
  const asset = (await callApp(app, 'listAssets', { profileId, lastId: null, pageSize: 1 })).items[0]!.id;
  const lost = await loseRegistration(app, sim, profileId, asset);
  return { asset, looked: await callApp(app, 'ledgerResolve', { profileId, id: lost.id, action: 'lookup' }) };
}

describe('Look it up, answers in other shapes', () => {
  it('finds the purchase in the one array that holds anything, beside empty ones', async () => {
    await start((purchases) => ({ warnings: [], purchases }));
    const { looked } = await lostThenLookedUp();
    expect(looked.record).toMatchObject({ state: 'registered' });
    expect(looked.message).toMatch(/^Found purchase /);
  });

  it('finds the purchase answered as a single object', async () => {
    await start((purchases) => purchases[0]);
    const { looked } = await lostThenLookedUp();
    expect(looked.record).toMatchObject({ state: 'registered' });
  });

  it('keeps the registration unresolved, without "did not go through", when the answer cannot be read', async () => {
    await start((purchases) => ({ links: [{ rel: 'self' }], purchases }));
    const { asset, looked } = await lostThenLookedUp();
    expect(looked.record).toMatchObject({ state: 'unknown', purchaseId: null });
    expect(looked.message).toContain('could not be read whole');
    expect(looked.message).not.toContain('did not go through');
    // And Register still asks first.
    const again = await app.dispatch('registerPurchase', { profileId: await shownProfile(app), assetId: asset, assetTitle: 'A' });
    expect(again).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_REQUIRED' } });
  });
});
