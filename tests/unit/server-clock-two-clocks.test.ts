/**
 * Date headers from two clocks: backends behind a load balancer taking turns, or a clock that steps.
 * The clock believed is kept until another is the only one answering; and a basis of the whole-second
 * bound never holds the budget longer than a second after its answer, whatever clock is believed since.
 */
import { describe, expect, it } from 'vitest';
import { ServerBounds } from '../../electron/client/server-bounds';
import { ServerClock } from '../../electron/client/server-clock';
import type { AnswerFact } from '../../electron/client/window-basis';

const T = 1_735_732_800_337; // local time = true server time
const HOUR = 3_600_000;

/** One answer sent at `sentAt`, back 2 ms later, dated `skewMs` off the true server time. */
function answer(clock: ServerClock, sentAt: number, skewMs = 0): { sentAt: number; receivedAt: number; dateMs: number; believed: boolean } {
  const receivedAt = sentAt + 2;
  const dateMs = sentAt + 1 + skewMs;
  return { sentAt, receivedAt, dateMs, believed: clock.believe(sentAt, receivedAt, dateMs) };
}

describe('two clocks in the Date headers', () => {
  it.each([HOUR, -HOUR, 10_000, -10_000])('alternating with one %i ms off: the one believed first stays, the other is never believed', (skewMs) => {
    const clock = new ServerClock();
    const believed = Array.from({ length: 40 }, (_, i) => answer(clock, T + i * 50, i % 2 ? skewMs : 0).believed);
    expect(believed.filter((b, i) => i % 2 === 1 && b)).toEqual([]);
    expect(believed.filter((b, i) => i % 2 === 0 && !b)).toEqual([]);
    expect(Math.abs(clock.offsetGuess()!)).toBeLessThan(1_000);
  });

  it('a clock that steps for good is believed from its third answer on', () => {
    const clock = new ServerClock();
    for (let i = 0; i < 5; i++) expect(answer(clock, T + i * 50).believed).toBe(true);
    const after = Array.from({ length: 5 }, (_, i) => answer(clock, T + 250 + i * 50, -10_000).believed);
    expect(after).toEqual([false, false, true, true, true]);
    expect(clock.offsetGuess()).toBeLessThan(-9_000);
  });

  it("a spent second is no longer held once the clock stepped back an hour, and the new clock's answers become the basis", () => {
    const clock = new ServerClock();
    const bounds = new ServerBounds(clock, 20);
    for (let i = 0; i < 3; i++) answer(clock, T + i * 50);
    const spent = answer(clock, T + 150);
    const fact = (id: number, a: ReturnType<typeof answer>, remaining: number): AnswerFact => ({
      id,
      seq: id,
      sentAt: a.sentAt,
      receivedAt: a.receivedAt,
      window: a.believed ? Math.floor(a.dateMs / 1000) * 1000 : null,
      remaining,
      refused: false,
    });
    bounds.rebase(fact(1, spent, 0), 0, [], []);
    // The backend answering from now on is an hour behind; the clock believes it from its third answer.
    const steps = [0, 1, 2].map((i) => answer(clock, T + 200 + i * 50, -HOUR));
    expect(steps.map((a) => a.believed)).toEqual([false, false, true]);
    const now = T + 400;
    expect(bounds.hold(now, 'budget', 1, now, 20).at).toBeLessThanOrEqual(spent.receivedAt + 1_000 + 20);
    // An answer sent after the spent second surely ended is the basis now: a lower Remaining in its second shows others.
    const next = answer(clock, spent.receivedAt + 1_100, -HOUR);
    bounds.rebase(fact(2, next, 19), 19, [], []);
    const sameSecond = answer(clock, next.sentAt + 10, -HOUR);
    expect(bounds.showsOthers(fact(3, sameSecond, 10))).toBe(true);
  });
});
