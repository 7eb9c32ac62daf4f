/**
 * Ledger writes that must land: what the service already did (a registration it accepted, a
 * validate, a cancel, an info) is written now, or, when the store cannot take it now (another
 * process holds the write lock past the wait, a full disk, a read-only folder), kept in order and
 * retried with a bounded backoff until it lands, while the process lives. Kept in order so that a
 * later answer (validated) is never overwritten by an earlier one (registered) landing after it.
 */
import { errorMessage, isPassingStoreFailure } from './store-errors';

/** First retry after this, doubling to RETRY_MAX_MS: a lock held for seconds is caught soon after it goes. */
export const RETRY_FIRST_MS = 250;
export const RETRY_MAX_MS = 4_000;

/**
 * Not landed: kept for later, or `lost` (the write failed for good: a damaged file, a bug), with the
 * reason; `registeringOff` when the ledger now refuses registering (it found its file damaged).
 */
export type Landing<T> = { landed: true; value: T } | { landed: false; reason: string; lost?: true; registeringOff?: true };

interface Pending {
  what: string;
  /** What the write is about (e.g. an asset), or undefined: could be about anything. */
  about?: string;
  write: () => void;
}

export interface WriteRetryOptions {
  /** Runs a background attempt with a short wait for the lock, so that retrying never stalls the process for long. */
  briefly?: (write: () => void) => void;
  log?: (message: string) => void;
  /** A queued write dropped for good (its error). */
  dropped?: (e: unknown) => void;
  setTimer?: (fn: () => void, ms: number) => { unref?: () => void };
  clearTimer?: (timer: unknown) => void;
}

export class LedgerWriteRetry {
  private readonly queue: Pending[] = [];
  private timer: unknown = null;
  private delayMs = RETRY_FIRST_MS;
  private closed = false;
  private readonly briefly: (write: () => void) => void;
  private readonly log: (message: string) => void;
  private readonly dropped: (e: unknown) => void;
  private readonly setTimer: NonNullable<WriteRetryOptions['setTimer']>;
  private readonly clearTimer: NonNullable<WriteRetryOptions['clearTimer']>;

  constructor(options: WriteRetryOptions = {}) {
    this.briefly = options.briefly ?? ((write) => write());
    this.log = options.log ?? (() => undefined);
    this.dropped = options.dropped ?? (() => undefined);
    this.setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = options.clearTimer ?? ((t) => clearTimeout(t as ReturnType<typeof setTimeout>));
  }

  /** Writes waiting to land. */
  get pending(): number {
    return this.queue.length;
  }

  /**
   * Writes now (after any earlier pending writes), or keeps it for later when the store cannot take
   * it now. Throws what is not a passing store failure (a bug must not loop).
   */
  write<T>(what: string, write: () => T, about?: string): Landing<T> {
    let value: { v: T } | null = null;
    this.queue.push({ what, about, write: () => void (value = { v: write() }) });
    if (this.queue.length === 1) {
      try {
        this.queue[0]!.write();
        this.queue.shift();
      } catch (e) {
        if (!isPassingStoreFailure(e)) {
          this.queue.pop();
          throw e;
        }
        this.schedule();
        return { landed: false, reason: errorMessage(e) };
      }
    } else this.drain();
    const landed = value as { v: T } | null;
    return landed ? { landed: true, value: landed.v } : { landed: false, reason: 'earlier ledger writes are still waiting for the store' };
  }

  /** Whether a write about `about` (or one about anything) still waits for the store. */
  pendingAbout(about: string): boolean {
    return this.queue.some((p) => p.about === undefined || p.about === about);
  }

  /** Tries the pending writes now, in order (e.g. before the guard reads the ledger). */
  drain(): void {
    while (this.queue.length > 0 && !this.closed) {
      const next = this.queue[0]!;
      try {
        this.briefly(next.write);
      } catch (e) {
        if (isPassingStoreFailure(e)) {
          this.schedule();
          return;
        }
        this.log(`Ledger write dropped (${next.what}): ${errorMessage(e)}`);
        this.dropped(e);
      }
      this.queue.shift();
    }
    this.delayMs = RETRY_FIRST_MS;
  }

  /** Stops retrying (the store is closing); what is left "sending" becomes "unknown" at the next start. */
  close(): void {
    this.closed = true;
    if (this.timer !== null) this.clearTimer(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    if (this.timer !== null || this.closed) return;
    const delay = this.delayMs;
    this.delayMs = Math.min(RETRY_MAX_MS, this.delayMs * 2);
    const timer = this.setTimer(() => {
      this.timer = null;
      this.drain();
    }, delay);
    // Never keeps a process alive on its own: a process that ends leaves "sending", recovered at next start.
    timer.unref?.();
    this.timer = timer;
  }
}
