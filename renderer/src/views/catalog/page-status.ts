/** The cursor pager's status line. */
import { fmtInt } from '../../lib/format';

/**
 * "Page 2 · items 21–40 of 5,000". While the page's answer loads, the previous page's rows stay on screen
 * (dimmed) and the line names no items, since those shown are not the page's: "Loading page 2…".
 */
export function pageStatus(pageIndex: number, pageSize: number, shown: number, total: number | null, loading: boolean): string {
  if (loading) return `Loading page ${fmtInt(pageIndex + 1)}…`;
  if (shown === 0) return `Page ${fmtInt(pageIndex + 1)}`;
  const from = pageIndex * pageSize + 1;
  return `Page ${fmtInt(pageIndex + 1)} · items ${fmtInt(from)}–${fmtInt(from + shown - 1)}${total !== null ? ` of ${fmtInt(total)}` : ''}`;
}
