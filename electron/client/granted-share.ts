/**
 * Our share of the fleet while its slot store spaces us: the slots it granted over the last
 * SHARE_WINDOW_MS. When the store goes, the header model resumes fair-share pacing at that rate
 * (FairShare.resume), so each worker goes on at about its share instead of alone at the whole limit.
 */

export const SHARE_WINDOW_MS = 3_000;
/**
 * Slots the store made us wait for, within the window, before the grants tell our share: an idle
 * caller's or a slow one's come at once and say only what it asked for.
 */
const HELD_GRANTS = 2;

export class GrantedShare {
  private since: number | null = null;
  private grants: { at: number; held: boolean }[] = [];

  granted(at: number, waitMs: number): void {
    this.since ??= at;
    this.grants.push({ at, held: waitMs > 0 });
    if (this.grants[0]!.at <= at - SHARE_WINDOW_MS) this.grants = this.grants.filter((g) => g.at > at - SHARE_WINDOW_MS);
  }

  /**
   * The store is gone: our grants per second over the window (or since it began granting, at least
   * 1 s) when it was holding us to a share; null when nothing says what our share was. Forgets them.
   */
  end(now: number): number | null {
    const recent = this.grants.filter((g) => g.at > now - SHARE_WINDOW_MS);
    const since = this.since;
    this.since = null;
    this.grants = [];
    if (since === null || recent.filter((g) => g.held).length < HELD_GRANTS) return null;
    return (recent.length * 1000) / Math.max(1000, Math.min(SHARE_WINDOW_MS, now - since));
  }
}
