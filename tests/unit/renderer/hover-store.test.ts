/** The shared crosshair: mouse times snap to the chart's slot grid, so moves within a slot notify nobody. */
import { afterEach, describe, expect, it } from 'vitest';
import { hoverStore, snapToSlot } from '../../../renderer/src/views/budget/hover-store';

afterEach(() => hoverStore.set(null));

describe('snapToSlot', () => {
  it('rounds to the nearest slot time counted from the first point', () => {
    expect(snapToSlot(10_400, 10_000, 20_000, 1_000)).toBe(10_000);
    expect(snapToSlot(10_600, 10_000, 20_000, 1_000)).toBe(11_000);
    expect(snapToSlot(13_499, 10_000, 20_000, 1_000)).toBe(13_000);
    expect(snapToSlot(17_200, 1_500, 20_000, 5_000)).toBe(16_500);
  });

  it('stays within [from, to]', () => {
    expect(snapToSlot(9_000, 10_000, 12_500, 1_000)).toBe(10_000);
    expect(snapToSlot(12_900, 10_000, 12_500, 1_000)).toBe(12_500);
  });

  it('without a usable slot length it keeps the time (clamped)', () => {
    expect(snapToSlot(10_123, 10_000, 20_000, 0)).toBe(10_123);
    expect(snapToSlot(10_123, 10_000, 20_000, Number.NaN)).toBe(10_123);
  });

  it('mouse moves within one slot notify the charts once', () => {
    let notified = 0;
    const stop = hoverStore.subscribe(() => notified++);
    for (const t of [11_000, 11_100, 11_300, 11_499, 10_501]) hoverStore.set(snapToSlot(t, 10_000, 20_000, 1_000));
    expect(notified).toBe(1);
    hoverStore.set(snapToSlot(11_600, 10_000, 20_000, 1_000));
    expect(notified).toBe(2);
    expect(hoverStore.get()).toEqual({ t: 12_000, panel: null });
    stop();
  });

  it('knows the hovered panel: the same time over another panel is a change (its tooltip moves there)', () => {
    let notified = 0;
    const stop = hoverStore.subscribe(() => notified++);
    hoverStore.set(11_000, 'listAssets');
    hoverStore.set(11_000, 'listAssets');
    expect(notified).toBe(1);
    hoverStore.set(11_000, 'categories');
    expect(hoverStore.get()).toEqual({ t: 11_000, panel: 'categories' });
    expect(notified).toBe(2);
    hoverStore.set(null);
    hoverStore.set(null);
    expect(notified).toBe(3);
    stop();
  });
});
