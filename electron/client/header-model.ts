/**
 * The header model of one (vendor, endpoint) budget: may we send now, and if not, when? HeaderPacer
 * (header-pacer.ts) queues the bucket's requests on it; this file only answers from the headers and
 * our own sends (our-requests.ts).
 *
 * The server refills either in whole seconds aligned to its clock or continuously, and does not say
 * which (spec/server-behaviour.md). A send is allowed only when it is safe under BOTH: the minimum of
 * four lower bounds (the table in electron/client/README.md). The two from our own sends alone
 * (RefillBound, RecentSends) never read X-Rate-Limit-*, so hostile or garbled values can never push
 * us over the limit; the two re-based on Remaining (ServerBounds) slow us as soon as others' use
 * shows. When a second's budget is used up we wait for the next one, where the first request works
 * as a probe. Others' share of the budget is paced by FairShare.
 *
 * Pure: every method takes the local time; no timers here.
 */
import type { RateLimitHeaders } from '../../shared/rate-limit';
import type { WaitCause } from '../../shared/wait-causes';
import { AdoptedLimit } from './adopted-limit';
import { FairShare } from './fair-share';
import { HoldBack } from './hold-back';
import { RecentSends } from './recent-sends';
import { RefillBound } from './refill-bound';
import type { ServerClock } from './server-clock';
import type { AnswerFact } from './window-basis';
import type { Ticket } from './our-requests';
import { OurRequests } from './our-requests';
import { ServerBounds } from './server-bounds';

export type { Ticket } from './our-requests';
export { ABANDONED_LINGER_MS } from './our-requests';

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
   * Whether a budget store spaces the fleet's requests now (Coordination): the fair-share pacing stands
   * aside while it answers, all but its deferral to the next second where the store sees consumers outside
   * it (the four bounds still follow the headers).
   */
  coordination?: () => Coordination;
}

/**
 * Who spaces our requests: the headers alone (the fair share paces); a store (it does, the fair share stands
 * aside); a store beside consumers outside it (it does, and the fair share still keeps a request out of a
 * server second whose budget those consumers are forecast to spend: the store's schedule cannot know them).
 */
export type Coordination = 'headers' | 'store' | 'storeBesideOthers';

/**
 * No budget bound ever asks for a longer wait than this (a per-second budget comes back within a
 * second; anything longer comes from a skewed or hostile header). Pauses after 429s are capped by
 * the client.
 */
export const MAX_BOUND_WAIT_MS = 2_000;

export class HeaderModel {
  private readonly limits: AdoptedLimit;
  private readonly serverClock: ServerClock;
  private readonly guardMs: number;
  private readonly ownCont: RefillBound;
  private readonly recent: RecentSends;
  /** The two bounds re-based on the answers' Remaining. */
  private readonly server: ServerBounds;
  private readonly ours = new OurRequests();
  private pausedUntilMs = 0;
  private readonly holdBack = new HoldBack();
  /** When the latest answer with rate headers said the budget is full again (Reset), or null. */
  private resetAtMs: number | null = null;
  /** Pacing at a fair share while others use this budget too (fair-share.ts). */
  private readonly share: FairShare;
  private lastProgressAt: number;
  private readonly coordination: () => Coordination;
  /** The latest send: where the fair-share pacing's spacing starts from (to tell its deferrals apart, wait causes only). */
  private lastSentAt = -Infinity;

  constructor(options: HeaderModelOptions) {
    this.limits = new AdoptedLimit(options.limit);
    this.serverClock = options.serverClock;
    this.guardMs = options.guardMs ?? 20;
    this.server = new ServerBounds(this.serverClock, this.guardMs);
    this.ownCont = new RefillBound(this.limits.documented, options.now);
    this.share = new FairShare(() => this.limit, options.now);
    this.lastProgressAt = options.now;
    this.coordination = options.coordination ?? (() => 'headers');
    this.recent = new RecentSends((second, at) => {
      const reached = this.serverClock.surelyReached(second + 1000, at);
      return reached === null ? null : reached + this.guardMs;
    });
  }

  /** The limit we pace at: the documented one, or a lower one the server insists on. */
  get limit(): number {
    return this.limits.value;
  }

  get inFlightCount(): number {
    return this.ours.count;
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

  /** Fair-share pacing goes on from `rate` (the share a budget store granted us until it failed), not from a fresh start alone. */
  resumeShare(now: number, rate: number): void {
    this.share.resume(now, rate);
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
    return this.holdBack.refusalsInRow;
  }

  // ---- events ----

  send(now: number): Ticket {
    this.advance(now);
    this.lastSentAt = now;
    const ticket = this.ours.send(now);
    this.ownCont.add(ticket.id);
    this.recent.add(ticket.id);
    this.server.sent(ticket.id);
    this.share.sent(now);
    return ticket;
  }

  /** A response arrived (any status). */
  answered(ticket: Ticket, info: AnswerInfo): void {
    const t = info.receivedAt;
    this.advance(t);
    if (!this.ours.land(ticket)) return;
    // A Date far from our clock (or from what the latest answers agree on) is not used.
    const believed = info.dateMs !== null && this.serverClock.believe(ticket.sentAt, t, info.dateMs);
    const window = believed ? Math.floor(info.dateMs! / 1000) * 1000 : null;
    this.settleEverywhere(ticket.id, t, window);
    this.limits.heard(info.rate.limit);
    const refused = info.status === 429;
    this.holdBack.answered(refused, t);
    const read = refused ? 0 : info.rate.remaining;
    const remaining = read === null ? null : Math.min(read, this.limit);
    const fact: AnswerFact = { id: ticket.id, seq: ticket.seq, sentAt: ticket.sentAt, receivedAt: t, window, remaining, refused };
    // Remaining fell faster than our own requests explain: someone else spends this budget.
    if (this.server.showsOthers(fact)) this.holdBack.othersSeen(t);
    this.noteShare(ticket, fact);
    this.server.answered(fact);
    if (fact.remaining !== null) this.server.rebase(fact, fact.remaining, this.ours.pendingIds(), this.ours.answered);
    const { reset } = info.rate;
    // Reset 0 means "under a second".
    if (info.rate.limit !== null || info.rate.remaining !== null || reset !== null)
      this.resetAtMs = reset === null ? null : t + (reset > 0 ? reset * 1000 : 1000);
    this.ours.logAnswer(fact);
  }

  /**
   * No response. `reached`: 'no' when nothing reached the server (connection refused): the slot is
   * given back; 'before-now' when the server acted before we noticed (connection dropped by the
   * peer); 'maybe-later' when we gave up on it ourselves (timeout, abort): it may still be counted.
   */
  failed(ticket: Ticket, now: number, reached: 'no' | 'before-now' | 'maybe-later'): void {
    this.advance(now);
    if (!this.ours.land(ticket)) return;
    if (reached === 'no') {
      this.ownCont.refund(ticket.id);
      this.recent.refund(ticket.id);
      this.server.refunded(ticket.id);
    } else if (reached === 'before-now') {
      this.settleEverywhere(ticket.id, now);
    } else {
      this.ours.abandon(ticket, now);
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
    const coordination = this.coordination();
    const share = coordination === 'headers' ? this.share.earliest(now) : coordination === 'store' ? now : this.share.deferral(now);
    let t = Math.max(now, own, recent, share);
    let cause: WaitCause = recent > own ? 'window' : 'budget';
    // The pacing's own spacing, or (later than that) its deferral to the next server second.
    if (share > Math.max(own, recent)) cause = share > Math.max(now, this.lastSentAt + 1000 / this.share.rate(now)) + 0.5 ? 'window' : 'others';
    ({ at: t, cause } = this.server.hold(t, cause, 1 + this.margin(now), now, limit));
    if (t === Infinity) cause = 'inFlight';
    if (t === Infinity && this.ours.lingerEndsAt !== Infinity) t = Math.max(now, this.ours.lingerEndsAt);
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
    const v = this.server.room(Math.min(this.ownCont.value(now, limit), this.recent.room(now, limit)), this.margin(now), now, limit);
    return Math.max(0, Math.floor(v + 1e-9));
  }

  /**
   * Remaining as the server's headers have it now: the last Remaining less what we sent since, plus
   * what surely came back since (refill, a new second). Null before any readable Remaining.
   */
  serverRemaining(now: number): number | null {
    const limit = this.limit;
    const v = this.server.remaining(now, limit);
    return v === null ? null : Math.min(limit, Math.max(0, Math.floor(v + 1e-9)));
  }

  /** When the server said the budget is full again (Reset), or null. */
  resetAt(): number | null {
    return this.resetAtMs;
  }

  /** Slots held back because others use this budget too (see file comment). */
  margin(now: number): number {
    return this.holdBack.slots(now, this.limit);
  }

  // ---- internals ----

  private settleEverywhere(id: number, t: number, second: number | null = null): void {
    const limit = this.limit;
    this.ownCont.settle(id, t, limit);
    this.recent.settle(id, t, second);
    this.server.settled(id, t, limit);
  }

  /** Abandoned requests whose linger time passed count as consumed then. */
  private advance(now: number): void {
    for (const l of this.ours.takeDue(now)) this.settleEverywhere(l.ticket.id, l.at);
  }

  /** Feeds the fair-share estimator: how far Remaining is below what our own requests explain. */
  private noteShare(ticket: Ticket, x: AnswerFact): void {
    const limit = this.limit;
    let aloneFloor: number | null = null;
    let phase: number | null = null;
    if (!x.refused && x.remaining !== null) {
      // Whole-second model: what our requests in the answer's server second leave. Continuous: what our own sends leave in the bucket.
      const wholeSecond = this.ours.aloneInSecond(x, limit);
      const continuous = Math.floor(this.ownCont.value(x.receivedAt, limit) + 1e-9);
      aloneFloor = Math.min(wholeSecond, continuous);
      if (x.window !== null) phase = this.serverClock.phaseOf(x.window, (ticket.sentAt + x.receivedAt) / 2);
    }
    this.share.answered({ at: x.receivedAt, refused: x.refused, remaining: x.remaining, aloneFloor, phase, roundTripMs: x.receivedAt - ticket.sentAt });
    const othersWent = aloneFloor !== null && x.remaining !== null && x.remaining < aloneFloor;
    if (!x.refused || othersWent) this.lastProgressAt = x.receivedAt;
  }
}
