/**
 * The server's Remaining as a bound for the whole-second model: R, less our requests that may have
 * been processed after the answer that reported it, until the server's second changes.
 *
 * It only has to be right when the server IS whole-second (the continuous bounds cover the other
 * case), and then Remaining falls strictly in processing order within one server second: an answer
 * of the same second with a higher Remaining, or a 429 (a refusal takes nothing), was processed
 * before the basis and stops counting against it. With several requests in flight and answers
 * arriving out of order this removes the double counting that would otherwise strand the last few
 * slots of every second. The basis is the answer with the lowest Remaining of the latest second:
 * the latest state, consumption by others included.
 */
export interface AnswerFact {
  id: number;
  seq: number;
  sentAt: number;
  receivedAt: number;
  /** Whole server second (epoch ms) from Date, or null. */
  window: number | null;
  /** Remaining as read (0 for a 429), or null when unreadable. */
  remaining: number | null;
  refused: boolean;
}

export class WindowBasis {
  private constructor(
    readonly remaining: number,
    readonly window: number | null,
    readonly receivedAt: number,
    readonly seq: number,
    private readonly after: Set<number>,
    private phantoms: number,
  ) {}

  /**
   * A basis on answer x. `pending`: our requests in flight now. `recent`: answers that arrived
   * while x was in flight may have been processed after x, unless provably before it.
   */
  static on(x: AnswerFact, remaining: number, pending: Iterable<number>, recent: readonly AnswerFact[]): WindowBasis {
    let phantoms = 0;
    for (const q of recent) {
      if (q.id === x.id || q.receivedAt <= x.sentAt || q.refused) continue;
      const before = x.window !== null && q.window === x.window && q.remaining !== null && q.remaining > remaining;
      if (!before) phantoms++;
    }
    return new WindowBasis(remaining, x.window, x.receivedAt, x.seq, new Set(pending), phantoms);
  }

  /** Slots left in the basis's second, as far as our requests go. */
  value(): number {
    return this.remaining - this.after.size - this.phantoms;
  }

  sent(id: number): void {
    this.after.add(id);
  }

  refunded(id: number): void {
    this.after.delete(id);
  }

  /** Answer x of one of our requests: drop it if it was provably processed before the basis. */
  answered(x: AnswerFact): void {
    if (!this.after.has(x.id)) return;
    const otherSecond = x.window !== null && this.window !== null && x.window < this.window;
    const before = x.window !== null && x.window === this.window && x.remaining !== null && x.remaining > this.remaining;
    if (x.refused || otherSecond || before) this.after.delete(x.id);
  }
}
