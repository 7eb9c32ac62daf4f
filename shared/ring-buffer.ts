/**
 * A fixed-capacity FIFO: pushing onto a full buffer lets the oldest item go. Memory never grows past
 * `capacity`. Shared so that main's telemetry and the renderer's live stores bound memory the same way.
 */
export class RingBuffer<T> {
  private readonly items: (T | undefined)[];
  private start = 0;
  private count = 0;
  /** How many items were let go since creation. */
  evicted = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
    this.items = new Array<T | undefined>(capacity);
  }

  get size(): number {
    return this.count;
  }

  /** Adds an item; returns the item it let go, if any. */
  push(item: T): T | undefined {
    if (this.count < this.capacity) {
      this.items[(this.start + this.count) % this.capacity] = item;
      this.count += 1;
      return undefined;
    }
    const old = this.items[this.start];
    this.items[this.start] = item;
    this.start = (this.start + 1) % this.capacity;
    this.evicted += 1;
    return old;
  }

  /** Item i, oldest first (0 = oldest); negative counts from the newest (-1 = newest). */
  at(i: number): T | undefined {
    const index = i < 0 ? this.count + i : i;
    if (index < 0 || index >= this.count) return undefined;
    return this.items[(this.start + index) % this.capacity];
  }

  last(): T | undefined {
    return this.at(-1);
  }

  /** Oldest first. */
  toArray(): T[] {
    const out: T[] = [];
    for (let i = 0; i < this.count; i++) out.push(this.items[(this.start + i) % this.capacity] as T);
    return out;
  }

  /** Newest first, stopping early when `visit` returns false. */
  forEachNewest(visit: (item: T) => boolean | void): void {
    for (let i = this.count - 1; i >= 0; i--) {
      if (visit(this.items[(this.start + i) % this.capacity] as T) === false) return;
    }
  }

  /** Index of the first item for which `isAtOrAfter` holds, items being ordered by it (binary search). */
  lowerBound(isAtOrAfter: (item: T) => boolean): number {
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (isAtOrAfter(this.at(mid) as T)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  clear(): void {
    this.items.fill(undefined);
    this.start = 0;
    this.count = 0;
  }
}
