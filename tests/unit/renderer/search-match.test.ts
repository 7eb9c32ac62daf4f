import { describe, expect, it } from 'vitest';
import { matchesShown, whereMatched } from '../../../renderer/src/views/catalog/search-match';

const SHOWN = ['id', 'title', 'category', 'price'];

describe('whereMatched', () => {
  it('names the hidden fields that hold the words, case-insensitively', () => {
    const asset = { id: 7, title: 'Quiet River', tags: ['medieval', 'Castle-keep'], description: 'A castle by the sea', category: 'castles' };
    expect(whereMatched(asset, 'CASTLE', SHOWN)).toEqual([
      { field: 'tags', values: ['Castle-keep'] },
      { field: 'description', values: ['A castle by the sea'] },
    ]);
    expect(matchesShown(asset, 'castle', SHOWN)).toBe(true); // the category shows it
    expect(matchesShown(asset, 'medieval', SHOWN)).toBe(false);
  });

  it('reaches into nesting and stays bounded', () => {
    const asset = { id: '1', attributes: { keywords: ['ruin', 'stone castle', 'castle wall', 'castle gate', 'castle moat', 'castle yard'] } };
    const [m] = whereMatched(asset, 'castle', SHOWN);
    expect(m?.field).toBe('attributes.keywords');
    expect(m?.values).toHaveLength(4);
  });

  it('finds nothing for blank words', () => {
    expect(whereMatched({ id: 1, tags: ['a'] }, '  ', SHOWN)).toEqual([]);
  });
});
