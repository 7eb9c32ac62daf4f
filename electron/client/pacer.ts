/**
 * A pacer says when one request of a bucket may go, and learns from what came back. BudgetBucket
 * composes two, as Bottleneck puts its local and Redis datastores behind one interface:
 *   - the fleet's slot store (slot-pacer.ts): a slot reserved in Redis before the request queues,
 *     so that workers on many machines are spaced apart together;
 *   - the header model (header-pacer.ts): the bucket's queue, granted as the four bounds and the
 *     fair-share pacing of header-model.ts allow.
 * Neither is reached from outside the bucket: `BudgetBucket.acquire` composes their goes and
 * `BudgetBucket.settle` hands each the attempt.
 */
import type { Attempt } from './attempt';
import type { FleetSlotStore } from './fleet-slot-store';
import type { Priority } from './queue';
import type { WaitCauses } from '../../shared/wait-causes';

/** What the caller lends the bucket to wait for a slot of the fleet's store. */
export interface FleetSlots {
  /** The store the caller's scope uses now (looked up for every slot), or null: headers only. */
  store(): FleetSlotStore | null;
  /** The caller's own wait until its slot, which its close() and the request's signal end. */
  sleep(ms: number): Promise<void>;
  /** Whether the caller was closed: a slot sent late is then kept, not traded for another. */
  closed(): boolean;
}

/** One request asking for its go. */
export interface PaceRequest {
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
  /** The fleet's slot store and how to wait for it; absent: headers only. */
  slots?: FleetSlots;
}

export interface Pacer<Go> {
  /** Waits for this pacer's go for one request; null: it has no say now (no store, or the store is down). */
  reserve(request: PaceRequest): Promise<Go | null>;
  /** A go not used: nothing was sent on it. */
  release(go: Go): void;
  /** What an attempt sent on the go taught (its answer, or its failure). */
  settle(attempt: Attempt): void;
}
