/**
 * The Catalog's one error callout. Offline, the categories and the asset list fail for the same
 * reason; two identical cards under the app's offline banner said it three times. The list's error
 * is what the page is for, so it stands for both, and its Try again reads both again.
 */
export interface Reading {
  isError: boolean;
  error: unknown;
  refetch(): unknown;
}

export interface CatalogProblem {
  error: unknown;
  /** Where it is shown: in place of the table, or above it (the list itself was read). */
  place: 'list' | 'categories';
  retry(): void;
}

export function catalogProblem(list: Reading, categories: Reading): CatalogProblem | null {
  const failed = [list, categories].filter((r) => r.isError);
  const first = failed[0];
  if (!first) return null;
  return {
    error: first.error,
    place: list.isError ? 'list' : 'categories',
    retry: () => {
      for (const r of failed) void r.refetch();
    },
  };
}
