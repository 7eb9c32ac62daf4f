/** The Overview cell card opens above its cell on the last rows of a short window (1024x700), else below. */
import { describe, expect, it } from 'vitest';
import { opensAbove } from '../../../renderer/src/views/overview/tip-placement';

describe('opensAbove', () => {
  it('opens below where the card fits under the cell', () => {
    expect(opensAbove({ top: 200, bottom: 262 }, 330, 700)).toBe(false);
  });

  it('opens above on a last row whose card would end past the window (bottom at 784 of 700 before)', () => {
    expect(opensAbove({ top: 386, bottom: 448 }, 330, 700)).toBe(true);
  });

  it('stays below when the room above is smaller still', () => {
    expect(opensAbove({ top: 100, bottom: 162 }, 600, 700)).toBe(false);
  });
});
