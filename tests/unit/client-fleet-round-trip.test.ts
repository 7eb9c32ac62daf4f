/**
 * A whole-second budget across a network: an answer's phase is read at its request's midpoint, and
 * our next request reaches the server half a round trip after it leaves. The deferral decides on the
 * budget as the server will see it when ours lands: the others' requests until then, and the server
 * second it lands in. Pure FairShare on hand-made answers (the fleet over a network on the model:
 * client-fleet-start.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { FairShare } from '../../electron/client/fair-share';
import { FAIR_SHARE } from '../../electron/client/fair-share-params';
import { serverSecond } from '../helpers/whole-second-answers';

const LIMIT = 20;
const T0 = 1_000_000;
/** Second 12, after twelve seconds beside others spending 16 a second. */
const K = 12;

/**
 * A copy paced beside others (its answers' round trips `usual`, by default `rtt`), then one answer of ours processed at
 * `phase` of second 12 (at `mid`) after a round trip of `rtt`; `paced`: when the pacing alone lets the next go.
 */
function afterReading(rtt: number, phase: number, remaining: number, usual = rtt): { s: FairShare; mid: number; now: number; paced: number } {
  const s = new FairShare(() => LIMIT, T0);
  for (let k = 0; k < K; k++) serverSecond(s, { t0: T0, limit: LIMIT, roundTripMs: usual }, k, 16);
  const mid = T0 + K * 1000 + phase * 1000;
  s.sent(mid - rtt / 2);
  const now = mid + rtt / 2;
  s.answered({ at: now, refused: false, remaining, aloneFloor: LIMIT - 1, phase, roundTripMs: rtt });
  return { s, mid, now, paced: Math.max(now, mid - rtt / 2 + 1000 / s.rate(now)) };
}

describe('the deferral across a network', () => {
  it("counts the others' requests until ours lands, whatever the round trip: the same Remaining gets the same decision at 2 ms and at 200 ms", () => {
    const deferred = (rtt: number, remaining: number): boolean => {
      const { s, now, paced } = afterReading(rtt, 0.3, remaining);
      return s.earliest(now) > paced + 1;
    };
    const near = Array.from({ length: LIMIT }, (_, remaining) => deferred(2, remaining));
    const far = Array.from({ length: LIMIT }, (_, remaining) => deferred(200, remaining));
    // Some Remaining defers and some does not: the comparison says something.
    expect(near).toContain(true);
    expect(near).toContain(false);
    expect(far).toEqual(near);
  });

  it("does not hold a request that lands in the next server second for the spent one's budget", () => {
    const rtt = 200;
    const phase = 0.8;
    const { s, mid, now, paced } = afterReading(rtt, phase, 0);
    const turn = mid + (1 - phase) * 1000;
    // Sent before the turn on our clock, it reaches the server after it.
    expect(paced).toBeLessThan(turn);
    expect(paced + rtt / 2).toBeGreaterThan(turn);
    expect(s.earliest(now)).toBeCloseTo(paced, 3);
  });

  it('sends a deferred request to land just after the turn, not a round trip later', () => {
    const rtt = 400;
    const phase = 0.3;
    const { s, mid, now, paced } = afterReading(rtt, phase, 0);
    const turn = mid + (1 - phase) * 1000;
    const at = s.earliest(now);
    expect(at).toBeGreaterThan(paced);
    const lands = at + rtt / 2;
    expect(lands).toBeGreaterThanOrEqual(turn + FAIR_SHARE.nextSecondGuardMs);
    // Spread over at most one interval of our pace (the copies that wait do not all come at once).
    expect(lands).toBeLessThanOrEqual(turn + FAIR_SHARE.nextSecondGuardMs + 1000 / s.rate(now));
  });

  it('does not take one slow answer for the next way out: a deferral after it still lands after the turn', () => {
    // Round trips of 50 ms, then one of 400 (a busy server, a stalled process): our next request still
    // reaches the server about 25 ms after it leaves, not 200.
    const rtt = 400;
    const phase = 0.5;
    const { s, mid, now } = afterReading(rtt, phase, 0, 50);
    const turn = mid + (1 - phase) * 1000;
    expect(s.earliest(now) + 50 / 2).toBeGreaterThanOrEqual(turn);
  });
});
