/**
 * The Overview row's connection words and colour follow the header's: Offline while the link to the
 * services is down. The row rendered whole, with its link: overview-row-link.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { overviewRowState } from '../../../renderer/src/views/overview/overview-model';

const rateLimited = { state: 'degraded' as const, causes: ['rate-limited' as const] };

describe('overviewRowState', () => {
  it('the link down: Offline and away, whatever the profile last reported', () => {
    for (const connection of [rateLimited, { state: 'connected' as const }, { state: 'degraded' as const, causes: [] }]) {
      expect(overviewRowState({ link: 'offline', connection, othersUseTheBudget: true })).toEqual({ state: 'offline', label: 'Offline', away: true });
    }
    expect(overviewRowState({ link: 'connecting', connection: { state: 'connected' }, othersUseTheBudget: false })).toMatchObject({
      label: 'Connecting',
      away: true,
    });
  });

  it("the link up: the profile's own state, 429s beside others' use read as sharing the budget", () => {
    expect(overviewRowState({ link: 'open', connection: rateLimited, othersUseTheBudget: true })).toEqual({
      state: 'sharing',
      label: 'Connected, sharing the budget',
      away: false,
    });
    expect(overviewRowState({ link: 'open', connection: rateLimited, othersUseTheBudget: false })).toMatchObject({ state: 'degraded', away: false });
  });
});
