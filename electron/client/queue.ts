/**
 * Requests waiting for budget in one bucket: 'interactive' before 'background' (a click goes before
 * the next page of a download), first come first served within a priority. A retried request keeps
 * its original place.
 */
export type Priority = 'interactive' | 'background';

const RANK: Record<Priority, number> = { interactive: 0, background: 1 };

export interface Queued {
  readonly priority: Priority;
  /** Arrival order; smaller goes first within a priority. */
  readonly order: number;
}

export function isPriority(value: unknown): value is Priority {
  return value === 'interactive' || value === 'background';
}

export class WaitQueue<T extends Queued> {
  private items: T[] = [];

  get size(): number {
    return this.items.length;
  }

  push(item: T): void {
    const before = (a: T, b: T): boolean => RANK[a.priority] < RANK[b.priority] || (RANK[a.priority] === RANK[b.priority] && a.order < b.order);
    let i = this.items.length;
    while (i > 0 && before(item, this.items[i - 1]!)) i--;
    this.items.splice(i, 0, item);
  }

  shift(): T | undefined {
    return this.items.shift();
  }

  remove(item: T): boolean {
    const i = this.items.indexOf(item);
    if (i < 0) return false;
    this.items.splice(i, 1);
    return true;
  }

  /** Removes and returns every item that matches. */
  removeWhere(match: (item: T) => boolean): T[] {
    const out = this.items.filter(match);
    this.items = this.items.filter((i) => !match(i));
    return out;
  }

  countWhere(match: (item: T) => boolean): number {
    return this.items.filter(match).length;
  }
}
