/**
 * The budget model of one (vendor, endpoint) bucket: may we send now, and if not, when?
 *
 * The server runs one of two refill models (spec/server-behaviour.md) and does not say which:
 * whole-second fixed windows aligned to its clock (2N can pass across a boundary; a refusal
 * re-stamps), or a continuous leaky bucket. A send is allowed only when it is safe under BOTH, so we
 * keep a lower bound of the allowance under each model and take the minimum of four bounds:
 *
 *   own, continuous   RefillBound from our own sends alone (full at start, N/s refill).
 *   own, whole-second RecentSends: at most N of ours in flight or answered within the last second.
 *                     Both hold whatever any header says, so hostile or garbled headers can never
 *                     push us over the limit; alone, they are exact enough to run at N per second.
 *   server, continuous RefillBound re-based on the latest response's Remaining (R at its arrival,
 *                     less every request of ours that may not be counted in R yet).
 *   server, window    R less what we sent since, until the server's second surely changed (learnt
 *                     from Date, plus a guard; without Date, one second after the answer).
 *
 * The server bounds follow Remaining, so consumption by others (another process, another consumer
 * of the vendor) slows us as soon as a header shows it; when Remaining falls faster than our own
 * requests explain, a margin of one slot (more after 429s) is kept back for a few seconds.
 * Right after the window of an exhausted budget ends, the continuous bound still limits us to the
 * refill since then, so the first request after the wait works as a probe: its Remaining re-bases
 * both server bounds (N-1 in whole-second, the true level in continuous) and the rest follows at
 * full speed. In steady state this runs at N per (1000 ms + one round trip) in both models.
 *
 * Pure: every method takes the local time; no timers here.
 */
import type { RateLimitHeaders } from '../../shared/rate-limit';
import { RecentSends } from './recent-sends';
import { RefillBound } from './refill-bound';
import type { ServerClock } from './server-clock';

export interface Ticket {
  readonly id: number;
  /** Send order within the bucket. */
  readonly seq: number;
  readonly sentAt: number;
}

export interface AnswerInfo {
  receivedAt: number;
  status: number;
  rate: RateLimitHeaders;
  /** The server's Date header in epoch ms, or null. */
  dateMs: number | null;
}

export interface BucketModelOptions {
  /** Documented limit (endpoint table); the server's Limit header may lower it, never raise it. */
  limit: number;
  now: number;
  serverClock: ServerClock;
  /** Added after the server's second surely changed, for latency and clock quirks. */
  guardMs?: number;
}

/** Basis from the freshest response's headers. */
interface ServerBasis {
  remaining: number;
  receivedAt: number;
  /** Whole server second (epoch ms) from the Date header, or null. */
  window: number | null;
  seq: number;
  cont: RefillBound;
  /** Our requests since the basis (incl. those in flight at it): counted against `remaining`. */
  spent: number;
}

const FOREIGN_MEMORY_MS = 5_000;
const RATE_LIMITED_MEMORY_MS = 10_000;
/** A request we abandoned (timeout, abort) may still reach the server a little later. */
export const ABANDONED_LINGER_MS = 1_000;

let nextTicketId = 1;

export class BucketModel {
  readonly documentedLimit: number;
  private adoptedLimit: number | null = null;
  private lastLimitHeader: number | null = null;
  private readonly serverClock: ServerClock;
  private readonly guardMs: number;
  private readonly ownCont: RefillBound;
  private readonly recent = new RecentSends();
  private server: ServerBasis | null = null;
  private readonly inFlight = new Map<number, Ticket>();
  /** Abandoned requests, counted as pending until `at`. */
  private lingering: { ticket: Ticket; at: number }[] = [];
  /** Recently answered: seq and arrival, to spot answers overtaken by a later-sent one. */
  private answeredLog: { seq: number; at: number }[] = [];
  private seq = 0;
  private pausedUntilMs = 0;
  private streak = 0;
  private lastForeignAt = -Infinity;
  private rateLimitedAt: number[] = [];
  private lastRate: { rate: RateLimitHeaders; receivedAt: number } | null = null;

  constructor(options: BucketModelOptions) {
    this.documentedLimit = Math.max(1, Math.floor(options.limit));
    this.serverClock = options.serverClock;
    this.guardMs = options.guardMs ?? 20;
    this.ownCont = new RefillBound(this.documentedLimit, options.now);
  }

  /** The limit we pace at: the documented one, or a lower one the server insists on. */
  get limit(): number {
    return this.adoptedLimit === null ? this.documentedLimit : Math.min(this.documentedLimit, this.adoptedLimit);
  }

  get inFlightCount(): number {
    return this.inFlight.size + this.lingering.length;
  }

  get pausedUntil(): number {
    return this.pausedUntilMs;
  }

  /** Consecutive 429s (reset by any other answer). */
  get rateLimitStreak(): number {
    return this.streak;
  }

  // ---- events ----

  send(now: number): Ticket {
    this.advance(now);
    const ticket: Ticket = { id: nextTicketId++, seq: ++this.seq, sentAt: now };
    this.inFlight.set(ticket.id, ticket);
    this.ownCont.add(ticket.id);
    this.recent.add(ticket.id);
    if (this.server) {
      this.server.cont.add(ticket.id);
      this.server.spent++;
    }
    return ticket;
  }

  /** A response arrived (any status). */
  answered(ticket: Ticket, info: AnswerInfo): void {
    const t = info.receivedAt;
    this.advance(t);
    if (!this.inFlight.delete(ticket.id)) return;
    if (info.dateMs !== null) this.serverClock.observe(ticket.sentAt, t, info.dateMs);
    this.settleEverywhere(ticket.id, t);
    this.adoptLimit(info.rate.limit);
    if (info.status === 429) {
      this.streak++;
      this.rateLimitedAt.push(t);
    } else {
      this.streak = 0;
    }
    const remaining = info.status === 429 ? 0 : info.rate.remaining;
    if (remaining !== null && (this.server === null || ticket.seq > this.server.seq)) {
      this.rebase(ticket, t, Math.min(remaining, this.limit), info.dateMs);
    }
    if (info.rate.limit !== null || info.rate.remaining !== null || info.rate.reset !== null) this.lastRate = { rate: info.rate, receivedAt: t };
    this.answeredLog.push({ seq: ticket.seq, at: t });
    if (this.answeredLog.length > 256) this.answeredLog = this.answeredLog.slice(-128);
  }

  /**
   * No response. `reached`: 'no' when nothing reached the server (connection refused): the slot is
   * given back; 'before-now' when the server acted before we noticed (connection dropped by the
   * peer); 'maybe-later' when we gave up on it ourselves (timeout, abort): it may still be counted.
   */
  failed(ticket: Ticket, now: number, reached: 'no' | 'before-now' | 'maybe-later'): void {
    this.advance(now);
    if (!this.inFlight.delete(ticket.id)) return;
    if (reached === 'no') {
      this.ownCont.refund(ticket.id);
      this.recent.refund(ticket.id);
      if (this.server?.cont.has(ticket.id)) {
        this.server.cont.refund(ticket.id);
        this.server.spent--;
      }
    } else if (reached === 'before-now') {
      this.settleEverywhere(ticket.id, now);
    } else {
      this.lingering.push({ ticket, at: now + ABANDONED_LINGER_MS });
    }
  }

  /** The whole bucket waits until `until` (429 handling). */
  pauseUntil(until: number): void {
    this.pausedUntilMs = Math.max(this.pausedUntilMs, until);
  }

  // ---- queries ----

  /** Earliest local time >= now at which one request may be sent; Infinity: wait for an answer. */
  earliest(now: number): number {
    this.advance(now);
    const limit = this.limit;
    let t = Math.max(now, this.pausedUntilMs);
    t = Math.max(t, this.ownCont.earliest(1, now, limit), this.recent.earliest(1, now, limit));
    const s = this.server;
    if (s) {
      const need = 1 + this.margin(now);
      t = Math.max(t, s.cont.earliest(need, now, limit));
      if (s.remaining - s.spent < need) t = Math.max(t, this.windowEndsAt(s));
    }
    if (t === Infinity && this.lingering.length > 0) return Math.max(now, Math.min(...this.lingering.map((l) => l.at)));
    return t;
  }

  /** How many requests the model would let go right now (0 while paused). */
  available(now: number): number {
    this.advance(now);
    if (now < this.pausedUntilMs) return 0;
    const limit = this.limit;
    let v = Math.min(this.ownCont.value(now, limit), this.recent.room(now, limit));
    const s = this.server;
    if (s) {
      const m = this.margin(now);
      v = Math.min(v, s.cont.value(now, limit) - m);
      if (now < this.windowEndsAt(s)) v = Math.min(v, s.remaining - s.spent - m);
    }
    return Math.max(0, Math.floor(v + 1e-9));
  }

  /** Last Remaining the server reported, less what we sent since; null before any. */
  serverRemaining(): number | null {
    return this.server ? Math.max(0, this.server.remaining - this.server.spent) : null;
  }

  /** When the server said the budget is full again (Reset), or null. */
  resetAt(): number | null {
    const r = this.lastRate;
    if (!r || r.rate.reset === null) return null;
    if (r.rate.reset > 0) return r.receivedAt + r.rate.reset * 1000;
    return r.receivedAt + 1000; // 0: "under a second"
  }

  /** Slots held back because others use this budget too (see file comment). */
  margin(now: number): number {
    let m = now - this.lastForeignAt < FOREIGN_MEMORY_MS ? 1 : 0;
    this.rateLimitedAt = this.rateLimitedAt.filter((at) => now - at < RATE_LIMITED_MEMORY_MS);
    m += Math.min(2, this.rateLimitedAt.length);
    return Math.min(m, Math.floor(this.limit / 4));
  }

  // ---- internals ----

  private settleEverywhere(id: number, t: number): void {
    const limit = this.limit;
    this.ownCont.settle(id, t, limit);
    this.recent.settle(id, t);
    this.server?.cont.settle(id, t, limit);
  }

  /** Abandoned requests whose linger time passed count as consumed then. */
  private advance(now: number): void {
    if (this.lingering.length === 0) return;
    const due = this.lingering.filter((l) => l.at <= now);
    if (due.length === 0) return;
    this.lingering = this.lingering.filter((l) => l.at > now);
    for (const l of due) this.settleEverywhere(l.ticket.id, l.at);
  }

  /** Local time after which the basis's server second has surely ended. */
  private windowEndsAt(s: ServerBasis): number {
    if (s.window !== null) {
      const reached = this.serverClock.surelyReached(s.window + 1000, s.receivedAt);
      if (reached !== null) return reached + this.guardMs;
    }
    return s.receivedAt + 1000 + this.guardMs;
  }

  private rebase(ticket: Ticket, t: number, remaining: number, dateMs: number | null): void {
    const window = dateMs === null ? null : Math.floor(dateMs / 1000) * 1000;
    const prev = this.server;
    // Remaining fell faster than our own requests explain: someone else spends this budget. Valid in
    // both models: within one server second, refill can only add.
    if (prev && prev.window !== null && prev.window === window && remaining < prev.remaining - prev.spent) this.lastForeignAt = t;
    // Answers that arrived while this request was in flight, for requests sent before it, may have
    // been processed after it: count them against this Remaining too (they are folded in as spent).
    const overtaken = this.answeredLog.filter((a) => a.seq < ticket.seq && a.at > ticket.sentAt).length;
    const pending = [...this.inFlight.keys(), ...this.lingering.map((l) => l.ticket.id)];
    this.server = {
      remaining,
      receivedAt: t,
      window,
      seq: ticket.seq,
      cont: new RefillBound(remaining - overtaken, t, pending),
      spent: pending.length + overtaken,
    };
  }

  /** A lower Limit is adopted once two answers in a row agree on it (a single garbled one is not). */
  private adoptLimit(limit: number | null): void {
    if (limit === null || limit < 1) return;
    if (limit >= this.documentedLimit) this.adoptedLimit = null;
    else if (limit === this.lastLimitHeader) this.adoptedLimit = Math.floor(limit);
    this.lastLimitHeader = limit;
  }
}
