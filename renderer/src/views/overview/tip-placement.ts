/** Where an Overview cell's card opens: below its cell, or above it where the window has no room below. */

/** Gap between the cell and its card (px), as `.ov-tip` places it. */
export const TIP_GAP = 6;

/**
 * Above when the card does not fit between the cell and the window's bottom and there is more room above
 * (a card taller than both sides goes where more of it shows).
 */
export function opensAbove(cell: { top: number; bottom: number }, cardHeight: number, windowHeight: number): boolean {
  const below = windowHeight - cell.bottom - TIP_GAP;
  if (cardHeight <= below) return false;
  return cell.top - TIP_GAP > below;
}
