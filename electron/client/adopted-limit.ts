/**
 * The limit a budget is paced at: the documented one (the endpoint table's), or a lower one the
 * server's Limit header insists on. A lower Limit is adopted once two answers in a row agree on it
 * (a single garbled one is not); a higher one is never adopted.
 */
export class AdoptedLimit {
  readonly documented: number;
  private adopted: number | null = null;
  private lastHeard: number | null = null;

  constructor(documented: number) {
    this.documented = Math.max(1, Math.floor(documented));
  }

  get value(): number {
    return this.adopted === null ? this.documented : Math.min(this.documented, this.adopted);
  }

  /** An answer's Limit header (null when unreadable). */
  heard(limit: number | null): void {
    if (limit === null || limit < 1) return;
    if (limit >= this.documented) this.adopted = null;
    else if (limit === this.lastHeard) this.adopted = Math.floor(limit);
    this.lastHeard = limit;
  }
}
