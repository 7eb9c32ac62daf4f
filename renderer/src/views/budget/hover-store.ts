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
