/** Price history dates: the year where it is not this one, so that "Jan 19" is never ambiguous. */
import { describe, expect, it } from 'vitest';
import { priceDateLabel } from '../../../renderer/src/views/catalog/PriceChart';

describe('priceDateLabel', () => {
  it('gives the year for another year and leaves it out for this one', () => {
    const jan19 = new Date(2024, 0, 19, 12).getTime();
    expect(priceDateLabel(jan19, 2026)).toMatch(/2024/);
    expect(priceDateLabel(jan19, 2024)).not.toMatch(/2024|24\b/);
    expect(priceDateLabel(jan19, 2024)).toMatch(/19/);
  });
});
