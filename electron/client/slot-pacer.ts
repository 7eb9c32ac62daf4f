/**
 * The fleet slot store as a pacer (pacer.ts): each request first reserves its slot of the fleet's
 * budget in the store (fleet-slot-store.ts), then sleeps until it. Without a store, or while it is
 * down, it has no say and the headers pace alone.
 */
import type { Attempt } from './attempt';
import { MAX_RETRY_AFTER_MS } from './backoff';
import type { Clock } from '../../shared/clock';
import type { Pacer, PaceRequest } from './pacer';

/** A slot of the fleet: send from `at` (local time); sent more than `graceMs` later, it may land in a second the fleet has filled. */
export interface SlotGo {
  at: number;
  graceMs: number;
}

export class SlotPacer implements Pacer<SlotGo> {
  private storeAnswered = false;
  /** A 429 answered to a request sent on a store's slot, not yet reported to the store. */
  private refusalUntold = false;

  constructor(
    /** The bucket's key in the store (storeKey). */
    private readonly key: string,
    /** The limit paced at, read for every slot (the server may lower it). */
    private readonly limit: () => number,
    private readonly clock: Clock,
  ) {}

  /**
   * Whether the store answered the latest reservation: it then spaces the fleet's requests, and the
   * fair-share pacing stands aside (the header model's four bounds still follow the headers, for
   * consumers outside the store).
   */
  get coordinated(): boolean {
    return this.storeAnswered;
  }

  /** Waits for this request's slot; the time spent asking and waiting is the wait's `store` part. */
  async reserve(request: PaceRequest): Promise<SlotGo | null> {
    const store = request.slots?.store() ?? null;
    if (!store || !request.slots) return null;
    const askedAt = this.clock.now();
    try {
      const slot = await store.reserve(this.key, this.limit(), this.takeRefusal());
      this.storeAnswered = slot !== null;
      if (slot === null) return null;
      const at = this.clock.now() + slot.waitMs;
      if (slot.waitMs > 0) await request.slots.sleep(Math.min(slot.waitMs, MAX_RETRY_AFTER_MS));
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

  private takeRefusal(): boolean {
    const told = this.refusalUntold;
    this.refusalUntold = false;
    return told;
  }
}
