/**
 * The one table of the app, on TanStack Table: sorting, column choice, order and width remembered per
 * view, keyboard navigation (arrows, Home/End, PageUp/PageDown, Enter opens), a sticky header, and for
 * long lists TanStack Virtual (only the rows in sight are in the page). Columns always fit the width
 * the table has (fit-columns.ts): cells end in an ellipsis with the full text as a tooltip, and the
 * least important columns give way on narrow windows instead of a sideways scroll.
 */
import { flexRender, getCoreRowModel, getSortedRowModel, useReactTable } from '@tanstack/react-table';
import type { ColumnDef, Row, RowData, SortingState, Table, Updater } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { RowsInSight } from './rows-in-sight';
import type { HTMLAttributes, KeyboardEvent, ReactNode, RefObject } from 'react';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { z } from 'zod';
import { usePref } from '../lib/view-prefs';
import { ColumnMenu } from './ColumnMenu';
import { fitColumns, settleWidth } from './fit-columns';
import type { FitWidth } from './fit-columns';

declare module '@tanstack/react-table' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Right-aligned figures. */
    numeric?: boolean;
    /** The header's tooltip: what the column means. */
    headerTitle?: string;
    /** The cell's tooltip; by default its text value. */
    cellTitle?: (row: TData) => string | undefined;
    cellClass?: (row: TData) => string | undefined;
    /** On narrow tables the highest drops first; 0 or none never drops. */
    dropOrder?: number;
    /** The cell that names the row (<th scope="row">). */
    rowHeader?: boolean;
  }
}

const prefsSchema = z
  .object({
    sorting: z.array(z.object({ id: z.string(), desc: z.boolean() })),
    visibility: z.record(z.string(), z.boolean()),
    order: z.array(z.string()),
    sizing: z.record(z.string(), z.number().positive()),
  })
  .partial();
type TablePrefs = z.infer<typeof prefsSchema>;

export type RowAttributes = HTMLAttributes<HTMLTableRowElement> & { [data: `data-${string}`]: string | number | undefined };

const NO_SORT: [] = [];
const NO_DATA: never[] = [];
const ALL_VISIBLE = {};
const DEFINED_ORDER: [] = [];
const DEFAULT_SIZES = {};

/**
 * The width a header needs to be read in full: its longest word as the header style draws it (11 px
 * semibold capitals, 0.03em apart), plus the cell's padding and the sort mark. Headers wrap between
 * words, and no column is narrower than this, so "REMAINING" never reads "REMAI…".
 */
function headerWidth(header: unknown): number {
  if (typeof header !== 'string') return 0;
  const longest = header.split(/[ \t\n]+/).reduce((a, w) => Math.max(a, textWidth(w.toUpperCase())), 0);
  return Math.ceil(longest + 11 * 0.03 * 12 + 26);
}

let measure: CanvasRenderingContext2D | null | undefined;
function textWidth(text: string): number {
  if (measure === undefined) {
    measure = document.createElement('canvas').getContext('2d');
    if (measure) measure.font = `600 11px ${getComputedStyle(document.body).fontFamily}`;
  }
  return measure ? measure.measureText(text).width : text.length * 8.4;
}

/** Width kept for the column chooser at the end of the header. */
const MENU_COLUMN_PX = 30;

export interface DataTableProps<T> {
  /** Preferences are remembered under this name (e.g. 'budget'). */
  prefsKey: string;
  /** The table's accessible name. */
  label: string;
  data: readonly T[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- TanStack's own column type; cell values differ per column
  columns: ColumnDef<T, any>[];
  getRowId: (row: T) => string;
  /** Click, Enter or Space on a row. */
  onOpen?: (row: T) => void;
  selectedId?: string | null;
  /** Attributes for each row's <tr> (data-*, aria-label, className). */
  rowProps?: (row: T) => RowAttributes;
  /** Render only the rows in sight; rows must then have one height (px). */
  virtual?: { rowHeight: number };
  /** Bounds the table's height (CSS length) and scrolls inside it, header kept in view. */
  maxHeight?: string;
  className?: string;
  /** Shown in the body when there is no row. */
  empty?: ReactNode;
}

export function DataTable<T>(props: DataTableProps<T>) {
  const { prefsKey, label, data, columns, getRowId, onOpen, selectedId = null, rowProps, virtual, maxHeight, className, empty } = props;
  const [prefs, setPrefs] = usePref<TablePrefs>(prefsKey, 'table', prefsSchema, {});
  const scrollRef = useRef<HTMLDivElement>(null);
  const width = useContentWidth(scrollRef);

  const update =
    <K extends keyof TablePrefs>(key: K) =>
    (updater: Updater<NonNullable<TablePrefs[K]>>) =>
      setPrefs((p) => {
        const current = (p[key] ?? (key === 'sorting' || key === 'order' ? [] : {})) as NonNullable<TablePrefs[K]>;
        return { ...p, [key]: typeof updater === 'function' ? updater(current) : updater };
      });

  const table = useReactTable<T>({
    // A virtual list gives TanStack no rows: it would build a Row (with dozens of closures) for each of
    // thousands of entries at every update. It sorts itself and makes rows for those in sight only.
    data: virtual ? NO_DATA : (data as T[]),
    manualSorting: virtual !== undefined,
    columns,
    getRowId: (row) => getRowId(row),
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    columnResizeMode: 'onChange',
    enableSortingRemoval: true,
    defaultColumn: { size: 120, minSize: 56 },
    // Stable empty defaults: a fresh [] each render would re-run TanStack's memos and their state resets, in a loop.
    state: {
      sorting: prefs.sorting ?? NO_SORT,
      columnVisibility: prefs.visibility ?? ALL_VISIBLE,
      columnOrder: prefs.order ?? DEFINED_ORDER,
      columnSizing: prefs.sizing ?? DEFAULT_SIZES,
    },
    autoResetAll: false,
    onSortingChange: update('sorting'),
    onColumnVisibilityChange: update('visibility'),
    onColumnOrderChange: update('order'),
    onColumnSizingChange: update('sizing'),
  });

  const wanted = table.getVisibleLeafColumns();
  const fit = useMemo(
    () =>
      fitColumns(
        wanted.map((c) => {
          const minSize = Math.max(c.columnDef.minSize ?? 56, headerWidth(c.columnDef.header));
          return { id: c.id, size: Math.max(c.getSize(), minSize), minSize, dropOrder: c.columnDef.meta?.dropOrder ?? 0 };
        }),
        Math.max(0, (width ?? 0) - MENU_COLUMN_PX),
      ),
    [wanted, width],
  );
  // Before the first measure, every column shows at its share of the width.
  const shown = width === null ? wanted : wanted.filter((c) => !fit.dropped.includes(c.id));
  const colWidth = (id: string) => (width === null ? undefined : fit.widths.get(id));

  const sorting = table.getState().sorting;
  const ordered = useMemo(() => (virtual ? sortRows(data, sorting, table) : null), [virtual, data, sorting, table]);
  const modelRows = virtual ? null : table.getRowModel().rows;
  const ids = useMemo(() => (ordered ? ordered.map(getRowId) : modelRows!.map((r) => r.id)), [ordered, modelRows]);
  const inSight = useMemo(() => new RowsInSight(table), [table]);
  const rowAt = (index: number): Row<T> | undefined => (modelRows ? modelRows[index] : inSight.row(ordered!, index, ids[index]!));
  const nav = useRowNavigation(ids, scrollRef, virtual?.rowHeight, selectedId);
  // Set by VirtualRows: keyboard moves scroll the virtual list to the row first.
  const scrollToIndex = useRef<((index: number) => void) | undefined>(undefined);
  const spanAll = shown.length + 1;
  const shownIds = shown.map((c) => c.id);
  const renderRow = (row: Row<T>) => (
    <DataRow
      key={row.id}
      row={row}
      shown={shownIds}
      selected={row.id === selectedId}
      focusable={row.id === nav.focusId}
      extra={rowProps?.(row.original)}
      onOpen={onOpen}
      onFocus={nav.setFocusId}
      height={virtual?.rowHeight}
    />
  );

  return (
    <div
      ref={scrollRef}
      className={['dt-wrap', maxHeight ? 'dt-scroll' : '', className ?? ''].join(' ')}
      style={maxHeight ? { maxHeight } : undefined}
      onScroll={nav.onScroll}
    >
      <table className="table dt" aria-label={label} aria-rowcount={ids.length + 1}>
        <colgroup>
          {shown.map((c) => (
            <col key={c.id} style={{ width: colWidth(c.id) }} />
          ))}
          <col style={{ width: MENU_COLUMN_PX }} />
        </colgroup>
        <thead>
          <tr>
            {table
              .getHeaderGroups()[0]!
              .headers.filter((h) => shown.some((c) => c.id === h.column.id))
              .map((h) => {
                const meta = h.column.columnDef.meta;
                const sorted = h.column.getIsSorted();
                return (
                  <th
                    key={h.id}
                    scope="col"
                    className={meta?.numeric ? 'num' : undefined}
                    title={meta?.headerTitle}
                    aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                    data-col={h.column.id}
                  >
                    {h.column.getCanSort() ? (
                      <button type="button" className="dt-sort" onClick={h.column.getToggleSortingHandler()}>
                        <span className="dt-ellipsis">{flexRender(h.column.columnDef.header, h.getContext())}</span>
                        <span className={sorted ? 'dt-sort-mark' : 'dt-sort-mark dt-sort-none'} aria-hidden="true">
                          {sorted === 'desc' ? '▼' : '▲'}
                        </span>
                      </button>
                    ) : (
                      flexRender(h.column.columnDef.header, h.getContext())
                    )}
                    {h.column.getCanResize() ? (
                      <div
                        className={h.column.getIsResizing() ? 'dt-resizer dt-resizing' : 'dt-resizer'}
                        onMouseDown={h.getResizeHandler()}
                        onTouchStart={h.getResizeHandler()}
                        onDoubleClick={() => h.column.resetSize()}
                        onClick={(e) => e.stopPropagation()}
                        aria-hidden="true"
                        title="Drag to resize; double-click for the default width"
                      />
                    ) : null}
                  </th>
                );
              })}
            <th className="dt-menu-cell">
              <ColumnMenu table={table} label={label} dropped={fit.dropped} onReset={() => setPrefs({})} />
            </th>
          </tr>
        </thead>
        <tbody onKeyDown={(e) => nav.onKeyDown(e, onOpen ? (i) => onOpen(rowAt(i)!.original) : undefined, scrollToIndex.current)}>
          {ids.length === 0 && empty ? (
            <tr>
              <td colSpan={spanAll} className="dt-empty">
                {empty}
              </td>
            </tr>
          ) : null}
          {virtual ? (
            <VirtualRows
              count={ids.length}
              rowHeight={virtual.rowHeight}
              scrollRef={scrollRef}
              scrollToIndex={scrollToIndex}
              renderRow={(i) => {
                const row = rowAt(i);
                return row ? renderRow(row) : null;
              }}
            />
          ) : (
            modelRows!.map(renderRow)
          )}
        </tbody>
      </table>
    </div>
  );
}

/** Sorted as the table's sorting says (first key), by the column's accessor; the order given otherwise. */
function sortRows<T>(data: readonly T[], sorting: SortingState, table: Table<T>): readonly T[] {
  const first = sorting[0];
  const get = first ? table.getColumn(first.id)?.accessorFn : undefined;
  if (!first || !get) return data;
  const keyed = data.map((row, i) => ({ key: get(row, i), row }));
  const sign = first.desc ? -1 : 1;
  keyed.sort((a, b) => sign * (typeof a.key === 'number' && typeof b.key === 'number' ? a.key - b.key : String(a.key).localeCompare(String(b.key))));
  return keyed.map((k) => k.row);
}

/** Only the rows in sight (plus a margin), with spacers standing in for the rest. */
function VirtualRows({
  count,
  rowHeight,
  scrollRef,
  scrollToIndex,
  renderRow,
}: {
  count: number;
  rowHeight: number;
  scrollRef: RefObject<HTMLDivElement | null>;
  scrollToIndex: RefObject<((index: number) => void) | undefined>;
  renderRow: (index: number) => ReactNode;
}) {
  const virtualizer = useVirtualizer({ count, getScrollElement: () => scrollRef.current, estimateSize: () => rowHeight, overscan: 12 });
  scrollToIndex.current = (index) => virtualizer.scrollToIndex(index, { align: 'auto' });
  const items = virtualizer.getVirtualItems();
  const padTop = items[0]?.start ?? 0;
  const padBottom = items.length > 0 ? virtualizer.getTotalSize() - items[items.length - 1]!.end : 0;
  return (
    <>
      {padTop > 0 ? <tr className="dt-spacer" aria-hidden="true" style={{ height: padTop }} /> : null}
      {items.map((item) => renderRow(item.index))}
      {padBottom > 0 ? <tr className="dt-spacer" aria-hidden="true" style={{ height: padBottom }} /> : null}
    </>
  );
}

function DataRow<T>({
  row,
  shown,
  selected,
  focusable,
  extra,
  onOpen,
  onFocus,
  height,
}: {
  row: Row<T>;
  shown: string[];
  selected: boolean;
  focusable: boolean;
  extra: RowAttributes | undefined;
  onOpen: ((row: T) => void) | undefined;
  onFocus: (id: string) => void;
  height: number | undefined;
}) {
  const cells = row.getVisibleCells().filter((c) => shown.includes(c.column.id));
  cells.sort((a, b) => shown.indexOf(a.column.id) - shown.indexOf(b.column.id));
  return (
    <tr
      {...extra}
      data-row-id={row.id}
      tabIndex={focusable ? 0 : -1}
      className={[onOpen ? 'row-clickable' : '', extra?.className ?? ''].join(' ').trim() || undefined}
      aria-selected={onOpen ? selected : undefined}
      style={height ? { height } : undefined}
      onClick={onOpen ? () => onOpen(row.original) : undefined}
      onFocus={() => onFocus(row.id)}
    >
      {cells.map((cell) => {
        const meta = cell.column.columnDef.meta;
        const value = cell.getValue();
        const title = meta?.cellTitle ? meta.cellTitle(row.original) : typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
        const cls = [meta?.numeric ? 'num' : '', 'dt-cell', meta?.cellClass?.(row.original) ?? ''].join(' ').trim();
        const content = flexRender(cell.column.columnDef.cell, cell.getContext());
        return meta?.rowHeader ? (
          <th key={cell.id} scope="row" className={cls} title={title} data-col={cell.column.id}>
            {content}
          </th>
        ) : (
          <td key={cell.id} className={cls} title={title} data-col={cell.column.id}>
            {content}
          </td>
        );
      })}
      <td className="dt-pad" aria-hidden="true" />
    </tr>
  );
}

/** The width the table may use (the scroll box's content width, scrollbar excluded); null until measured. */
function useContentWidth(ref: RefObject<HTMLElement | null>): number | null {
  const [fit, setFit] = useState<FitWidth | null>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    // Heights change with every row that arrives; only a settled change of width re-fits (settleWidth).
    const measure = () => setFit((state) => settleWidth(state, el.clientWidth, performance.now()));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return fit?.width ?? null;
}

/**
 * Roving focus between rows, and for virtual lists a scroll anchor: when rows arrive above (a live
 * log, newest first), the selected row, or the top row once scrolled, stays where it was on screen.
 */
function useRowNavigation(ids: readonly string[], scrollRef: RefObject<HTMLDivElement | null>, rowHeight: number | undefined, selectedId: string | null) {
  const [focusId, setFocusId] = useState<string | null>(null);
  const anchor = useRef<{ id: string; offset: number } | null>(null);
  const pendingFocus = useRef<string | null>(null);
  const effectiveFocus = focusId !== null && ids.includes(focusId) ? focusId : (selectedId ?? ids[0] ?? null);

  // The scroll position as the last scroll event saw it: reading scrollTop right after the rows
  // changed would force a layout of the table in every commit.
  const scrollTop = useRef(0);

  const remember = () => {
    if (!rowHeight) return;
    const pinned = selectedId !== null ? ids.indexOf(selectedId) : -1;
    if (pinned < 0 && scrollTop.current <= 0) {
      anchor.current = null; // at the top with nothing selected: follow the newest
      return;
    }
    const index = pinned >= 0 ? pinned : Math.floor(scrollTop.current / rowHeight);
    const id = ids[index];
    anchor.current = id !== undefined ? { id, offset: scrollTop.current - index * rowHeight } : null;
  };

  useLayoutEffect(() => {
    const el = scrollRef.current;
    const a = anchor.current;
    if (el && rowHeight && a) {
      const index = ids.indexOf(a.id);
      const top = index >= 0 ? Math.max(0, index * rowHeight + a.offset) : scrollTop.current;
      if (Math.abs(scrollTop.current - top) >= 1) {
        el.scrollTop = top;
        scrollTop.current = top;
      }
    }
    remember();
  }, [ids, selectedId]);

  const onScroll = () => {
    scrollTop.current = scrollRef.current?.scrollTop ?? 0;
    remember();
  };

  useEffect(() => {
    const id = pendingFocus.current;
    if (id === null) return;
    const el = scrollRef.current?.querySelector<HTMLElement>(`tr[data-row-id="${CSS.escape(id)}"]`);
    if (el) {
      pendingFocus.current = null;
      el.focus({ preventScroll: rowHeight !== undefined });
      if (rowHeight === undefined) el.scrollIntoView({ block: 'nearest' });
    }
  });

  /** `open(index)`: the row at that index was chosen. */
  const onKeyDown = (e: KeyboardEvent, open: ((index: number) => void) | undefined, scrollToIndex?: (i: number) => void) => {
    const at = Math.max(0, effectiveFocus === null ? 0 : ids.indexOf(effectiveFocus));
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 300) / (rowHeight ?? 32)) - 1);
    const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: ids.length - 1, PageDown: at + page, PageUp: at - page }[e.key];
    if (to !== undefined) {
      e.preventDefault();
      const index = Math.min(ids.length - 1, Math.max(0, to));
      const id = ids[index];
      if (id === undefined) return;
      setFocusId(id);
      pendingFocus.current = id;
      scrollToIndex?.(index);
    } else if ((e.key === 'Enter' || e.key === ' ') && open && e.target instanceof HTMLTableRowElement) {
      e.preventDefault();
      const index = ids.indexOf(e.target.dataset.rowId ?? '');
      if (index >= 0) open(index);
    }
  };

  return { focusId: effectiveFocus, setFocusId, onKeyDown, onScroll };
}
