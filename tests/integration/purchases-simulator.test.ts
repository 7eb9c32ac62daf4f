/** PurchaseService over PartnerClient against the real simulator over loopback. */
import { afterEach, describe, expect, it } from 'vitest';
import { BudgetRegistry, PartnerClient } from '../../electron/client';
import { PurchaseService } from '../../electron/purchases';
import { startSimulator } from '../../electron/simulator';
import type { RunningSimulator } from '../../electron/simulator';
import { errorOf, seededRandom } from '../../electron/client/testing';

const running: RunningSimulator[] = [];
const clients: PartnerClient[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await Promise.all(running.splice(0).map((s) => s.stop()));
});

async function setup(reference?: () => string): Promise<{ sim: RunningSimulator; purchases: PurchaseService; assets: number[] }> {
  // Seeded faults: the same draws every run (Math.random would make the 5xx test fail now and then).
  const sim = await startSimulator({ port: 0, catalogSize: 200, random: seededRandom(11) });
  running.push(sim);
  const client = new PartnerClient({ baseUrl: sim.url, vendor: 'demo', tokens: ['demo-token-1', 'demo-token-2'], budgets: new BudgetRegistry() });
  clients.push(client);
  const page = await client.request<{ items: { id: number }[] }>('listAssets', { query: { 'per-page': 5 } });
  return { sim, purchases: new PurchaseService(client, reference ? { newReference: reference } : {}), assets: page.body.items.map((a) => a.id) };
}

describe('purchases against the simulator', () => {
  it('runs the whole life of a purchase, with typed errors for what its state forbids', async () => {
    const { purchases, assets } = await setup();
    const registered = await purchases.register(assets[0]!);
    expect(registered.state).toBe('registered');
    expect(registered.client_reference).toMatch(/^pc-/);
    expect((await purchases.findByReference(registered.client_reference!)).items).toHaveLength(1);
    expect((await purchases.info(registered.id)).state).toBe('registered');
    expect((await purchases.viewUrl(registered.id)).url).toMatch(/^https:\/\//);
    expect((await errorOf(purchases.downloadUrl(registered.id))).code).toBe('CONFLICT');
    expect((await purchases.validate(registered.id)).state).toBe('validated');
    expect((await purchases.downloadUrl(registered.id)).url).toMatch(/^https:\/\//);
    expect((await purchases.cancel(registered.id)).state).toBe('cancelled');
    expect((await errorOf(purchases.cancel(registered.id))).code).toBe('CONFLICT');
    expect((await errorOf(purchases.info('p_does_not_exist'))).code).toBe('NOT_FOUND');
  });

  it('a dropped connection on register: UNKNOWN_OUTCOME, and exactly one purchase for its client_reference', async () => {
    const { sim, purchases, assets } = await setup(() => 'ref-dropped-1');
    sim.control.setFaults({ dropRate: 1 });
    const e = await errorOf(purchases.register(assets[0]!));
    sim.control.setFaults({ dropRate: 0 });
    expect(e.code).toBe('UNKNOWN_OUTCOME');
    expect(e.data.hint).toContain('ref-dropped-1');
    const found = (await purchases.findByReference('ref-dropped-1')).items;
    expect(found).toHaveLength(1);
    expect(found[0]!.state).toBe('registered');
    const sent = sim.control
      .counters()
      .filter((c) => c.endpoint === 'registerPurchase')
      .reduce((n, c) => n + c.count, 0);
    expect(sent).toBe(1);
  });

  it('a 5xx on register is an unknown outcome too; a 5xx on a read is retried', async () => {
    const { sim, purchases, assets } = await setup(() => 'ref-5xx-1');
    const p = await purchases.register(assets[1]!);
    sim.control.setFaults({ errorRate: 1 });
    const e = await errorOf(purchases.register(assets[2]!));
    expect(e.code).toBe('UNKNOWN_OUTCOME');
    expect([500, 503]).toContain(e.data.status);
    sim.control.setFaults({ errorRate: 0.5 });
    // Reads are resent until one gets through.
    expect((await purchases.info(p.id)).id).toBe(p.id);
    sim.control.setFaults({ errorRate: 0 });
    expect(
      sim.control
        .counters()
        .filter((c) => c.endpoint === 'registerPurchase')
        .reduce((n, c) => n + c.count, 0),
    ).toBe(2);
  });
});
