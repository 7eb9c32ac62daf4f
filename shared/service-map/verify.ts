/**
 * Verification instead of trust: when an answer shows that the service ignored what was asked,
 * say which service-map setting to fix. Pure; used by the app's views, the download and the CLI.
 */
import type { ReadAsset } from '../catalog';

export interface PageCheck {
  /** The page size asked for, and the parameter it was sent as (null: none sent). */
  asked: number;
  param: string | null;
  /** Items in the answer. */
  received: number;
  /** No page follows. */
  done: boolean;
}

/** A page larger than asked, or smaller while more follow: the page-size parameter is not honoured. */
export function verifyPage(check: PageCheck): string[] {
  if (check.param === null || check.received === check.asked) return [];
  if (check.received > check.asked || !check.done) {
    return [
      `The page-size parameter \`${check.param}\` seems ignored: asked for ${check.asked} items, got ${check.received} while more follow. Fix list.pageSizeParam in the service map.`,
    ];
  }
  return [];
}

export interface SearchCheck {
  /** The category filtered on (null: no filter), and the field it was sent as. */
  category: string | null;
  field: string | null;
  /** How many the search asked for, and the field it was sent as. */
  limit: number;
  limitField: string | null;
  items: readonly ReadAsset[];
}

/** Items outside the category asked for, or more items than the limit: that search field is not honoured. */
export function verifySearch(check: SearchCheck): string[] {
  const warnings: string[] = [];
  if (check.category !== null && check.category !== '') {
    const outside = check.items.filter((a) => a.category !== undefined && a.category.toLowerCase() !== check.category!.toLowerCase());
    if (check.field === null) {
      warnings.push(
        `The service map has no category field for search, so the category "${check.category}" was not sent. Set search.categoryField in the service map.`,
      );
    } else if (outside.length > 0) {
      warnings.push(
        `The category filter \`${check.field}\` seems ignored: ${outside.length} of ${check.items.length} results are not in "${check.category}". Fix search.categoryField in the service map.`,
      );
    }
  }
  if (check.limitField !== null && check.items.length > check.limit) {
    warnings.push(
      `The search limit \`${check.limitField}\` seems ignored: asked for ${check.limit} results, got ${check.items.length}. Fix search.limitField in the service map.`,
    );
  }
  return warnings;
}
