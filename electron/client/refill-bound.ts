/**
 * A lower bound on what a continuously refilled bucket (N per second, at most N) still holds for us.
 *
 * allowance(t) >= min(N, base + N * (t - baseAt) / 1000) - (requests consumed after baseAt)
 * holds whatever the order and timing of those consumptions (taking after the cap only lowers it).
 * Requests we sent but that may not have been consumed yet ("pending") are subtracted too, so the
 * bound is what we may still send. When a pending request's answer arrives, it was consumed by then:
 * it is folded into the base at that time, and the refill since restarts from there. Pending
 * requests are never folded early: under the cap, folding them before they are consumed would
 * overstate the bound.
 */
export class RefillBound {
  private base: number;
  private baseAt: number;
  private readonly pending = new Set<number>();

  constructor(base: number, baseAt: number, pending: Iterable<number> = []) {
    this.base = base;
    this.baseAt = baseAt;
    for (const id of pending) this.pending.add(id);
  }

  /** Slots we may still use at local time t (may be fractional or negative). */
  value(t: number, limit: number): number {
    const refilled = Math.min(limit, this.base + (limit * Math.max(0, t - this.baseAt)) / 1000);
    return refilled - this.pending.size;
  }

  /** Earliest local time >= now at which value >= need; Infinity if only answers can free slots. */
  earliest(need: number, now: number, limit: number): number {
    if (this.value(now, limit) >= need - 1e-9) return now;
    if (limit - this.pending.size < need - 1e-9) return Infinity;
    return this.baseAt + ((need + this.pending.size - this.base) * 1000) / limit;
  }

  add(id: number): void {
    this.pending.add(id);
  }

  /** The request was consumed by time t (its answer arrived, or it can no longer be consumed later). */
  settle(id: number, t: number, limit: number): void {
    if (!this.pending.delete(id)) return;
    const at = Math.max(t, this.baseAt);
    this.base = Math.min(limit, this.base + (limit * (at - this.baseAt)) / 1000) - 1;
    this.baseAt = at;
  }

  /** The request never reached the server: it consumed nothing. */
  refund(id: number): void {
    this.pending.delete(id);
  }

  has(id: number): boolean {
    return this.pending.has(id);
  }
}
