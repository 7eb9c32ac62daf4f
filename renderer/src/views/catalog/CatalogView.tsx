/**
 * The catalog for vendor staff: page through it by cursor, search (paged over the matches the
 * service returned), filter, open an asset, download it whole. What an answer did not give, or a
 * setting the service ignores, is said above the table (ReadNotice).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Asset } from '../../../../shared/catalog';
import { PAGE_SIZE_DEFAULT } from '../../../../shared/catalog';
import { useApi } from '../../api/context';
import { keys, useAssetSearch, useAssetsPage, useCategories, useConnection, useSettings } from '../../api/queries';
import { ReadNotice } from '../../components/ReadNotice';
import { Empty, ErrorCallout, Loading } from '../../components/states';
import { fmtInt } from '../../lib/format';
import { navigate } from '../../lib/hash-route';
import { useDebounced } from '../../lib/use-debounced';
import { AssetDetail } from './AssetDetail';
import type { SourcedAsset } from './asset-source';
import { assetInDetail, rowsSourceOf, sourceOf } from './asset-source';
import { AssetsTable } from './AssetsTable';
import { DownloadPanel } from './DownloadPanel';
import { catalogProblem } from './catalog-problem';
import { cursorsOf, FIRST_PAGE } from './cursor-stack';
import type { CursorStack, PageCursor } from './cursor-stack';
import { pageStatus } from './page-status';
import { SEARCH_FETCH, searchStatus } from './search-paging';
import './catalog.css';

const PAGE_SIZES = [10, 20, 50, 100] as const;
/** Search spends budget (20/s): wait until typing pauses. */
const SEARCH_DEBOUNCE_MS = 350;

export default function CatalogView({ assetParam }: { assetParam: string | null }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const settings = useSettings();
  const pageSize = settings.data?.pageSize ?? PAGE_SIZE_DEFAULT;
  const [query, setQuery] = useState('');
  const [category, setCategory] = useState<string | null>(null);
  /** The asset opened, with the profile it was read from (kept when the page's profile changes). */
  const [selected, setSelected] = useState<SourcedAsset | null>(null);
  const shownSource = sourceOf(useConnection().data);
  const [stack, setStack] = useState<CursorStack>({ source: shownSource, cursors: FIRST_PAGE });
  // Derived while rendering, so that no request ever goes to one profile with another's cursor.
  const cursors = cursorsOf(stack, shownSource);
  const setCursors = (next: readonly PageCursor[]) => setStack({ source: shownSource, cursors: next });
  const [searchPage, setSearchPage] = useState(0);
  const debouncedQuery = useDebounced(query.trim(), SEARCH_DEBOUNCE_MS);
  const searching = debouncedQuery !== '' || category !== null;
  // Typed but not searched yet: the results below are for the previous words.
  const typing = query.trim() !== debouncedQuery;

  const categories = useCategories();
  const lastId = cursors[cursors.length - 1] ?? null;
  // Settings only choose the page size: if they cannot be read, browse with the default size.
  const settingsKnown = !settings.isPending;
  const page = useAssetsPage(lastId, pageSize, !searching && settingsKnown);
  const search = useAssetSearch(debouncedQuery, category, SEARCH_FETCH, searching && settingsKnown);
  // New words or another category: back to the first page of matches.
  useEffect(() => setSearchPage(0), [debouncedQuery, category]);
  const current = searching ? search : page;
  const problem = catalogProblem(current, categories);

  const savePageSize = useMutation({
    mutationFn: (size: number) => api.saveSettings({ pageSize: size }),
    onSuccess: (s) => {
      queryClient.setQueryData(keys.settings, s);
      setCursors(FIRST_PAGE);
    },
  });

  const categoryNames = useMemo(() => new Map((categories.data?.items ?? []).map((c) => [c.id, c.name])), [categories.data]);
  const totalAll = page.data?.total ?? null;
  const matches = search.data?.items ?? [];
  const searchPages = Math.max(1, Math.ceil(matches.length / pageSize));
  const searchAt = Math.min(searchPage, searchPages - 1);
  const items = searching ? matches.slice(searchAt * pageSize, (searchAt + 1) * pageSize) : (page.data?.items ?? []);
  const pageIndex = cursors.length - 1;
  const rowsSource = rowsSourceOf(current.data?.readFrom, shownSource);
  const openAsset = (asset: Asset) => {
    // Rows still on screen from another profile (its answer loading) are not opened as the shown one's.
    if (rowsSource === null) return;
    setSelected({ asset, source: rowsSource });
    navigate('catalog', asset.id);
  };
  // Linked from elsewhere (#/catalog/ID): the row if this page holds it, else the id alone.
  const detail = assetInDetail(selected, assetParam, items, rowsSource, shownSource);
  // Kept with its source from the first render on: a later profile change shows it as another vendor's.
  useEffect(() => {
    if (detail !== null && detail !== selected) setSelected(detail);
    else if (assetParam === null && selected !== null) setSelected(null);
  }, [detail, selected, assetParam]);
  const detailKey = detail === null ? null : String(detail.asset.id);
  const detailRef = useRef<HTMLElement>(null);
  // An opened detail comes into view (below the table on narrow windows, a drawer there: see catalog.css).
  useEffect(() => {
    if (detailKey !== null) detailRef.current?.scrollIntoView({ block: 'nearest' });
  }, [detailKey]);

  return (
    <div className="view">
      <div className="view-head">
        <div>
          <h1 className="view-title">Catalog</h1>
          <p className="view-sub">
            {totalAll !== null ? `${fmtInt(totalAll)} assets` : 'Assets'} · paged by cursor (last_id), {pageSize} per page
          </p>
        </div>
      </div>

      <DownloadPanel />

      <div className={detail ? 'split split-open catalog-split' : 'split catalog-split'}>
        <section className="panel" aria-label="Asset list">
          <div className="filters">
            <input
              type="search"
              className="input search-input"
              aria-label="Search assets"
              placeholder="Search assets by title or tag…"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
            />
            <select
              className="input"
              aria-label="Category"
              value={category ?? ''}
              onChange={(e) => setCategory(e.target.value === '' ? null : e.target.value)}
              disabled={categories.isPending}
            >
              <option value="">All categories{totalAll !== null ? ` (${fmtInt(totalAll)})` : ''}</option>
              {(categories.data?.items ?? []).map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name} ({fmtInt(c.count)})
                </option>
              ))}
            </select>
            <label className="inline-field">
              <span>Per page</span>
              <select
                className="input"
                aria-label="Page size"
                value={pageSize}
                onChange={(e) => savePageSize.mutate(Number(e.target.value))}
                disabled={savePageSize.isPending}
              >
                {[...new Set([...PAGE_SIZES, pageSize])]
                  .sort((a, b) => a - b)
                  .map((n) => (
                    <option key={n} value={n}>
                      {n}
                    </option>
                  ))}
              </select>
            </label>
            {current.isFetching || typing ? <span className="spinner" role="status" aria-label="Loading" /> : null}
          </div>
          {problem?.place === 'categories' ? <ErrorCallout error={problem.error} onRetry={problem.retry} /> : null}
          <ReadNotice info={categories.data} what="the categories" />
          {current.data && !current.isPlaceholderData ? <ReadNotice info={current.data} what={searching ? 'the search results' : 'this page'} /> : null}

          {current.isPending && current.fetchStatus !== 'idle' ? (
            <Loading label="Loading assets…" />
          ) : problem?.place === 'list' ? (
            <ErrorCallout error={problem.error} onRetry={problem.retry} />
          ) : items.length === 0 ? (
            <Empty title={typing ? 'Searching…' : searching ? 'No asset matches.' : 'The catalog is empty.'}>
              {searching && !typing ? 'Try other words or another category.' : null}
            </Empty>
          ) : (
            <AssetsTable
              stale={typing || current.isPlaceholderData}
              items={items}
              categoryNames={categoryNames}
              selectedId={detail !== null && detail.source.profileId === rowsSource?.profileId ? detail.asset.id : null}
              onOpen={openAsset}
              query={searching ? debouncedQuery : ''}
            />
          )}

          <div className="pager">
            {searching ? (
              <>
                <span className="muted small" role="status">
                  {search.data && !typing && !search.isPlaceholderData ? searchStatus(searchAt, pageSize, items.length, matches.length, search.data.total) : ''}
                </span>
                {matches.length > pageSize ? (
                  <div className="pager-buttons">
                    <button type="button" className="btn" disabled={searchAt === 0} onClick={() => setSearchPage(searchAt - 1)}>
                      Previous matches
                    </button>
                    <button type="button" className="btn" disabled={searchAt >= searchPages - 1} onClick={() => setSearchPage(searchAt + 1)}>
                      Next matches
                    </button>
                  </div>
                ) : null}
              </>
            ) : (
              <>
                <span className="muted small" role="status">
                  {pageStatus(pageIndex, pageSize, page.data ? items.length : 0, totalAll, page.isPlaceholderData)}
                </span>
                <div className="pager-buttons">
                  <button type="button" className="btn" disabled={pageIndex === 0 || page.isFetching} onClick={() => setCursors(cursors.slice(0, -1))}>
                    Previous page
                  </button>
                  <button
                    type="button"
                    className="btn"
                    disabled={!page.data || page.data.done || page.data.cursor === null || page.isFetching || page.isPlaceholderData}
                    onClick={() => page.data?.cursor != null && setCursors([...cursors, page.data.cursor])}
                  >
                    Next page
                  </button>
                </div>
              </>
            )}
          </div>
        </section>

        {detail ? (
          <AssetDetail
            ref={detailRef}
            opened={detail}
            shown={shownSource}
            categoryName={
              typeof detail.asset.category !== 'string'
                ? null
                : detail.source.profileId === shownSource?.profileId
                  ? (categoryNames.get(detail.asset.category) ?? detail.asset.category)
                  : detail.asset.category
            }
            onClose={() => {
              setSelected(null);
              navigate('catalog');
            }}
          />
        ) : null}
      </div>
    </div>
  );
}
