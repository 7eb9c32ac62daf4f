/**
 * The Requests view notices hits that leave main's answer while the search text stays the same: an
 * entry's path and bodies never change, so a hit that goes means main no longer has its bodies.
 */
import { describe, expect, it } from 'vitest';
import { HitMemory } from '../../../renderer/src/views/requests/use-body-search';

describe('hits whose bodies aged out', () => {
  it('names the ids earlier answers held and this one does not, per search text', () => {
    const memory = new HitMemory();
    expect([...memory.lost('pc-ref', new Set([7, 9]))]).toEqual([]);
    expect([...memory.lost('pc-ref', new Set([9, 12]))]).toEqual([7]);
    expect([...memory.lost('pc-ref', new Set([12]))].sort()).toEqual([7, 9]);
    // Another text starts afresh.
    expect([...memory.lost('p_abc', new Set([12]))]).toEqual([]);
  });

  it('stays bounded however long the same search runs', () => {
    const memory = new HitMemory();
    for (let id = 0; id < 30_000; id += 100) memory.lost('catalog', new Set(Array.from({ length: 100 }, (_, i) => id + i)));
    expect(memory.lost('catalog', new Set()).size).toBe(10_000);
  });
});
