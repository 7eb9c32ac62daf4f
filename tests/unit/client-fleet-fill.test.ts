/**
 * The leftover of a whole-second budget: where the others' forecast leaves part of the server second
 * unused and our next paced request falls in the next second, our part of it goes late in this second,
 * beside the pacing (the budget comes back whole at the boundary, so an unused slot is lost). Pure
 * FairShare on hand-made answers (the issue's short workload on the fleet model: client-fleet-start.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { FairShare } from '../../electron/client/fair-share';
import { FAIR_SHARE } from '../../electron/client/fair-share-params';
import { serverSecond } from '../helpers/whole-second-answers';

const LIMIT = 20;
const T0 = 1_000_000;

/** One server second at our pace beside others spending `others` a second (tests/helpers/whole-second-answers.ts). */
const second = (s: FairShare, k: number, others: number): void => serverSecond(s, { t0: T0, limit: LIMIT }, k, others);

describe('the leftover of a whole-second budget', () => {
  it('goes late in the second when our next paced request is in the next one, and the pacing goes on from our last paced request', () => {
    const s = new FairShare(() => LIMIT, T0);
    for (let k = 0; k < 12; k++) second(s, k, 16);
    const rate = s.rate(T0 + 12_000);
    expect(rate).toBeLessThan(6);
    // Second 12: the others spent only 5 so far (copies finished); our last paced request of the second is answered at phase 0.85.
    const k = 12;
    const last = T0 + k * 1000 + 850;
    s.sent(last - 5);
    s.answered({ at: last, refused: false, remaining: LIMIT - 1 - 5, aloneFloor: LIMIT - 1, phase: 0.85 });
    const paced = last - 5 + 1000 / s.rate(last);
    expect(paced).toBeGreaterThan(T0 + (k + 1) * 1000);
    const fill = s.earliest(last);
    expect(fill).toBeGreaterThanOrEqual(T0 + k * 1000 + FAIR_SHARE.fillFromPhase * 1000);
    expect(fill).toBeLessThanOrEqual(T0 + k * 1000 + FAIR_SHARE.fillToPhase * 1000);
    s.sent(fill);
    s.answered({ at: fill + 5, refused: false, remaining: LIMIT - 2 - 5, aloneFloor: LIMIT - 2, phase: (fill + 5 - T0 - k * 1000) / 1000 });
    // The fill did not move the pacing: the next regular request is where it was.
    expect(s.earliest(T0 + k * 1000 + 960)).toBeCloseTo(paced, 3);
  });

  it("is one request per reading: a second fill waits for the first one's answer (a queue would otherwise send up to Remaining at once)", () => {
    const s = new FairShare(() => LIMIT, T0);
    for (let k = 0; k < 12; k++) second(s, k, 16);
    const last = T0 + 12_000 + 850;
    s.sent(last - 5);
    s.answered({ at: last, refused: false, remaining: LIMIT - 1 - 5, aloneFloor: LIMIT - 1, phase: 0.85 });
    const paced = last - 5 + 1000 / s.rate(last);
    const fill = s.earliest(last);
    expect(fill).toBeLessThan(T0 + 13_000);
    s.sent(fill);
    // Asked again at once (another request queued), before the fill is answered: the pacing's time, not a second fill.
    expect(s.earliest(fill)).toBeCloseTo(paced, 3);
  });

  it("reaches the server inside the window whenever it is asked: the phase is read at the request's midpoint, the fill arrives half a round trip after it leaves", () => {
    const rtt = 40;
    const s = new FairShare(() => LIMIT, T0);
    for (let k = 0; k < 12; k++) serverSecond(s, { t0: T0, limit: LIMIT, roundTripMs: rtt }, k, 16);
    // Our last paced request of second 12 was processed at phase 0.85; its answer came back half a round trip later.
    const mid = T0 + 12_000 + 850;
    s.sent(mid - rtt / 2);
    s.answered({ at: mid + rtt / 2, refused: false, remaining: LIMIT - 1 - 5, aloneFloor: LIMIT - 1, phase: 0.85, roundTripMs: rtt });
    const paced = mid - rtt / 2 + 1000 / s.rate(mid);
    expect(paced).toBeGreaterThan(T0 + 13_000 + rtt / 2);
    const fills = [0, 20, 40, 60, 75].map((d) => mid + rtt / 2 + d).filter((now) => s.earliest(now) < paced);
    expect(fills.length).toBeGreaterThan(0);
    for (const now of fills) {
      const arrives = s.earliest(now) + rtt / 2;
      expect(arrives).toBeGreaterThanOrEqual(T0 + 12_000 + FAIR_SHARE.fillFromPhase * 1000);
      expect(arrives).toBeLessThanOrEqual(T0 + 12_000 + FAIR_SHARE.fillToPhase * 1000);
    }
  });

  it("is not sent by a copy that resumed from a failed budget store's share (the whole fleet resumed at once, with no header history)", () => {
    const s = new FairShare(() => LIMIT, T0);
    s.resume(T0, 4);
    for (let k = 0; k < 12; k++) second(s, k, 16);
    const last = T0 + 12_000 + 850;
    s.sent(last - 5);
    s.answered({ at: last, refused: false, remaining: LIMIT - 1 - 5, aloneFloor: LIMIT - 1, phase: 0.85 });
    expect(s.earliest(last)).toBeGreaterThan(T0 + 13_000);
  });

  it('is left alone where the others leave none of it', () => {
    const s = new FairShare(() => LIMIT, T0);
    for (let k = 0; k < 12; k++) second(s, k, 16);
    const last = T0 + 12_000 + 850;
    s.sent(last - 5);
    s.answered({ at: last, refused: false, remaining: 3, aloneFloor: LIMIT - 1, phase: 0.85 });
    expect(s.earliest(last)).toBeGreaterThan(T0 + 13_000);
  });
});

describe('beside a budget store that sees consumers outside it (deferral only)', () => {
  it("sends a slot's request now where the server second has budget left for it: the store's schedule is the pace", () => {
    const s = new FairShare(() => LIMIT, T0);
    for (let k = 0; k < 12; k++) second(s, k, 16);
    const at = T0 + 12_000 + 500;
    s.sent(at - 5);
    s.answered({ at, refused: false, remaining: 12, aloneFloor: LIMIT - 1, phase: 0.5 });
    expect(s.deferral(at)).toBe(at);
    // The pacing alone would have spaced it by our own rate.
    expect(s.earliest(at)).toBeGreaterThan(at + 100);
  });

  it('keeps it out of a server second whose budget the others are forecast to spend first', () => {
    const s = new FairShare(() => LIMIT, T0);
    for (let k = 0; k < 12; k++) second(s, k, 16);
    const at = T0 + 12_000 + 850;
    s.sent(at - 5);
    s.answered({ at, refused: false, remaining: 2, aloneFloor: LIMIT - 1, phase: 0.85 });
    // At once, the 2 left are ours to take; 60 ms later the others' 16 a second have spent them.
    expect(s.deferral(at)).toBe(at);
    expect(s.deferral(at + 60)).toBeGreaterThan(T0 + 13_000);
  });

  it('says nothing while nobody else was seen', () => {
    const s = new FairShare(() => LIMIT, T0);
    expect(s.deferral(T0 + 10)).toBe(T0 + 10);
  });
});
