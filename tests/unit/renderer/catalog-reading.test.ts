import { describe, expect, it } from 'vitest';
import { timeOfField } from '../../../renderer/src/views/catalog/field-time';
import { cursorsOf, FIRST_PAGE } from '../../../renderer/src/views/catalog/cursor-stack';
import { pageStatus } from '../../../renderer/src/views/catalog/page-status';
import { searchStatus } from '../../../renderer/src/views/catalog/search-paging';

describe('searchStatus', () => {
  it('says which matches a page shows', () => {
    expect(searchStatus(1, 20, 20, 100, 100)).toBe('21–40 shown of 100 matches');
    expect(searchStatus(0, 20, 7, 7, 7)).toBe('1–7 shown of 7 matches');
  });
  it('says when the service returned fewer than match, and how to reach the rest', () => {
    expect(searchStatus(4, 20, 20, 100, 148)).toBe(
      '81–100 shown of 148 matches · the service returns the first 100: add words or a category to reach the rest',
    );
    expect(searchStatus(0, 20, 20, 100, null)).toMatch(/^1–20 shown of 100\+ matches · the service returns the first 100/);
  });
  it('no match', () => {
    expect(searchStatus(0, 20, 0, 0, 0)).toBe('0 shown of 0 matches');
  });
});

describe('pageStatus', () => {
  it('says which items a page shows', () => {
    expect(pageStatus(1, 20, 20, 5000, false)).toBe('Page 2 · items 21–40 of 5,000');
    expect(pageStatus(0, 50, 7, null, false)).toBe('Page 1 · items 1–7');
    expect(pageStatus(0, 20, 0, null, false)).toBe('Page 1');
  });
  it("names no items while the page loads: the rows on screen are the previous page's", () => {
    expect(pageStatus(1, 20, 20, 5000, true)).toBe('Loading page 2…');
    expect(pageStatus(1, 20, 20, 5000, true)).not.toMatch(/^Page 2 ·/);
  });
});

describe('timeOfField', () => {
  it('reads ISO texts, epoch seconds and epoch milliseconds under time-like names', () => {
    expect(timeOfField('updated_at', '2019-01-02T00:00:00Z')).toBe(Date.UTC(2019, 0, 2));
    expect(timeOfField('createdAt', 1546341215000)).toBe(1546341215000);
    expect(timeOfField('created_at', 1546341215)).toBe(1546341215000);
  });
  it('leaves other fields and values alone', () => {
    expect(timeOfField('downloads', 1546341215)).toBeNull();
    expect(timeOfField('updated_at', 42)).toBeNull();
    expect(timeOfField('updated_at', 'soon')).toBeNull();
  });
});

describe('cursorsOf', () => {
  const a = { profileId: 'a', vendor: 'acme', baseUrl: 'https://a.example' };
  it("keeps a profile's pages for that profile only: another profile, or the same one pointed elsewhere, starts at its first page", () => {
    const stack = { source: a, cursors: [null, 20, 40] };
    expect(cursorsOf(stack, { ...a })).toEqual([null, 20, 40]);
    expect(cursorsOf(stack, { profileId: 'b', vendor: 'acme', baseUrl: 'https://a.example' })).toEqual(FIRST_PAGE);
    expect(cursorsOf(stack, { ...a, baseUrl: 'https://staging.example' })).toEqual(FIRST_PAGE);
    expect(cursorsOf(stack, null)).toEqual(FIRST_PAGE);
    expect(cursorsOf({ source: null, cursors: [null, 5] }, null)).toEqual([null, 5]);
  });
});
