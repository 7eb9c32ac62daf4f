/**
 * One shared bucket: the pacers that say when its requests may go (pacer.ts), composed. Every client of
 * the same (baseUrl, vendor, endpoint) in the process goes through the same BudgetBucket; the header
 * model's state is the bucket's own, read only through `settle`'s answer and `snapshot()`.
 */
import type { EndpointId } from '../../shared/endpoints';
import type { Clock } from '../../shared/clock';
import { wallTime } from '../../shared/clock';
import type { AnsweredAttempt, Attempt, FailedAttempt } from './attempt';
import { MAX_RETRY_AFTER_MS, rateLimitFloorMs } from './backoff';
import { HeaderModel } from './header-model';
import type { Ticket } from './header-model';
import { HeaderPacer } from './header-pacer';
import { storeKey } from './fleet-slot-store';
import type { PaceRequest } from './pacer';
import type { ServerClock } from './server-clock';
import { SlotPacer } from './slot-pacer';

export interface BucketSnapshot {
  baseUrl: string;
  vendor: string;
  endpoint: EndpointId;
  /** The limit paced at (documented, or lower if the server's Limit header insists). */
  limit: number;
  /** Remaining per the server's headers: the last one less what we sent since, plus what came back since; null before the first. */
  remaining: number | null;
  /** Requests the model would let go right now. */
  available: number;
  /** Wall-clock epoch ms until which the bucket is paused after a 429 (for display); null when not paused. */
  pausedUntil: number | null;
  /** Wall-clock epoch ms when the server says the budget is full again (for display); null when unknown. */
  resetAt: number | null;
  queued: number;
  inFlight: number;
  /** Slots held back because others spend this budget too. */
  margin: number;
  /** Consumers estimated to share this budget, us included (1: nobody else seen lately). */
  consumers: number;
  /** Requests per second we pace at (the limit unless others share the budget). */
  pace: number;
}

/** Slots of the budget store given up in a row for being sent too late, before one is used anyway. */
export const MAX_MISSED_SLOTS = 2;
/** Added to "the server's next second" after a 429 with Reset 0, for latency and clock quirks. */
const SECOND_GUARD_MS = 20;

/** Full jitter for the n-th 429 in a row (0 for the first): the caller's retry policy. */
export type Jitter = (n: number) => number;

/** What an answer means for the caller's next step. */
export interface Settled {
  /** When it was settled (local time). */
  at: number;
  /** Consumers estimated to share this budget, us included (1: alone). */
  consumers: number;
  /** After a 429: how long the whole bucket now pauses (ms); 0 otherwise. */
  pauseMs: number;
  /** How long nothing of this budget went through for anyone since this request started (ms): background work gives up on it. */
  stalledMs: number;
}

export class BudgetBucket {
  private readonly model: HeaderModel;
  private readonly slots: SlotPacer;
  private readonly headers: HeaderPacer;

  constructor(
    readonly baseUrl: string,
    readonly vendor: string,
    readonly endpoint: EndpointId,
    limit: number,
    private readonly clock: Clock,
    private readonly serverClock: ServerClock,
    guardMs?: number,
  ) {
    this.slots = new SlotPacer(
      storeKey(baseUrl, vendor, endpoint),
      endpoint,
      () => this.model.limit,
      clock,
      (at, rate) => this.model.resumeShare(at, rate),
      (now) => this.model.pace(now),
    );
    this.model = new HeaderModel({ limit, now: clock.now(), serverClock, guardMs, coordination: () => this.slots.coordination });
    this.headers = new HeaderPacer(this.model, endpoint, clock);
  }

  /** The limit paced at (documented, or lower if the server's Limit header insists). */
  get limit(): number {
    return this.model.limit;
  }

  /**
   * The go to send: the fleet's slot (with a budget store), then the header model's; resolves with the
   * ticket of a request that now counts as sent. A send later than the slot's grace (the headers held it
   * past its slot, or the process was too busy to keep time) gives the slot up and takes another: sent
   * late, it could land in a second the fleet's other slots have filled already (a 429 for one of us).
   * After MAX_MISSED_SLOTS in a row it goes anyway.
   */
  async acquire(request: PaceRequest): Promise<Ticket> {
    const startedAt = this.clock.now();
    const { maxWaitMs } = request;
    // One queue wait in all, however many slots it takes (an interactive call's bound holds).
    const left = (): number | undefined => (maxWaitMs === undefined ? undefined : Math.max(0, maxWaitMs - (this.clock.now() - startedAt)));
    for (let missed = 0; ; missed++) {
      const slot = await this.slots.reserve({ ...request, maxWaitMs: left() });
      const ticket = await this.headers.reserve({ ...request, maxWaitMs: left() });
      const late = slot !== null && ticket.sentAt > slot.at + slot.graceMs;
      if (!late || missed >= MAX_MISSED_SLOTS || request.signal?.aborted || request.slots?.closed()) return ticket;
      this.headers.release(ticket);
    }
  }

  /** Nothing was sent on the ticket (the request was cancelled before it went): its slot is given back. */
  release(ticket: Ticket): void {
    this.headers.release(ticket);
  }

  /**
   * Each pacer learns from the attempt. An answer says what the caller needs next; a 429 pauses the
   * whole bucket for at least Reset (or Retry-After), plus full jitter that grows with each 429 in a row.
   */
  settle(attempt: AnsweredAttempt, jitter: Jitter): Settled;
  settle(attempt: FailedAttempt): void;
  settle(attempt: Attempt, jitter?: Jitter): Settled | void {
    this.slots.settle(attempt);
    this.headers.settle(attempt);
    if (attempt.result.kind !== 'answer') return;
    const consumers = this.model.consumers(attempt.receivedAt);
    const now = this.clock.now();
    let pauseMs = 0;
    if (attempt.result.status === 429) {
      const nextSecond = this.serverClock.nextSecondAt(now);
      const floor = Math.max(
        rateLimitFloorMs(attempt.result.rate.reset, nextSecond === null ? null : nextSecond - now + SECOND_GUARD_MS),
        attempt.result.retryAfterMs ?? 0,
      );
      pauseMs = Math.min(MAX_RETRY_AFTER_MS, floor + (jitter?.(this.model.rateLimitStreak - 1) ?? 0));
      this.pauseUntil(now + pauseMs);
    }
    // A budget idle before this request started has not stalled it: count from the later of the two.
    const stalledSince = Math.max(this.model.progressAt, attempt.requestStartedAt);
    return { at: now, consumers, pauseMs, stalledMs: now - stalledSince };
  }

  /** The whole bucket waits: every queued request, not only the one refused. */
  pauseUntil(until: number): void {
    this.headers.pauseUntil(until);
  }

  /** Rejects the owner's waiting requests (close()); returns how many. */
  cancelOwner(owner: object, why: string): number {
    return this.headers.cancelOwner(owner, why);
  }

  /** Rejects every waiter and stops the timer (registry disposal). */
  cancelAll(why: string): void {
    this.headers.cancelAll(why);
  }

  /** Our requests sent and not yet answered (or given up on). */
  get inFlight(): number {
    return this.model.inFlightCount;
  }

  get queued(): number {
    return this.headers.queued;
  }

  /** Whether a wake-up timer is pending (tests: nothing left behind). */
  get hasTimer(): boolean {
    return this.headers.hasTimer;
  }

  snapshot(): BucketSnapshot {
    const now = this.clock.now();
    // Paced on the monotonic clock, shown against Date.now(): the two part by the time the computer slept.
    const wall = (at: number | null): number | null => (at === null ? null : wallTime(this.clock, at));
    const paused = this.model.pausedUntil > now ? this.model.pausedUntil : null;
    return {
      baseUrl: this.baseUrl,
      vendor: this.vendor,
      endpoint: this.endpoint,
      limit: this.model.limit,
      remaining: this.model.serverRemaining(now),
      available: this.model.available(now),
      pausedUntil: wall(paused),
      resetAt: wall(this.model.resetAt()),
      queued: this.headers.queued,
      inFlight: this.model.inFlightCount,
      margin: this.model.margin(now),
      consumers: Math.round(this.model.consumers(now)),
      pace: Math.round(this.model.pace(now) * 100) / 100,
    };
  }
}
