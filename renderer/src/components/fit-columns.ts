/**
 * Fits a table's columns into the width it has, so that no table ever needs a sideways scroll:
 * columns that do not fit even at their narrowest are dropped, those with the highest `dropOrder`
 * first, and the rest share the width in proportion to their preferred size without going below
 * their minimum.
 */
export interface ColumnFit {
  id: string;
  /** Preferred width in px (the user's resized width or the column's default). */
  size: number;
  minSize: number;
  /** 0 never drops; otherwise the highest drops first. */
  dropOrder: number;
}

export interface FittedColumns {
  widths: Map<string, number>;
  dropped: string[];
}

export function fitColumns(columns: readonly ColumnFit[], width: number): FittedColumns {
  const shown = [...columns];
  const dropped: string[] = [];
  const sum = (pick: (c: ColumnFit) => number) => shown.reduce((a, c) => a + pick(c), 0);
  const candidates = columns.filter((c) => c.dropOrder > 0).sort((a, b) => b.dropOrder - a.dropOrder);
  for (const c of candidates) {
    if (sum((x) => x.minSize) <= width) break;
    shown.splice(shown.indexOf(c), 1);
    dropped.push(c.id);
  }
  const total = sum((c) => c.size);
  const totalMin = sum((c) => c.minSize);
  const widths = new Map<string, number>();
  for (const c of shown) {
    // Room to spare: everyone grows alike. Short of room: each gives up part of what it has above its minimum.
    const w = total <= width ? (c.size * width) / total : c.minSize + ((c.size - c.minSize) * Math.max(0, width - totalMin)) / Math.max(1, total - totalMin);
    widths.set(c.id, Math.floor(w));
  }
  return { widths, dropped };
}

/** The width a table is fitted to, and the wider one it last left (with when), to recognise a scrollbar loop. */
export interface FitWidth {
  width: number;
  left: number | null;
  leftAt: number;
}

/** A width given back within this long after it was left, by no more than a scrollbar, is not taken back. */
const RETURN_MS = 1000;
const SCROLLBAR_PX = 24;

/**
 * The width to fit to after the box measured `measured` px. Returns the same object when nothing is to
 * change (React then skips the render). The loop it breaks: fitted to W, the rows' height brings a
 * scrollbar, the box narrows to W - 15, the re-fit is shorter, the scrollbar goes, the box is W again...
 * for ever. Growing back to the width just left is refused for a moment: the narrower fit fits anyway.
 */
export function settleWidth(state: FitWidth | null, measured: number, now: number): FitWidth {
  if (state === null) return { width: measured, left: null, leftAt: now };
  if (Math.abs(measured - state.width) < 1) return state;
  const returning =
    measured > state.width && state.left !== null && measured <= state.left && state.left - state.width <= SCROLLBAR_PX && now - state.leftAt < RETURN_MS;
  if (returning) return state;
  return { width: measured, left: measured < state.width ? state.width : null, leftAt: now };
}
