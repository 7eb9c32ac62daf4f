/**
 * The bucket snapshot's times are for people (the Budget view compares them with Date.now()): wall
 * time, though the client paces on a monotonic clock that falls behind it by the time the computer slept.
 */
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../shared/clock';
import { BudgetBucket } from '../../electron/client/budget-bucket';
import { ServerClock } from '../../electron/client/server-clock';
import { ManualClock, answerAttempt } from '../../electron/client/testing';

const SLEPT_MS = 3_600_000;

/** The manual clock, its wall clock an hour ahead: the computer slept an hour since the process started. */
function afterSleep(clock: ManualClock): Clock {
  return {
    now: () => clock.now(),
    wallNow: () => clock.now() + SLEPT_MS,
    setTimeout: (fn, ms) => clock.setTimeout(fn, ms),
    clearTimeout: (handle) => clock.clearTimeout(handle),
  };
}

describe('bucket snapshot times', () => {
  it('pausedUntil and resetAt are wall time, after the computer slept', async () => {
    const manual = new ManualClock();
    const clock = afterSleep(manual);
    const bucket = new BudgetBucket('http://x', 'v', 'listAssets', 20, clock, new ServerClock());
    const ticket = await bucket.acquire({ priority: 'interactive', owner: {} });
    const at = manual.now() + 40;
    await manual.advance(40);
    bucket.settle(answerAttempt({ ticket, at, status: 200, rate: { limit: 20, remaining: 5, reset: 3, problems: [] } }), () => 0);
    bucket.pauseUntil(manual.now() + 2_000);
    const snap = bucket.snapshot();
    const wallNow = clock.wallNow!();
    expect(snap.pausedUntil).toBe(wallNow + 2_000);
    expect(snap.resetAt).toBe(wallNow + 3_000);
  });

  it('without a wall clock (tests, the simulator) they are the clock’s own times', () => {
    const clock = new ManualClock();
    const bucket = new BudgetBucket('http://x', 'v', 'listAssets', 20, clock, new ServerClock());
    bucket.pauseUntil(clock.now() + 2_000);
    expect(bucket.snapshot().pausedUntil).toBe(clock.now() + 2_000);
  });
});
