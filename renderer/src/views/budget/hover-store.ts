/**
 * The time under the mouse in any live chart, and the panel it is over: every panel draws its
 * crosshair at that time; only the hovered panel opens its tooltip (one tooltip, not ten).
 */
export interface Hover {
  t: number;
  /** The hovered panel (its endpoint id); null: none in particular. */
  panel: string | null;
}

let hovered: Hover | null = null;
const listeners = new Set<() => void>();

export const hoverStore = {
  get: (): Hover | null => hovered,
  set(t: number | null, panel: string | null = null): void {
    if (t === null ? hovered === null : hovered !== null && hovered.t === t && hovered.panel === panel) return;
    hovered = t === null ? null : { t, panel };
    for (const l of [...listeners]) l();
  },
  /** A panel going away (its view closed) drops the hover it holds: no mouseleave comes to unpin it. */
  release(panel: string): void {
    if (hovered?.panel === panel) hoverStore.set(null);
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/**
 * The slot time nearest to t on the grid from, from + slotMs, …, kept within [from, to]. Charts put
 * this in the store, not the raw mouse time, so that moving within one slot changes nothing and does
 * not re-render every panel. The nearest chart point to the result is the nearest one to t.
 */
export function snapToSlot(t: number, from: number, to: number, slotMs: number): number {
  const snapped = slotMs > 0 && Number.isFinite(slotMs) ? from + Math.round((t - from) / slotMs) * slotMs : t;
  return Math.min(to, Math.max(from, snapped));
}
