import { describe, expect, it } from 'vitest';
import { pageWindow, totalPages } from './pagination.ts';

describe('pageWindow (current − 4 … current + 5, first and last always shown)', () => {
  it.each([
    [1, 1, [1]],
    [1, 5, [1, 2, 3, 4, 5]],
    [1, 20, [1, 2, 3, 4, 5, 6, 'ellipsis', 20]],
    [10, 20, [1, 'ellipsis', 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 'ellipsis', 20]],
    [20, 20, [1, 'ellipsis', 16, 17, 18, 19, 20]],
    [5, 20, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 'ellipsis', 20]],
    [6, 12, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]],
    [99, 3, [1, 2, 3]],
    [1, 0, []],
  ])('page %s of %s', (cur, total, expected) => {
    expect(pageWindow(cur, total)).toEqual(expected);
  });
});

describe('totalPages', () => {
  it.each([
    [0, 50, 1],
    [50, 50, 1],
    [51, 50, 2],
    [230, 100, 3],
  ])('%s items by %s → %s', (total, size, pages) => {
    expect(totalPages(total, size)).toBe(pages);
  });
});
