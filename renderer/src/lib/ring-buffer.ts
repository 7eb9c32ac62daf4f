/** A fixed-capacity FIFO: pushing past capacity drops the oldest item. Memory never grows past it. */
export class RingBuffer<T> {
  private readonly items: (T | undefined)[];
  private start = 0;
  private count = 0;
  /** How many items were let go since creation. */
  dropped = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be a positive integer');
    this.items = new Array<T | undefined>(capacity);
  }

  get size(): number {
    return this.count;
  }

  push(item: T): void {
    if (this.count < this.capacity) {
      this.items[(this.start + this.count) % this.capacity] = item;
      this.count++;
    } else {
      this.items[this.start] = item;
      this.start = (this.start + 1) % this.capacity;
      this.dropped++;
    }
  }

  /** i = 0 is the oldest kept item. */
  at(i: number): T | undefined {
    if (i < 0 || i >= this.count) return undefined;
    return this.items[(this.start + i) % this.capacity];
  }

  last(): T | undefined {
    return this.at(this.count - 1);
  }

  clear(): void {
    this.items.fill(undefined);
    this.start = 0;
    this.count = 0;
  }

  /** Items oldest first. */
  toArray(): T[] {
    const out: T[] = [];
    for (let i = 0; i < this.count; i++) out.push(this.at(i) as T);
    return out;
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
}
