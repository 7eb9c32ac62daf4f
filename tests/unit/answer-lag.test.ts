/**
 * A budget store's answer read late is a slot due earlier than it looks: measured against the quickest
 * recent answer, and given up by the bucket when past its grace (a 429 for one of the fleet otherwise).
 */
import { describe, expect, it } from 'vitest';
import { AnswerLag, LAG_REFERENCE_MS } from '../../electron/client/answer-lag';
import { BudgetBucket } from '../../electron/client/budget-bucket';
import type { FleetSlotStore, Slot } from '../../electron/client/fleet-slot-store';
import { ServerClock } from '../../electron/client/server-clock';
import { ManualClock } from '../../electron/client/testing';

const T = 1_736_000_000_000;

describe('AnswerLag', () => {
  it('an answer read 200 ms later than the quickest would have been has a lag of 200 ms', () => {
    const lag = new AnswerLag();
    // Quickest: asked at T, Redis answered at its T+1, read at T+2.
    expect(lag.measure(T, T + 2, T + 1)).toBe(0);
    // Asked at T+1000, Redis answered at once (its T+1001), read at T+1202: 200 ms later than T+1002.
    expect(lag.measure(T + 1000, T + 1202, T + 1001)).toBe(200);
  });

  it('a slow ask is no lag: Redis answered late, and the answer was read as quickly as ever', () => {
    const lag = new AnswerLag();
    lag.measure(T, T + 2, T + 1);
    expect(lag.measure(T + 1000, T + 1202, T + 1201)).toBe(0);
  });

  it('a distant store is no lag: every answer takes its 50 ms, and the clocks may differ by hours', () => {
    const lag = new AnswerLag();
    const offset = -3_600_000;
    for (let i = 0; i < 20; i++) expect(lag.measure(T + i * 500, T + i * 500 + 50 + (i % 3), T + i * 500 + 25 + offset)).toBeLessThanOrEqual(2);
  });

  it("a step of either clock costs at most the round trip's excess over the quickest", () => {
    const lag = new AnswerLag();
    lag.measure(T, T + 2, T + 1);
    // Redis's clock stepped back an hour: read 30 ms after the ask, so at most 28 ms late.
    expect(lag.measure(T + 1000, T + 1030, T + 1001 - 3_600_000)).toBe(28);
    // Stepped ahead: never below 0.
    expect(lag.measure(T + 2000, T + 2002, T + 2001 + 3_600_000)).toBe(0);
  });

  it('the reference is the quickest of the last few seconds only', () => {
    const W = LAG_REFERENCE_MS;
    const lag = new AnswerLag();
    lag.measure(T, T + 1, T + 1); // quickest, then forgotten
    lag.measure(T + W / 2, T + W / 2 + 40, T + W / 2 + 20);
    // Within the window, the 1 ms answer is the reference: read 20 ms late.
    expect(lag.measure(T + W - 1_000, T + W - 960, T + W - 980)).toBe(20);
    // Past it, the 40 ms answers are: on time.
    expect(lag.measure(T + W + 1_000, T + W + 1_040, T + W + 1_020)).toBe(0);
  });

  it('keeps a bounded number of readings: under a flood of answers the oldest quick one goes', () => {
    const lag = new AnswerLag();
    lag.measure(T, T + 1, T + 1);
    let last = -1;
    for (let i = 1; i <= 300; i++) last = lag.measure(T + i, T + i + 40, T + i + 20);
    expect(last).toBe(0);
  });
});

describe('BudgetBucket: a slot whose answer was read late', () => {
  /** A bucket on a store that answers each reservation with the next of `slots`; how many it asked for. */
  async function firstSendWith(slots: Slot[]) {
    const clock = new ManualClock(T);
    const bucket = new BudgetBucket('http://x', 'v', 'listAssets', 20, clock, new ServerClock());
    let asked = 0;
    const store = {
      reserve: async () => slots[Math.min(asked++, slots.length - 1)]!,
      status: () => ({ state: 'connected', where: 'redis://test' }),
    } as unknown as FleetSlotStore;
    const slotsOf = { store: () => store, sleep: (ms: number) => clock.advance(ms), closed: () => false };
    const ticket = await bucket.acquire({ priority: 'interactive', owner: {}, slots: slotsOf });
    return { asked, sentAt: ticket.sentAt - T };
  }

  it('is given up when read past its grace (it was due long ago): the next slot is used', async () => {
    // Due now by the answer, read 200 ms late; grace 25 ms. Then a slot 300 ms off, read on time.
    expect(
      await firstSendWith([
        { waitMs: 0, graceMs: 25, lateMs: 200 },
        { waitMs: 300, graceMs: 25, lateMs: 0 },
      ]),
    ).toEqual({ asked: 2, sentAt: 300 });
  });

  it('is used when read late within its grace, and a late slot still ahead is slept for the rest only', async () => {
    expect(await firstSendWith([{ waitMs: 0, graceMs: 25, lateMs: 10 }])).toEqual({ asked: 1, sentAt: 0 });
    expect(await firstSendWith([{ waitMs: 300, graceMs: 25, lateMs: 100 }])).toEqual({ asked: 1, sentAt: 200 });
  });
});
