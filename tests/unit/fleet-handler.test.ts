/** The fleetUse call: the active profile's store state and counts; 'none' without any Redis; another profile refused. */
import { afterEach, describe, expect, it } from 'vitest';
import { fleetHandlers } from '../../electron/app/handlers/fleet';
import type { AppContext } from '../../electron/app/handlers/context';
import { BudgetRegistry } from '../../electron/client/budget-registry';
import { fleetUseSchema } from '../../shared/bridge/session-schemas';

const profile = { id: 'p_acme', name: 'Acme', vendor: 'acme', baseUrl: 'http://127.0.0.1:9/api', demo: false };

/** The two members fleetUse reads; the rest of the context is not involved. */
function context(budgets: BudgetRegistry): AppContext {
  return { budgets, session: () => ({ profile }) } as unknown as AppContext;
}

const registries: BudgetRegistry[] = [];
afterEach(() => registries.splice(0).forEach((r) => r.dispose()));

describe('fleetUse', () => {
  it("no store: kind 'none', state 'off', an empty granted array per endpoint", async () => {
    const budgets = new BudgetRegistry();
    registries.push(budgets);
    const answer = await fleetHandlers(context(budgets)).fleetUse({ seconds: 5 });
    expect(fleetUseSchema.parse(answer)).toEqual(answer);
    expect(answer).toMatchObject({ profileId: 'p_acme', vendor: 'acme', store: { kind: 'none', url: null, state: 'off', message: null } });
    expect(answer.endpoints).toHaveLength(10);
    expect(answer.endpoints.every((e) => e.granted.length === 0)).toBe(true);
    expect(budgets.openStores).toBe(0);
  });

  it('a store that does not answer: kind redis, not connected, its URL masked, empty counts (headers only)', async () => {
    const budgets = new BudgetRegistry();
    registries.push(budgets);
    budgets.useStore({ baseUrl: profile.baseUrl, vendor: 'acme' }, 'redis://:pw@127.0.0.1:1/0', () => undefined);
    const answer = await fleetHandlers(context(budgets)).fleetUse({});
    expect(answer.store).toMatchObject({ kind: 'redis', url: 'redis://***@127.0.0.1:1/0' });
    expect(['connecting', 'fallback']).toContain(answer.store.state);
    expect(answer.endpoints.every((e) => e.granted.length === 0)).toBe(true);
  });

  it('a profile that is not connected is refused with NOT_FOUND', async () => {
    const budgets = new BudgetRegistry();
    registries.push(budgets);
    await expect(fleetHandlers(context(budgets)).fleetUse({ profileId: 'p_other' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
