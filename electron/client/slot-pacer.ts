/**
 * The fleet slot store as a pacer (pacer.ts): each request first reserves its slot of the fleet's
 * budget in the store (fleet-slot-store.ts), then sleeps until it. Without a store, or while it is
 * down, it has no say and the headers pace alone.
 */
import type { EndpointId } from '../../shared/endpoints';
import type { Attempt } from './attempt';
import { slotTooFarError } from './errors';
import { MAX_RETRY_AFTER_MS } from './backoff';
import type { Clock } from '../../shared/clock';
import { GrantedShare } from './granted-share';
import type { Pacer, PaceRequest } from './pacer';
import type { Coordination } from './header-model';

/** A slot of the fleet: send from `at` (local time); sent more than `graceMs` later, it may land in a second the fleet has filled. */
export interface SlotGo {
  at: number;
  graceMs: number;
}

/** Told when the store goes after it spaced the fleet: our share of it lately (requests per second). */
export type OnStoreLost = (at: number, rate: number) => void;

export class SlotPacer implements Pacer<SlotGo> {
  private storeAnswered = false;
  /** The latest slot came from a schedule run at the workers' paces, under the limit (Slot.paced). */
  private paced = false;
  /** A 429 answered to a request sent on a store's slot, not yet reported to the store. */
  private refusalUntold = false;
  private readonly share = new GrantedShare();

  constructor(
    /** The bucket's key in the store (storeKey). */
    private readonly key: string,
    private readonly endpoint: EndpointId,
    /** The limit paced at, read for every slot (the server may lower it). */
    private readonly limit: () => number,
    private readonly clock: Clock,
    /**
     * Where the store fails, each worker of the fleet goes on at the share it was granted instead of
     * starting alone at the whole limit and finding the others again through 429s.
     */
    private readonly onLost: OnStoreLost = () => undefined,
    /** Our fair-share pace from the headers (told to the store: consumers outside it show there). */
    private readonly pace: (now: number) => number | undefined = () => undefined,
  ) {}

  /**
   * Whether the store answered the latest reservation: it then spaces the fleet's requests, and the
   * fair-share pacing stands aside (the header model's four bounds still follow the headers, for
   * consumers outside the store); all but its deferral while the store's schedule ran under the limit.
   */
  get coordination(): Coordination {
    return !this.storeAnswered ? 'headers' : this.paced ? 'storeBesideOthers' : 'store';
  }

  /** Waits for this request's slot; the time spent asking and waiting is the wait's `store` part. */
  async reserve(request: PaceRequest): Promise<SlotGo | null> {
    const store = request.slots?.store() ?? null;
    if (!store || !request.slots) {
      this.storeGone(); // none configured, or its lease released while we go on
      return null;
    }
    const askedAt = this.clock.now();
    try {
      const slot = await store.reserve(this.key, this.limit(), this.takeRefusal(), this.pace(askedAt));
      this.storeAnswered = slot !== null;
      this.paced = slot?.paced === true;
      if (slot === null) {
        // One slow answer sends only this request on the headers; the store is gone once it says fallback.
        if (store.status().state === 'fallback') this.storeGone();
        return null;
      }
      this.share.granted(this.clock.now(), slot.waitMs);
      // An answer read late is a slot due earlier: past its grace, bucket.acquire() gives it up.
      const wait = slot.waitMs - (slot.lateMs ?? 0);
      // Sent later than its slot it could land in a second the fleet filled, sent earlier out of the schedule:
      // a slot further off than the call waits is given up at once (it is gone from the schedule either way).
      const bound = request.maxWaitMs === undefined ? Infinity : request.maxWaitMs - (this.clock.now() - askedAt);
      if (wait > bound) throw slotTooFarError(this.endpoint, wait, request.maxWaitMs!);
      const at = this.clock.now() + wait;
      if (wait > 0) await request.slots.sleep(Math.min(wait, MAX_RETRY_AFTER_MS));
      return { at, graceMs: slot.graceMs };
    } finally {
      if (request.waitCauses) request.waitCauses.store += Math.max(0, this.clock.now() - askedAt);
    }
  }

  /** A slot not used is simply gone: the store's schedule has moved on. */
  release(): void {}

  /** A 429 on a store's slot is told to the store with the next reservation (it widens its spacing). */
  settle(attempt: Attempt): void {
    if (attempt.result.kind === 'answer' && attempt.result.status === 429 && this.storeAnswered) this.refusalUntold = true;
  }

  private storeGone(): void {
    this.storeAnswered = false;
    const now = this.clock.now();
    const rate = this.share.end(now);
    if (rate !== null) this.onLost(now, rate);
  }

  private takeRefusal(): boolean {
    const told = this.refusalUntold;
    this.refusalUntold = false;
    return told;
  }
}
