/** The time under the mouse in any live chart: every panel draws its crosshair there (a shared tooltip). */
let hovered: number | null = null;
const listeners = new Set<() => void>();

export const hoverStore = {
  get: (): number | null => hovered,
  set(t: number | null): void {
    if (t === hovered) return;
    hovered = t;
    for (const l of [...listeners]) l();
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
