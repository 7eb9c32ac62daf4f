/** Search results paged here: the specification gives search no offset or cursor. */
import { PAGE_SIZE_MAX } from '../../../../shared/catalog';
import { fmtInt } from '../../lib/format';

/** A search asks for the most matches one request may bring (the same budget slot as 20) and pages through them. */
export const SEARCH_FETCH = PAGE_SIZE_MAX;

/** "Matches 21–40 of 148 (the service returned the first 100: narrow the search for the rest)". */
export function searchStatus(at: number, pageSize: number, shown: number, fetched: number, total: number | null): string {
  if (fetched === 0) return `0 shown of ${total !== null ? fmtInt(total) : 'unknown'} matches`;
  const from = at * pageSize + 1;
  const range = `${fmtInt(from)}–${fmtInt(from + shown - 1)}`;
  const of = total !== null ? fmtInt(Math.max(total, fetched)) : fetched < SEARCH_FETCH ? fmtInt(fetched) : `${fmtInt(fetched)}+`;
  const capped = (total !== null && total > fetched) || (total === null && fetched >= SEARCH_FETCH);
  return `${range} shown of ${of} matches${capped ? ` · the service returns the first ${fmtInt(fetched)}: add words or a category to reach the rest` : ''}`;
}
