/** Issue 11 (also found): the badge must not return to "Connected" while the service is still down. */
import { describe, expect, it } from 'vitest';
import { ConnectionTracker } from '../../electron/app/connection-state';
import { ManualClock } from '../../electron/client/testing/manual-clock';
import type { BudgetSample } from '../../shared/rate-limit';

const sample = (status: number, at: number): BudgetSample => ({
  vendor: 'acme',
  endpoint: 'categories',
  at,
  status,
  limit: 20,
  remaining: 10,
  reset: 0,
  latencyMs: 3,
  waitedMs: 0,
  attempt: 1,
  headerProblems: [],
});

describe('ConnectionTracker during an outage', () => {
  it('stays offline after a 5xx window ends while nothing answers', async () => {
    const clock = new ManualClock();
    const t = new ConnectionTracker({ clock, onChange: () => undefined, windowMs: 10_000 });
    t.setTarget({ profileId: 'p', vendor: 'acme', baseUrl: 'http://127.0.0.1:1', demo: false });
    t.record(sample(200, clock.now()));
    t.record(sample(503, clock.now())); // degraded, with a timer to end it
    t.record(sample(0, clock.now()));
    t.record(sample(0, clock.now())); // the service is down
    expect(t.current().state).toBe('offline');
    await clock.advance(15_000);
    expect(t.current().state).toBe('offline');
    expect(clock.pendingTimers).toBe(0);
    t.record(sample(200, clock.now()));
    expect(t.current().state).toBe('connected');
  });
});
