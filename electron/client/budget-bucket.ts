/**
 * One shared bucket: its budget model, the requests waiting for it, and the single timer that wakes
 * the queue when the model says the next slot is free. Every client of the same (baseUrl, vendor,
 * endpoint) in the process goes through the same BudgetBucket.
 */
import type { EndpointId } from '../../shared/endpoints';
import type { PartnerError } from '../../shared/errors';
import type { AnswerInfo, Ticket } from './header-model';
import { HeaderModel } from './header-model';
import type { Clock } from '../../shared/clock';
import { cancelledError, queueTimeoutError } from './errors';
import type { Priority, Queued } from './queue';
import { WaitQueue } from './queue';
import type { ServerClock } from './server-clock';
import type { WaitCauses } from '../../shared/wait-causes';
import { WaitLedger } from './wait-ledger';

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
  /** Epoch ms until which the bucket is paused after a 429; null when not paused. */
  pausedUntil: number | null;
  /** Epoch ms when the server says the budget is full again; null when unknown. */
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

export interface AcquireOptions {
  priority: Priority;
  signal?: AbortSignal;
  /** Who is waiting (a client), so that its close() can cancel its own waiters only. */
  owner: object;
  /** Keep this place in the queue (a retry); default: the back of its priority. */
  order?: number;
  /** Longest time in the queue; then the call fails RATE_LIMITED (nothing sent). Default: no limit. */
  maxWaitMs?: number;
  /** This request's time in the queue, per cause, is added into it when it is granted (recorded only). */
  waitCauses?: WaitCauses;
}

interface Waiter extends Queued {
  owner: object;
  grant(ticket: Ticket): void;
  fail(error: PartnerError): void;
}

let nextOrder = 1;
/** Longer timers overflow in Node (2^31-1 ms) and fire at once, with a warning. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A fresh place at the back of the queue. */
export function nextQueueOrder(): number {
  return nextOrder++;
}

export class BudgetBucket {
  readonly model: HeaderModel;
  private readonly queue = new WaitQueue<Waiter>();
  private readonly held = new WaitLedger();
  private timer: unknown = null;
  private timerAt = Infinity;

  constructor(
    readonly baseUrl: string,
    readonly vendor: string,
    readonly endpoint: EndpointId,
    limit: number,
    private readonly clock: Clock,
    serverClock: ServerClock,
    guardMs?: number,
  ) {
    this.model = new HeaderModel({ limit, now: clock.now(), serverClock, guardMs });
  }

  /** Waits for a slot; resolves with the ticket of a request that now counts as sent. */
  acquire(options: AcquireOptions): Promise<Ticket> {
    if (options.signal?.aborted) return Promise.reject(cancelledError(this.endpoint));
    return new Promise<Ticket>((resolve, reject) => {
      const queuedAt = this.clock.now();
      const heldAtStart = this.held.read(queuedAt);
      let expiry: unknown = null;
      const leave = (error: PartnerError): void => {
        if (this.queue.remove(waiter)) {
          waiter.fail(error);
          this.pump();
        }
      };
      const onAbort = (): void => leave(cancelledError(this.endpoint));
      const done = (): void => {
        options.signal?.removeEventListener('abort', onAbort);
        if (expiry !== null) this.clock.clearTimeout(expiry);
      };
      const waiter: Waiter = {
        priority: options.priority,
        order: options.order ?? nextQueueOrder(),
        owner: options.owner,
        grant: (ticket) => {
          if (options.waitCauses) this.held.addSince(heldAtStart, ticket.sentAt, options.waitCauses);
          done();
          resolve(ticket);
        },
        fail: (error) => {
          done();
          reject(error);
        },
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
      const maxWait = options.maxWaitMs;
      if (maxWait !== undefined && Number.isFinite(maxWait)) {
        expiry = this.clock.setTimeout(
          () => leave(queueTimeoutError(this.endpoint, this.clock.now() - queuedAt)),
          Math.max(0, Math.min(maxWait, MAX_TIMER_MS)),
        );
      }
      this.queue.push(waiter);
      this.pump();
    });
  }

  answered(ticket: Ticket, info: AnswerInfo): void {
    this.model.answered(ticket, info);
    this.pump();
  }

  failed(ticket: Ticket, reached: 'no' | 'before-now' | 'maybe-later'): void {
    this.model.failed(ticket, this.clock.now(), reached);
    this.pump();
  }

  /** The whole bucket waits: every queued request, not only the one refused. */
  pauseUntil(until: number): void {
    this.model.pauseUntil(until);
    this.pump();
  }

  /** Rejects the owner's waiting requests (close()); returns how many. */
  cancelOwner(owner: object, why: string): number {
    const gone = this.queue.removeWhere((w) => w.owner === owner);
    for (const w of gone) w.fail(cancelledError(this.endpoint, why));
    this.pump();
    return gone.length;
  }

  /** Rejects every waiter and stops the timer (registry disposal). */
  cancelAll(why: string): void {
    const gone = this.queue.removeWhere(() => true);
    for (const w of gone) w.fail(cancelledError(this.endpoint, why));
    this.stopTimer();
  }

  get queued(): number {
    return this.queue.size;
  }

  /** Whether a wake-up timer is pending (tests: nothing left behind). */
  get hasTimer(): boolean {
    return this.timer !== null;
  }

  snapshot(): BucketSnapshot {
    const now = this.clock.now();
    const paused = this.model.pausedUntil > now ? this.model.pausedUntil : null;
    return {
      baseUrl: this.baseUrl,
      vendor: this.vendor,
      endpoint: this.endpoint,
      limit: this.model.limit,
      remaining: this.model.serverRemaining(now),
      available: this.model.available(now),
      pausedUntil: paused,
      resetAt: this.model.resetAt(),
      queued: this.queue.size,
      inFlight: this.model.inFlightCount,
      margin: this.model.margin(now),
      consumers: Math.round(this.model.consumers(now)),
      pace: Math.round(this.model.pace(now) * 100) / 100,
    };
  }

  /** Grants slots in priority order while the model allows; otherwise sleeps until it will. */
  private pump(): void {
    const now = this.clock.now();
    while (this.queue.size > 0) {
      const next = this.model.nextSend(now);
      if (next.at > now) {
        this.held.hold(now, next.cause);
        this.wakeAt(next.at, now);
        return;
      }
      const waiter = this.queue.shift()!;
      waiter.grant(this.model.send(now));
    }
    this.held.hold(now, null);
    this.stopTimer();
  }

  private wakeAt(at: number, now: number): void {
    if (at === Infinity) {
      // Only an answer (or failure) of a request in flight can free a slot; those call pump().
      this.stopTimer();
      return;
    }
    if (this.timer !== null && this.timerAt === at) return;
    this.stopTimer();
    this.timerAt = at;
    this.timer = this.clock.setTimeout(
      () => {
        this.timer = null;
        this.timerAt = Infinity;
        this.pump();
      },
      Math.min(MAX_TIMER_MS, Math.max(1, Math.ceil(at - now))),
    );
  }

  private stopTimer(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    this.timerAt = Infinity;
  }
}
