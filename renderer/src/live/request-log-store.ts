/**
 * The request log as the renderer keeps it: a bounded list fed by the requestLog call (on open and
 * after a reconnect) and by `requestLog` events. Entries are ordered by id; repeats are ignored.
 */
import type { z } from 'zod';
import type { logEntrySchema } from '../../../shared/bridge/schemas';
import { RingBuffer } from '../../../shared/ring-buffer';

export type LogEntry = z.output<typeof logEntrySchema>;

export const LOG_ENTRIES_KEPT = 5000;

export class RequestLogStore {
  private readonly ring: RingBuffer<LogEntry>;
  private readonly listeners = new Set<() => void>();
  private lastId = -Infinity;
  /** Entries main's bounded log let go (as it reports). */
  droppedByMain = 0;
  version = 0;

  constructor(capacity = LOG_ENTRIES_KEPT) {
    this.ring = new RingBuffer<LogEntry>(capacity);
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  ingest(entries: readonly LogEntry[], dropped: number): void {
    const fresh = entries.filter((e) => e.id > this.lastId).sort((a, b) => a.id - b.id);
    for (const e of fresh) this.ring.push(e);
    if (fresh.length > 0) this.lastId = fresh[fresh.length - 1]!.id;
    this.droppedByMain = Math.max(this.droppedByMain, dropped);
    if (fresh.length > 0 || dropped > 0) {
      this.version++;
      for (const listener of [...this.listeners]) listener();
    }
  }

  get size(): number {
    return this.ring.size;
  }

  /** The oldest entry kept: how far back the log reaches. */
  get oldest(): LogEntry | undefined {
    return this.ring.at(0);
  }

  /** Forgets everything (before a fresh backfill). */
  clear(): void {
    this.ring.clear();
    this.ring.evicted = 0;
    this.lastId = -Infinity;
    this.droppedByMain = 0;
    this.version++;
    for (const listener of [...this.listeners]) listener();
  }

  /** Entries this page let go to stay bounded. */
  get droppedHere(): number {
    return this.ring.evicted;
  }

  /** Newest first, at most `max`, those matching `keep`. */
  newest(max: number, keep: (e: LogEntry) => boolean = () => true): LogEntry[] {
    const out: LogEntry[] = [];
    for (let i = this.ring.size - 1; i >= 0 && out.length < max; i--) {
      const e = this.ring.at(i)!;
      if (keep(e)) out.push(e);
    }
    return out;
  }

  countMatching(keep: (e: LogEntry) => boolean): number {
    let n = 0;
    for (let i = 0; i < this.ring.size; i++) if (keep(this.ring.at(i)!)) n++;
    return n;
  }
}
