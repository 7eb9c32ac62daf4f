/**
 * The header model as a pacer (pacer.ts): the bucket's queue of waiting requests, granted in priority
 * order as soon as the model (header-model.ts) allows, and the single timer that wakes the queue when
 * the model says the next slot is free. Its go is the ticket of a request that now counts as sent.
 */
import type { EndpointId } from '../../shared/endpoints';
import type { PartnerError } from '../../shared/errors';
import type { Clock } from '../../shared/clock';
import type { Attempt } from './attempt';
import { cancelledError, queueTimeoutError } from './errors';
import type { HeaderModel, Ticket } from './header-model';
import type { FailureKind } from './http';
import { NOTHING_SENT } from './http';
import type { Pacer, PaceRequest } from './pacer';
import type { Queued } from './queue';
import { WaitQueue } from './queue';
import { WaitLedger } from './wait-ledger';

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

/** Whether a failed attempt may have used a slot, and by when. */
export function reachOf(failure: FailureKind): 'no' | 'before-now' | 'maybe-later' {
  if (NOTHING_SENT.includes(failure)) return 'no';
  if (failure === 'network' || failure === 'odd-status' || failure === 'redirect') return 'before-now'; // an odd status or a redirect was answered already
  return 'maybe-later';
}

export class HeaderPacer implements Pacer<Ticket> {
  private readonly queue = new WaitQueue<Waiter>();
  private readonly held = new WaitLedger();
  private timer: unknown = null;
  private timerAt = Infinity;

  constructor(
    private readonly model: HeaderModel,
    private readonly endpoint: EndpointId,
    private readonly clock: Clock,
  ) {}

  /** Waits in the queue for the model's go; resolves with the ticket of a request that now counts as sent. */
  reserve(request: PaceRequest): Promise<Ticket> {
    if (request.signal?.aborted) return Promise.reject(cancelledError(this.endpoint));
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
        request.signal?.removeEventListener('abort', onAbort);
        if (expiry !== null) this.clock.clearTimeout(expiry);
      };
      const waiter: Waiter = {
        priority: request.priority,
        order: request.order ?? nextQueueOrder(),
        owner: request.owner,
        grant: (ticket) => {
          if (request.waitCauses) this.held.addSince(heldAtStart, ticket.sentAt, request.waitCauses);
          done();
          resolve(ticket);
        },
        fail: (error) => {
          done();
          reject(error);
        },
      };
      request.signal?.addEventListener('abort', onAbort, { once: true });
      const maxWait = request.maxWaitMs;
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

  /** Nothing was sent on the ticket: its slot is given back. */
  release(ticket: Ticket): void {
    this.model.failed(ticket, this.clock.now(), 'no');
    this.pump();
  }

  settle(attempt: Attempt): void {
    const { result, ticket } = attempt;
    if (result.kind === 'answer') {
      const { status, rate, dateMs } = result;
      this.model.answered(ticket, { receivedAt: attempt.receivedAt, status, rate, dateMs });
    } else {
      this.model.failed(ticket, this.clock.now(), reachOf(result.failure));
    }
    this.pump();
  }

  /** The whole queue waits until `until`: every queued request, not only the one refused. */
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

  get hasTimer(): boolean {
    return this.timer !== null;
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
