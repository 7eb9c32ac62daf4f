/**
 * After the computer sleeps, the monotonic clock the client paces on lags the wall clock by the sleep
 * time: samples (and with them the charts, history and request log) must still carry wall time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../shared/clock';
import type { BudgetSample } from '../../shared/rate-limit';
import { BudgetRegistry, PartnerClient } from '../../electron/client';
import { systemClock } from '../../electron/client/clock';
import { startSimulator } from '../../electron/simulator';
import type { RunningSimulator } from '../../electron/simulator';

const SLEPT_MS = 3_600_000;
let sim: RunningSimulator | null = null;

afterEach(async () => {
  await sim?.stop();
  sim = null;
});

describe('sample time stamps', () => {
  it('are wall-clock time even when the pacing clock lags it by an hour of sleep', async () => {
    sim = await startSimulator({ port: 0, catalogSize: 50 });
    // The monotonic clock as it reads after an hour of sleep: an hour behind the wall clock.
    const clock: Clock = { ...systemClock, now: () => systemClock.now() - SLEPT_MS, wallNow: () => Date.now() };
    const client = new PartnerClient({ baseUrl: sim.url, vendor: 'demo', tokens: ['demo-token-1'], budgets: new BudgetRegistry({ clock }), clock });
    const samples: BudgetSample[] = [];
    client.onSample((s) => samples.push(s));
    const before = Date.now();
    await client.request('categories');
    const after = Date.now();
    client.close();
    expect(samples).toHaveLength(1);
    expect(samples[0]!.at).toBeGreaterThanOrEqual(before);
    expect(samples[0]!.at).toBeLessThanOrEqual(after);
    expect(samples[0]!.latencyMs).toBeLessThan(after - before + 1);
    // The server's Date second is the wall clock's too.
    expect(Math.abs(samples[0]!.serverSecond! - samples[0]!.at)).toBeLessThan(2000);
  });
});
