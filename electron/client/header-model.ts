/**
 * The header model of one (vendor, endpoint) budget: may we send now, and if not, when? BudgetBucket
 * (budget-bucket.ts) queues requests on it; this file only answers from the headers and our own sends.
 *
 * The server runs one of two refill models (spec/server-behaviour.md) and does not say which:
 * whole-second fixed windows aligned to its clock (2N can pass across a boundary; a refusal
 * re-stamps), or a continuous leaky bucket. A send is allowed only when it is safe under BOTH, so we
 * keep a lower bound of the allowance under each model and take the minimum of four bounds:
 *
 *   own, continuous   RefillBound from our own sends alone (full at start, N/s refill).
 *   own, whole-second RecentSends: at most N of ours in flight or answered within the last second
 *                     (or, per the answer's Date, in a server second that has not surely ended).
 *                     Neither uses the X-Rate-Limit-* values, so hostile or garbled ones can never
 *                     push us over the limit; alone, they are exact enough to run at N per second.
 *   server, continuous RefillBound re-based on the latest-sent answer's Remaining (R at its
 *                     arrival, less every request of ours that may not be counted in R yet).
 *   server, window    WindowBasis: the lowest Remaining of the server's latest second, less our
 *                     requests that may have been processed after it, until that second surely
 *                     ended (learnt from Date, plus a guard; without Date, one second after it).
 *
 * The server bounds follow Remaining, so consumption by others (another process, another consumer
 * of the vendor) slows us as soon as a header shows it; when Remaining falls faster than our own
 * requests explain, a margin of one slot (more after 429s) is kept back for a while.
 * When a second's budget is used up we wait for the next second; there the continuous bound
 * still limits us to the refill since the last answer, so the first request works as a probe: its
 * Remaining re-bases both server bounds (N-1 in whole-second, the true level in continuous) and
 * the rest follows at full speed. The refill during the wait is never lost in the continuous model
 * (the wait is under a second, so the bucket cannot overflow), and in the whole-second model every
 * second is used whole. Steady state: N per second in both models (N per 1000 ms + one round trip
 * without Date headers).
 *
 * Pure: every method takes the local time; no timers here.
 */
import type { RateLimitHeaders } from '../../shared/rate-limit';
import type { WaitCause } from '../../shared/wait-causes';
import { FairShare } from './fair-share';
import { RecentSends, SLIDING_SLACK_MS } from './recent-sends';
import { RefillBound } from './refill-bound';
import type { ServerClock } from './server-clock';
import type { AnswerFact } from './window-basis';
import { WindowBasis } from './window-basis';

export interface Ticket {
  readonly id: number;
  /** Send order within the bucket. */
  readonly seq: number;
  readonly sentAt: number;
}

/** When the next request may go, and what holds it until then. */
export interface NextSend {
  at: number;
  cause: WaitCause;
}

export interface AnswerInfo {
  receivedAt: number;
  status: number;
  rate: RateLimitHeaders;
  /** The server's Date header in epoch ms, or null. */
  dateMs: number | null;
}

export interface HeaderModelOptions {
  /** Documented limit (endpoint table); the server's Limit header may lower it, never raise it. */
  limit: number;
  now: number;
  serverClock: ServerClock;
  /** Added after the server's second surely changed, for latency and clock quirks. */
  guardMs?: number;
  /**
   * Whether a budget store (Redis) spaces the fleet's requests now: the fair-share pacing stands aside
   * while it answers (the four bounds still follow the headers, for consumers outside the store).
   */
  coordinated?: () => boolean;
}

/** Continuous-model basis from the latest-sent answered request's Remaining. */
interface RefillBasis {
  seq: number;
  bound: RefillBound;
}

const FOREIGN_MEMORY_MS = 15_000;
const RATE_LIMITED_MEMORY_MS = 10_000;
/** A request we abandoned (timeout, abort) may still reach the server a little later. */
export const ABANDONED_LINGER_MS = 1_000;
/**
 * No budget bound ever asks for a longer wait than this (a per-second budget comes back within a
 * second; anything longer comes from a skewed or hostile header). Pauses after 429s are capped by
 * the client.
 */
export const MAX_BOUND_WAIT_MS = 2_000;

let nextTicketId = 1;

export class HeaderModel {
  readonly documentedLimit: number;
  private adoptedLimit: number | null = null;
  private lastLimitHeader: number | null = null;
  private readonly serverClock: ServerClock;
  private readonly guardMs: number;
  private readonly ownCont: RefillBound;
  private readonly recent: RecentSends;
  private refillBasis: RefillBasis | null = null;
  private windowBasis: WindowBasis | null = null;
  private readonly inFlight = new Map<number, Ticket>();
  /** Abandoned requests, counted as pending until `at`. */
  private lingering: { ticket: Ticket; at: number }[] = [];
  /** Recent answers, to spot answers that overtook one another. */
  private answeredLog: AnswerFact[] = [];
  private seq = 0;
  private pausedUntilMs = 0;
  private streak = 0;
  private lastForeignAt = -Infinity;
  private rateLimitedAt: number[] = [];
  private lastRate: { rate: RateLimitHeaders; receivedAt: number } | null = null;
  /** Pacing at a fair share while others use this budget too (fair-share.ts). */
  private readonly share: FairShare;
  private lastProgressAt: number;
  private readonly coordinated: () => boolean;
  /** The latest send: where the fair-share pacing's spacing starts from (to tell its deferrals apart, wait causes only). */
  private lastSentAt = -Infinity;

  constructor(options: HeaderModelOptions) {
    this.documentedLimit = Math.max(1, Math.floor(options.limit));
    this.serverClock = options.serverClock;
    this.guardMs = options.guardMs ?? 20;
    this.ownCont = new RefillBound(this.documentedLimit, options.now);
    this.share = new FairShare(() => this.limit, options.now);
    this.lastProgressAt = options.now;
    this.coordinated = options.coordinated ?? (() => false);
    this.recent = new RecentSends((second, at) => {
      const reached = this.serverClock.surelyReached(second + 1000, at);
      return reached === null ? null : reached + this.guardMs;
    });
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

  /** Consumers sharing this budget, us included, as estimated from the answers (1: alone). */
  consumers(now: number): number {
    return this.share.consumers(now);
  }

  /** Requests per second we pace at (the limit when nobody else was seen lately). */
  pace(now: number): number {
    return this.share.rate(now);
  }

  /**
   * Last time the budget surely made progress for anyone: an answer of ours that was not a 429, or
   * Remaining showing that others' requests went through.
   */
  get progressAt(): number {
    return this.lastProgressAt;
  }

  /** Consecutive 429s (reset by any other answer). */
  get rateLimitStreak(): number {
    return this.streak;
  }

  // ---- events ----

  send(now: number): Ticket {
    this.advance(now);
    this.lastSentAt = now;
    const ticket: Ticket = { id: nextTicketId++, seq: ++this.seq, sentAt: now };
    this.inFlight.set(ticket.id, ticket);
    this.ownCont.add(ticket.id);
    this.recent.add(ticket.id);
    this.refillBasis?.bound.add(ticket.id);
    this.windowBasis?.sent(ticket.id);
    this.share.sent(now);
    return ticket;
  }

  /** A response arrived (any status). */
  answered(ticket: Ticket, info: AnswerInfo): void {
    const t = info.receivedAt;
    this.advance(t);
    if (!this.inFlight.delete(ticket.id)) return;
    // A Date far from our clock (or from what the latest answers agree on) is not used.
    const dateMs = info.dateMs !== null && this.serverClock.believe(ticket.sentAt, t, info.dateMs) ? info.dateMs : null;
    this.settleEverywhere(ticket.id, t, dateMs === null ? null : Math.floor(dateMs / 1000) * 1000);
    this.adoptLimit(info.rate.limit);
    if (info.status === 429) {
      this.streak++;
      this.rateLimitedAt.push(t);
    } else {
      this.streak = 0;
    }
    const refused = info.status === 429;
    const read = refused ? 0 : info.rate.remaining;
    const fact: AnswerFact = {
      id: ticket.id,
      seq: ticket.seq,
      sentAt: ticket.sentAt,
      receivedAt: t,
      window: dateMs === null ? null : Math.floor(dateMs / 1000) * 1000,
      remaining: read === null ? null : Math.min(read, this.limit),
      refused,
    };
    this.noteForeign(fact);
    this.noteShare(ticket, fact);
    this.windowBasis?.answered(fact);
    if (fact.remaining !== null) this.rebase(fact, fact.remaining);
    if (info.rate.limit !== null || info.rate.remaining !== null || info.rate.reset !== null) this.lastRate = { rate: info.rate, receivedAt: t };
    this.answeredLog.push(fact);
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
      this.refillBasis?.bound.refund(ticket.id);
      this.windowBasis?.refunded(ticket.id);
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
    return this.nextSend(now).at;
  }

  /**
   * earliest(), with the bound that set it (shared/wait-causes.ts): the cause is only recorded,
   * never read back into a decision. On a tie, the server's evidence names the cause.
   */
  nextSend(now: number): NextSend {
    this.advance(now);
    const limit = this.limit;
    const own = this.ownCont.earliest(1, now, limit);
    const recent = this.recent.earliest(1, now, limit);
    const share = this.coordinated() ? now : this.share.earliest(now);
    let t = Math.max(now, own, recent, share);
    let cause: WaitCause = recent > own ? 'window' : 'budget';
    // The pacing's own spacing, or (later than that) its deferral to the next server second.
    if (share > Math.max(own, recent)) cause = share > Math.max(now, this.lastSentAt + 1000 / this.share.rate(now)) + 0.5 ? 'window' : 'others';
    const need = 1 + this.margin(now);
    if (this.refillBasis) {
      const refill = this.refillBasis.bound.earliest(need, now, limit);
      if (refill >= t && refill > now) cause = this.refillBasis.bound.earliest(1, now, limit) <= now ? 'others' : 'budget';
      t = Math.max(t, refill);
    }
    const w = this.windowBasis;
    if (w && w.value() < need) {
      const ends = this.windowEndsAt(w);
      if (ends >= t && ends > now) cause = w.value() >= 1 ? 'others' : 'budget';
      t = Math.max(t, ends);
    }
    if (t === Infinity) cause = 'inFlight';
    if (t === Infinity && this.lingering.length > 0) t = Math.max(now, Math.min(...this.lingering.map((l) => l.at)));
    // Infinity (only an answer can free a slot) stays; any computed wait is capped.
    if (t !== Infinity) t = Math.min(t, now + MAX_BOUND_WAIT_MS);
    if (this.pausedUntilMs >= t && this.pausedUntilMs > now) cause = 'pause';
    return { at: Math.max(t, this.pausedUntilMs), cause };
  }

  /** How many requests the model would let go right now (0 while paused). */
  available(now: number): number {
    this.advance(now);
    if (now < this.pausedUntilMs) return 0;
    const limit = this.limit;
    let v = Math.min(this.ownCont.value(now, limit), this.recent.room(now, limit));
    const m = this.margin(now);
    if (this.refillBasis) v = Math.min(v, this.refillBasis.bound.value(now, limit) - m);
    const w = this.windowBasis;
    if (w && now < this.windowEndsAt(w)) v = Math.min(v, w.value() - m);
    return Math.max(0, Math.floor(v + 1e-9));
  }

  /**
   * Remaining as the server's headers have it now: the last Remaining less what we sent since, plus
   * what surely came back since (refill, a new second). Null before any readable Remaining.
   */
  serverRemaining(now: number): number | null {
    const w = this.windowBasis;
    if (!this.refillBasis && !w) return null;
    const limit = this.limit;
    let v = this.refillBasis ? this.refillBasis.bound.value(now, limit) : limit;
    if (w && now < this.windowEndsAt(w)) v = Math.min(v, w.value());
    return Math.min(limit, Math.max(0, Math.floor(v + 1e-9)));
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

  private settleEverywhere(id: number, t: number, second: number | null = null): void {
    const limit = this.limit;
    this.ownCont.settle(id, t, limit);
    this.recent.settle(id, t, second);
    this.refillBasis?.bound.settle(id, t, limit);
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
  private windowEndsAt(s: WindowBasis): number {
    if (s.window !== null) {
      const reached = this.serverClock.surelyReached(s.window + 1000, s.receivedAt);
      if (reached !== null) return reached + this.guardMs;
    }
    return s.receivedAt + 1000 + this.guardMs;
  }

  /** Offers answer x as the basis of both server bounds. */
  private rebase(x: AnswerFact, remaining: number): void {
    const pending = [...this.inFlight.keys(), ...this.lingering.map((l) => l.ticket.id)];
    // Continuous: the latest-sent answer; answers that arrived while it was in flight may have been
    // processed after it, so they are folded in as spent.
    if (this.refillBasis === null || x.seq > this.refillBasis.seq) {
      const overtaken = this.answeredLog.filter((a) => a.seq < x.seq && a.receivedAt > x.sentAt && !a.refused).length;
      this.refillBasis = { seq: x.seq, bound: new RefillBound(remaining - overtaken, x.receivedAt, pending) };
    }
    // Whole-second: a later second replaces. Within one second Remaining only falls, so the lowest
    // one is the latest state, everyone's consumption included (on a tie, the one that leaves more
    // of our requests unexplained loses). Without Date to compare: the latest-sent answer.
    const candidate = WindowBasis.on(x, remaining, pending, this.answeredLog);
    const w = this.windowBasis;
    if (w === null) this.windowBasis = candidate;
    else if (x.window !== null && w.window !== null) {
      const later = x.window > w.window;
      const lower = x.window === w.window && (remaining < w.remaining || (remaining === w.remaining && candidate.value() > w.value()));
      if (later || lower) this.windowBasis = candidate;
    } else if (x.seq > w.seq) this.windowBasis = candidate;
  }

  /**
   * Remaining fell faster than our own requests explain: someone else spends this budget. Valid in
   * both models: within one server second, refill can only add.
   */
  private noteForeign(x: AnswerFact): void {
    const w = this.windowBasis;
    if (w && x.remaining !== null && x.window !== null && x.window === w.window && x.remaining < w.value()) this.lastForeignAt = x.receivedAt;
  }

  /** Feeds the fair-share estimator: how far Remaining is below what our own requests explain. */
  private noteShare(ticket: Ticket, x: AnswerFact): void {
    const limit = this.limit;
    let aloneFloor: number | null = null;
    let phase: number | null = null;
    if (!x.refused && x.remaining !== null) {
      // Whole-second model: our requests that may share the answer's server second (this one, those
      // in flight, and those answered in it). Continuous: what our own sends leave in the bucket.
      const sameSecond = this.answeredLog.filter(
        (a) => !a.refused && (x.window !== null ? a.window === x.window : a.receivedAt > x.receivedAt - 1000 - SLIDING_SLACK_MS),
      ).length;
      const wholeSecond = limit - 1 - this.inFlightCount - sameSecond;
      const continuous = Math.floor(this.ownCont.value(x.receivedAt, limit) + 1e-9);
      aloneFloor = Math.min(wholeSecond, continuous);
      const offset = this.serverClock.offsetMid();
      if (x.window !== null && offset !== null) phase = Math.min(1, Math.max(0, ((ticket.sentAt + x.receivedAt) / 2 + offset - x.window) / 1000));
    }
    this.share.answered({ at: x.receivedAt, refused: x.refused, remaining: x.remaining, aloneFloor, phase });
    const othersWent = aloneFloor !== null && x.remaining !== null && x.remaining < aloneFloor;
    if (!x.refused || othersWent) this.lastProgressAt = x.receivedAt;
  }

  /** A lower Limit is adopted once two answers in a row agree on it (a single garbled one is not). */
  private adoptLimit(limit: number | null): void {
    if (limit === null || limit < 1) return;
    if (limit >= this.documentedLimit) this.adoptedLimit = null;
    else if (limit === this.lastLimitHeader) this.adoptedLimit = Math.floor(limit);
    this.lastLimitHeader = limit;
  }
}
