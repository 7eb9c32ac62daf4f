/**
 * How late the budget store's answer was read. A slot is due on Redis's clock, but a worker learns of
 * it only when it reads the answer; on a busy machine that can be hundreds of ms after Redis wrote it.
 * Counted from the reading, such a slot looks on time while it is long past, and the request reaches
 * the service in a second the fleet's other slots have filled (a 429 for one of us). Measured against
 * the quickest answer of the last few seconds: read as quickly, this one would have been read as much
 * later as Redis's clock advanced between the two. Path delays common to every answer (a distant Redis)
 * are in the quickest answer too, so they are no lag.
 */

/**
 * Answers older than this are no reference: our monotonic clock and Redis's wall clock drift apart while
 * NTP slews the latter (at most 0.5 ms a second: 2.5 ms here, under the spread's floor).
 */
export const LAG_REFERENCE_MS = 5_000;
/** At most this many of them are kept (bounded work per answer; a whole fleet's limit over the window). */
const READINGS_KEPT = 256;

interface Reading {
  /** Local time the answer was read. */
  readAt: number;
  /** The store's clock when it answered. */
  storeNow: number;
  /** From ask to reading. */
  roundTripMs: number;
}

export class AnswerLag {
  private readings: Reading[] = [];

  /**
   * The lag of an answer asked at `askedAt`, read at `readAt`, given at `storeNow` on the store's clock:
   * how much later it was read than the quickest recent answer would have been. Never below 0, nor
   * above its round trip's excess over the quickest (the store answered after the ask, whatever either
   * clock says: a clock step costs no more than that).
   */
  measure(askedAt: number, readAt: number, storeNow: number): number {
    const roundTripMs = Math.max(0, readAt - askedAt);
    // Read on a monotonic clock, so the oldest readings are at the front.
    while (this.readings.length > 0 && readAt - this.readings[0]!.readAt > LAG_REFERENCE_MS) this.readings.shift();
    this.readings.push({ readAt, storeNow, roundTripMs });
    if (this.readings.length > READINGS_KEPT) this.readings.shift();
    const quickest = this.readings.reduce((q, r) => (r.roundTripMs < q.roundTripMs ? r : q));
    const lag = readAt - (quickest.readAt + (storeNow - quickest.storeNow));
    return Math.min(Math.max(0, lag), roundTripMs - quickest.roundTripMs);
  }
}
