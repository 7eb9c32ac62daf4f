/** A budget store's status and who listens to it: the same for Redis and the machine store. */
import type { SlotStoreStatus } from './fleet-slot-store';

export class StoreStatus {
  private current: SlotStoreStatus;
  private readonly listeners = new Set<(status: SlotStoreStatus) => void>();
  private closed = false;

  constructor(initial: SlotStoreStatus) {
    this.current = initial;
  }

  get(): SlotStoreStatus {
    return { ...this.current };
  }

  /** A method, not a getter: read again after every await (another answer may have changed it meanwhile). */
  state(): SlotStoreStatus['state'] {
    return this.current.state;
  }

  onChange(listener: (status: SlotStoreStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Takes `next`; where its state differs from the one before, `changed(before)` runs (the store's log
   * line) and every listener hears it. Nothing after close().
   */
  set(next: SlotStoreStatus, changed: (before: SlotStoreStatus['state']) => void): void {
    if (this.closed) return;
    const before = this.current.state;
    this.current = next;
    if (next.state === before) return;
    changed(before);
    for (const l of [...this.listeners]) {
      try {
        l(this.get());
      } catch {
        // a listener's bug must not break pacing
      }
    }
  }

  close(): void {
    this.closed = true;
    this.listeners.clear();
  }
}
