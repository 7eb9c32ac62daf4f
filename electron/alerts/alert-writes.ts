/**
 * The alert service's writes, in order. A fire or clear the store cannot take now (another process
 * holds the lock past the store's brief wait, a full disk) is kept in memory and written at a later
 * try (each tick of the service), then announced: never lost while the process lives, never written
 * twice. In order, so that a clear lands after its fire, and a key firing anew after that clear.
 * A clear of a fire still waiting joins it (one row, stored already ended), and at most `maxPending`
 * writes wait: a store that never recovers (full, read-only) drops the oldest rather than grow memory
 * for the life of the process.
 */
import type { AlertView } from '../../shared/bridge/alert-schemas';
import type { AlertStart, AlertStore } from '../store';
import { errorMessage, isLockedOut } from '../store';

/** Every write landed (`stored`), or some wait in memory for the store (`pending`). */
export type WriteOutcome = 'stored' | 'pending';

type Ended = { at: number; landed: (alert: AlertView | null) => void };
type Write =
  /** `end`: its clear came while the fire waited; both land as one row. */
  { type: 'fire'; key: string; start: AlertStart; landed: (alert: AlertView) => void; end: Ended | null } | ({ type: 'end'; key: string } & Ended);

/** Writes kept while the store refuses them: hours of a rule flapping every few seconds. */
export const MAX_PENDING_ALERT_WRITES = 1_000;

export interface AlertWritesOptions {
  /** A write that cannot land now, and writes dropped past the cap: each said once an outage (until all waiting landed). */
  onError: (e: unknown) => void;
  maxPending?: number;
}

export class AlertWrites {
  private readonly queue: Write[] = [];
  /** Stored alert id per firing key (a key's fire landed, its end not yet). */
  private readonly open = new Map<string, number>();
  /** A write could not land and the queue has not emptied since (reported once: a full disk would otherwise log at every tick). */
  private failing = false;
  /** Writes were dropped this outage (reported once). */
  private dropping = false;

  constructor(
    private readonly store: AlertStore,
    private readonly options: AlertWritesOptions,
  ) {}

  /** Writes waiting for the store. */
  get pending(): number {
    return this.queue.length;
  }

  fire(key: string, start: AlertStart, landed: (alert: AlertView) => void): WriteOutcome {
    this.push({ type: 'fire', key, start, landed, end: null });
    return this.drain();
  }

  /** Ends the alert `key` fired (nothing when its fire was never stored). */
  end(key: string, at: number, landed: (alert: AlertView | null) => void): WriteOutcome {
    const waiting = this.queue.findLast((w) => w.key === key);
    if (waiting?.type === 'fire' && waiting.end === null) waiting.end = { at, landed };
    else this.push({ type: 'end', key, at, landed });
    return this.drain();
  }

  private push(w: Write): void {
    const max = this.options.maxPending ?? MAX_PENDING_ALERT_WRITES;
    if (this.queue.length >= max) {
      this.queue.splice(0, this.queue.length - max + 1);
      if (!this.dropping) {
        this.dropping = true;
        // A dropped end leaves its alert firing in the store until the next start ends it (endOrphans).
        this.options.onError(new Error(`The alert store still refuses writes: the oldest waiting alert writes are dropped (the newest ${max} are kept).`));
      }
    }
    this.queue.push(w);
  }

  /**
   * Writes what waits, in order per key, and announces each as it lands. A lock held elsewhere stops the
   * try (every write would wait for it); another failure (a full disk, a bug) holds back only its key.
   */
  drain(): WriteOutcome {
    const held = new Set<string>();
    for (let i = 0; i < this.queue.length;) {
      const next = this.queue[i]!;
      if (held.has(next.key)) {
        i += 1;
        continue;
      }
      let announce: () => void;
      try {
        announce = this.write(next);
      } catch (e) {
        this.failedNow(next, e);
        if (isLockedOut(e)) return 'pending';
        held.add(next.key);
        i += 1;
        continue;
      }
      this.queue.splice(i, 1);
      try {
        announce();
      } catch (e) {
        this.options.onError(e);
      }
    }
    if (this.queue.length > 0) return 'pending';
    this.failing = false;
    this.dropping = false;
    return 'stored';
  }

  /** Writes one; returns its announcement. */
  private write(w: Write): () => void {
    if (w.type === 'fire') {
      const { end } = w;
      const alert = this.store.start(w.start, end?.at ?? null);
      if (end === null) {
        this.open.set(w.key, alert.id);
        return () => w.landed(alert);
      }
      return () => {
        w.landed({ ...alert, endedAt: null });
        end.landed(alert);
      };
    }
    const id = this.open.get(w.key);
    const alert = id === undefined ? null : this.store.end(id, w.at);
    this.open.delete(w.key);
    return () => w.landed(alert);
  }

  private failedNow(w: Write, e: unknown): void {
    if (this.failing) return;
    this.failing = true;
    this.options.onError(
      new Error(
        `Could not store ${what(w)} (${errorMessage(e)}); it is kept and written when the store allows. Further failures are not logged until every waiting write is stored.`,
        {
          cause: e,
        },
      ),
    );
  }
}

function what(w: Write): string {
  return w.type === 'fire' ? `the alert "${w.start.message}"` : 'the end of an alert';
}
