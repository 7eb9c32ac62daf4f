/**
 * requestLogSpan: how far back main's request log reaches (the Requests view's span) without sending
 * its entries. Served through the dispatcher, so the request is checked against the contract in main.
 */
import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../electron/app/dispatcher';
import { createHandlers } from '../../electron/app/handlers';
import type { AppContext } from '../../electron/app/handlers';
import { RequestLog } from '../../electron/telemetry/request-log';
import type { BudgetSample } from '../../shared/rate-limit';
import { budgetSample } from '../helpers/budget-sample';

const mask = { tokens: [], tokenHeaders: new Set<string>() };
const sample = (at: number): BudgetSample => budgetSample({ at, endpoint: 'categories', latencyMs: 0 });

function dispatchOver(log: RequestLog) {
  const ctx = { telemetry: { requestLogSpan: (limit: number) => log.span(limit) } } as unknown as AppContext;
  return createDispatcher(createHandlers(ctx), { log: () => {}, tokens: () => [] });
}

describe('requestLogSpan', () => {
  it('answers the oldest time and count of the newest `limit` entries, the capacity and what was let go', async () => {
    const log = new RequestLog({ capacity: 3 });
    const dispatch = dispatchOver(log);
    expect(await dispatch('requestLogSpan', { limit: 5000 })).toEqual({ ok: true, value: { oldestAt: null, count: 0, capacity: 3, dropped: 0 } });
    for (const at of [1000, 2000, 3000, 4000, 5000]) log.add(sample(at), null, mask);
    expect(await dispatch('requestLogSpan', { limit: 5000 })).toEqual({ ok: true, value: { oldestAt: 3000, count: 3, capacity: 3, dropped: 2 } });
    expect(await dispatch('requestLogSpan', { limit: 2 })).toEqual({ ok: true, value: { oldestAt: 4000, count: 2, capacity: 3, dropped: 2 } });
  });

  it('refuses a missing or out-of-range limit with BAD_REQUEST', async () => {
    const dispatch = dispatchOver(new RequestLog());
    for (const request of [{}, { limit: 0 }, { limit: 5001 }, { limit: 1.5 }, { limit: '10' }]) {
      const answer = await dispatch('requestLogSpan', request);
      expect(answer, JSON.stringify(request)).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    }
  });
});
