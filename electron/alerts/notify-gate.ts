/**
 * Whether a firing alert raises a notification: never in quiet mode, and at most one per rule per
 * `intervalMs` (10 min), whatever endpoint fired (a whole busy vendor is one notification, not ten).
 * An edited rule starts afresh (the user changed what it watches).
 */
export const NOTIFY_INTERVAL_MS = 10 * 60_000;

export class NotifyGate {
  private readonly last = new Map<number, number>();

  constructor(
    private readonly quiet: () => boolean,
    private readonly intervalMs: number = NOTIFY_INTERVAL_MS,
  ) {}

  /** Decides for one firing of `ruleId` at `now`; a yes starts the rule's interval. */
  allow(ruleId: number, now: number): boolean {
    if (this.quiet()) return false;
    const last = this.last.get(ruleId);
    if (last !== undefined && now - last < this.intervalMs) return false;
    this.last.set(ruleId, now);
    return true;
  }

  forget(ruleId: number): void {
    this.last.delete(ruleId);
  }
}
