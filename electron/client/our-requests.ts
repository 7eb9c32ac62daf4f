/**
 * Our own requests of one budget, as the header model (header-model.ts) counts them: in flight,
 * abandoned but possibly still on their way (a timeout, an abort), and recently answered (to spot
 * answers that overtook one another).
 */
import { SLIDING_SLACK_MS } from './recent-sends';
import type { AnswerFact } from './window-basis';

export interface Ticket {
  readonly id: number;
  /** Send order within the bucket. */
  readonly seq: number;
  readonly sentAt: number;
}

/** A request we abandoned (timeout, abort) may still reach the server a little later. */
export const ABANDONED_LINGER_MS = 1_000;

let nextTicketId = 1;

export class OurRequests {
  private seq = 0;
  private readonly inFlight = new Map<number, Ticket>();
  /** Abandoned requests, counted as pending until `at`. */
  private lingering: { ticket: Ticket; at: number }[] = [];
  private log: AnswerFact[] = [];

  send(now: number): Ticket {
    const ticket: Ticket = { id: nextTicketId++, seq: ++this.seq, sentAt: now };
    this.inFlight.set(ticket.id, ticket);
    return ticket;
  }

  /** The ticket's answer or failure is in: false when it was not in flight (settled already). */
  land(ticket: Ticket): boolean {
    return this.inFlight.delete(ticket.id);
  }

  /** We gave up on it ourselves: it may still be counted until ABANDONED_LINGER_MS from now. */
  abandon(ticket: Ticket, now: number): void {
    this.lingering.push({ ticket, at: now + ABANDONED_LINGER_MS });
  }

  /** Abandoned requests whose linger time passed by `now`, taken out: they count as consumed at their `at`. */
  takeDue(now: number): { ticket: Ticket; at: number }[] {
    if (this.lingering.length === 0) return [];
    const due = this.lingering.filter((l) => l.at <= now);
    if (due.length > 0) this.lingering = this.lingering.filter((l) => l.at > now);
    return due;
  }

  /** When the first abandoned one counts as consumed (Infinity: none lingers). */
  get lingerEndsAt(): number {
    return this.lingering.length > 0 ? Math.min(...this.lingering.map((l) => l.at)) : Infinity;
  }

  /** In flight or lingering. */
  get count(): number {
    return this.inFlight.size + this.lingering.length;
  }

  /** Ids that may still be counted: in flight, or abandoned and lingering. */
  pendingIds(): number[] {
    return [...this.inFlight.keys(), ...this.lingering.map((l) => l.ticket.id)];
  }

  /** Recent answers, oldest first. */
  get answered(): readonly AnswerFact[] {
    return this.log;
  }

  /**
   * Remaining answer x would show in the whole-second model if we were alone: the limit less our
   * requests that may share its server second (this one, those in flight, and those answered in it).
   */
  aloneInSecond(x: AnswerFact, limit: number): number {
    const sameSecond = this.log.filter(
      (a) => !a.refused && (x.window !== null ? a.window === x.window : a.receivedAt > x.receivedAt - 1000 - SLIDING_SLACK_MS),
    ).length;
    return limit - 1 - this.count - sameSecond;
  }

  logAnswer(fact: AnswerFact): void {
    this.log.push(fact);
    if (this.log.length > 256) this.log = this.log.slice(-128);
  }
}
