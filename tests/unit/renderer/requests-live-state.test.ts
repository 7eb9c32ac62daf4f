/** The Requests view's Live button says what the log does: a selected row holds it still, so it reads Paused. */
import { describe, expect, it } from 'vitest';
import { followsNewest, toggledFollow } from '../../../renderer/src/views/requests/live-state';

describe('Requests Live / Paused', () => {
  it('live and nothing selected: follows the newest', () => {
    expect(followsNewest({ follow: true, selected: null })).toBe(true);
  });

  it('a selected row stops following: the button reads Paused', () => {
    expect(followsNewest({ follow: true, selected: 42 })).toBe(false);
  });

  it('pressing the button while a row holds the log follows again and lets the row go', () => {
    expect(toggledFollow({ follow: true, selected: 42 })).toEqual({ follow: true, selected: null });
    expect(followsNewest(toggledFollow({ follow: true, selected: 42 }))).toBe(true);
  });

  it('pressing it while live pauses, keeping the selection', () => {
    expect(toggledFollow({ follow: true, selected: null })).toEqual({ follow: false, selected: null });
    expect(toggledFollow({ follow: false, selected: 7 })).toEqual({ follow: true, selected: null });
  });
});
