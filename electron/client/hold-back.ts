/**
 * What the header model (header-model.ts) remembers of refusals and of others' use, to hold slots
 * back: one while Remaining lately fell faster than our own requests explain, more after recent 429s
 * (never more than a quarter of the limit). It also counts the 429s in a row, which the bucket's
 * pause after a 429 grows with.
 */
const FOREIGN_MEMORY_MS = 15_000;
const RATE_LIMITED_MEMORY_MS = 10_000;

export class HoldBack {
  private lastForeignAt = -Infinity;
  private rateLimitedAt: number[] = [];
  private streak = 0;

  /** An answer of ours arrived at `at`: a 429, or anything else (which ends a run of 429s). */
  answered(refused: boolean, at: number): void {
    if (refused) {
      this.streak++;
      this.rateLimitedAt.push(at);
    } else {
      this.streak = 0;
    }
  }

  /** An answer at `at` showed others spending this budget. */
  othersSeen(at: number): void {
    this.lastForeignAt = at;
  }

  /** Consecutive 429s (reset by any other answer). */
  get refusalsInRow(): number {
    return this.streak;
  }

  /** Slots held back now. */
  slots(now: number, limit: number): number {
    let m = now - this.lastForeignAt < FOREIGN_MEMORY_MS ? 1 : 0;
    this.rateLimitedAt = this.rateLimitedAt.filter((at) => now - at < RATE_LIMITED_MEMORY_MS);
    m += Math.min(2, this.rateLimitedAt.length);
    return Math.min(m, Math.floor(limit / 4));
  }
}
