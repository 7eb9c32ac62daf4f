/**
 * The guess of where the server's seconds fall while the Date headers still say little: the point of
 * the bounds' middle half nearest to agreed clocks; narrow bounds: their middle.
 */
import { describe, expect, it } from 'vitest';
import { ServerClock, WIDE_BOUNDS_MS } from '../../electron/client/server-clock';

const S = 1_735_732_800_000; // a whole second, local time = server time

describe('the server clock guess', () => {
  it('a fleet started 50 ms after a whole second: the next second is guessed near where agreed clocks put it, not half a second early', () => {
    const c = new ServerClock();
    // Answers sent at S+50 and S+428, both dated S: the offset is in [-56, 572], its middle 258 ms.
    c.observe(S + 50, S + 56, S);
    c.observe(S + 428, S + 432, S);
    // The middle half [101, 415]: its point nearest to 0. The budget ran out at S+432: the next
    // second is guessed at S+899 (it is at S+1000), where the middle says S+742.
    expect(c.offsetGuess()).toBeCloseTo(101, 0); // the bounds widen by 100 ppm as time passes
    expect(c.phaseOf(S, S + 432)).toBeCloseTo(0.533, 3);
  });

  it('keeps to the middle half of wide bounds where agreed clocks lie outside it (a clock far off still narrows them)', () => {
    const c = new ServerClock();
    // Only one answer, 6 ms after S+50: offset in [-56, 950], middle 447, middle half [195.5, 698.5].
    c.observe(S + 50, S + 56, S);
    expect(c.offsetGuess()).toBeCloseTo(195.5, 0);
  });

  it('narrow bounds: their middle, whatever agreed clocks would say', () => {
    const c = new ServerClock();
    // The server's clock 300 ms ahead: a Date turning between two answers 10 ms apart pins it.
    c.observe(S + 690, S + 695, S); // server S+990..S+995: second S
    c.observe(S + 702, S + 706, S + 1000); // server S+1002..: second S+1
    // The offset is in [294, 310], narrower than WIDE_BOUNDS_MS: its middle.
    expect(310 - 294).toBeLessThan(WIDE_BOUNDS_MS);
    expect(c.offsetGuess()).toBeCloseTo(302, 0);
  });

  it('nothing before the first Date', () => {
    expect(new ServerClock().offsetGuess()).toBeNull();
  });
});
