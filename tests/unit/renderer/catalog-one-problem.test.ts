/**
 * Offline, the Catalog's categories and list fail alike: one callout with one Try again, which reads
 * both again, instead of two identical "Connection problem" cards.
 */
import { describe, expect, it } from 'vitest';
import { catalogProblem } from '../../../renderer/src/views/catalog/catalog-problem';

function reading(error: unknown) {
  const r = { isError: error !== null, error, reads: 0, refetch: () => r.reads++ };
  return r;
}

describe('the Catalog shows one problem', () => {
  it('both fail: the list stands for both, and Try again reads both again', () => {
    const list = reading(new Error('list down'));
    const categories = reading(new Error('categories down'));
    const problem = catalogProblem(list, categories)!;
    expect(problem.place).toBe('list');
    expect((problem.error as Error).message).toBe('list down');
    problem.retry();
    expect([list.reads, categories.reads]).toEqual([1, 1]);
  });

  it('only the categories fail: shown above the list, and only they are read again', () => {
    const list = reading(null);
    const categories = reading(new Error('categories down'));
    const problem = catalogProblem(list, categories)!;
    expect(problem.place).toBe('categories');
    problem.retry();
    expect([list.reads, categories.reads]).toEqual([0, 1]);
  });

  it('nothing failed: no callout', () => {
    expect(catalogProblem(reading(null), reading(null))).toBeNull();
  });
});
