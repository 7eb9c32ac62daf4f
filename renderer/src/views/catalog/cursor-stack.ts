/**
 * The pager's cursors, kept with the profile they were read from. A cursor names a place in one service's
 * catalog: another profile shown (switched in the header, or edited to point elsewhere) starts at its own
 * first page, never at the place the other one had reached.
 */
import type { AssetSource } from '../../api/queries';
import { sameTarget } from '../../api/queries';

export type PageCursor = string | number | null;

export interface CursorStack {
  source: AssetSource | null;
  /** The first page's (null) and each next page's cursor, in order. */
  cursors: readonly PageCursor[];
}

export const FIRST_PAGE: readonly PageCursor[] = [null];

/** The cursors of the shown profile: the stack's own when it was built on that profile, else the first page. */
export function cursorsOf(stack: CursorStack, shown: AssetSource | null): readonly PageCursor[] {
  const same = stack.source === null ? shown === null : shown !== null && sameTarget(stack.source, shown);
  return same ? stack.cursors : FIRST_PAGE;
}
