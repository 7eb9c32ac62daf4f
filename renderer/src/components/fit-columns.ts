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
