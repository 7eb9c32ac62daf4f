/** The Budget table's Fleet/s: the last complete seconds the store counted, averaged; nothing counted shows no figure. */
import { describe, expect, it } from 'vitest';
import { fleetRate } from '../../../renderer/src/views/budget/budget-model';

describe('fleetRate', () => {
  it('averages the last 5 of the seconds the store answered (oldest first)', () => {
    const minute = [...Array.from({ length: 55 }, () => 20), 4, 6, 8, 10, 12];
    expect(fleetRate(minute)).toBe(8);
  });

  it('fewer seconds than the window: their mean; none (no store, or unreachable): null', () => {
    expect(fleetRate([3, 5])).toBe(4);
    expect(fleetRate([])).toBeNull();
  });
});
