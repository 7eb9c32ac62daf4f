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

/** How far back our granted slots count as our share of the fleet when the store fails. */
export const SHARE_WINDOW_MS = 3_000;

/** Told when the store stops answering after it spaced the fleet: our share of it lately (requests per second). */
export type OnStoreLost = (at: number, rate: number) => void;

export class SlotPacer implements Pacer<SlotGo> {
  private storeAnswered = false;
  /** A 429 answered to a request sent on a store's slot, not yet reported to the store. */
  private refusalUntold = false;
  /** Since when the store has answered every reservation, and the local times of its grants since (at most SHARE_WINDOW_MS back). */
  private answeringSince = 0;
  private grantedAt: number[] = [];

  constructor(
    /** The bucket's key in the store (storeKey). */
    private readonly key: string,
    /** The limit paced at, read for every slot (the server may lower it). */
    private readonly limit: () => number,
    private readonly clock: Clock,
    /**
     * Where the store fails, each worker of the fleet goes on at the share it was granted instead of
     * starting alone at the whole limit and finding the others again through 429s.
     */
    private readonly onLost: OnStoreLost = () => undefined,
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
      this.noteAnswer(slot !== null);
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

  private noteAnswer(granted: boolean): void {
    const now = this.clock.now();
    const wasAnswering = this.storeAnswered;
    this.storeAnswered = granted;
    if (!granted) {
      if (wasAnswering) this.onLost(now, this.grantedRate(now));
      this.grantedAt = [];
      return;
    }
    if (!wasAnswering) this.answeringSince = now;
    this.grantedAt.push(now);
    if (this.grantedAt[0]! <= now - SHARE_WINDOW_MS) this.grantedAt = this.grantedAt.filter((t) => t > now - SHARE_WINDOW_MS);
  }

  /** Our grants per second over the window, or since the store began answering if that is shorter (at least 1 s). */
  private grantedRate(now: number): number {
    const recent = this.grantedAt.filter((t) => t > now - SHARE_WINDOW_MS).length;
    return (recent * 1000) / Math.max(1000, Math.min(SHARE_WINDOW_MS, now - this.answeringSince));
  }

  private takeRefusal(): boolean {
    const told = this.refusalUntold;
    this.refusalUntold = false;
    return told;
  }
}
