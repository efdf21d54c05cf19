import { z } from 'zod';

export type PageItem = number | 'ellipsis';

/**
 * Numbered pager (docs/product.md#screens-and-routes, Order Manager): pages current-4 … current+5, the first
 * and the last page always shown, an ellipsis where pages are skipped.
 */
export function pageWindow(current: number, totalPages: number): PageItem[] {
  if (totalPages < 1) return [];
  const cur = Math.min(Math.max(1, current), totalPages);
  const from = Math.max(1, cur - 4);
  const to = Math.min(totalPages, cur + 5);
  const items: PageItem[] = [];
  if (from > 1) {
    items.push(1);
    if (from > 2) items.push('ellipsis');
  }
  for (let p = from; p <= to; p++) items.push(p);
  if (to < totalPages) {
    if (to < totalPages - 1) items.push('ellipsis');
    items.push(totalPages);
  }
  return items;
}

/** ceil(total / size), at least 1 (docs/product.md#limits-and-timings). */
export function totalPages(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
}

/**
 * Paged lists (docs/architecture.md#paged-lists): a total is exact up to this many rows; above it the
 * answer's `total` is an estimate and says so (`totalEstimated`), shown as "≈ n" in the UI.
 */
export const PAGE_COUNT_CAP = 10_000;
/** A page is read from an anchor page's cursor when it is at most this many pages away. */
export const PAGE_JUMP_MAX = 10;

const cursorText = z.string().min(1).max(2000, 'The page cursor is too long.');
/**
 * Optional request fields of a list that pages by key: `after` = the `lastCursor` of an earlier page,
 * `before` = the `firstCursor` of a later page; `page` stays the page wanted.
 */
export const PageCursorFields = {
  after: cursorText.optional(),
  before: cursorText.optional(),
};
/** Optional answer fields of a list that pages by key (new, so older clients ignore them). */
export const PagedAnswerFields = {
  /** `total` (and so `totalPages`) is the database's estimate: the exact count stopped at PAGE_COUNT_CAP. */
  totalEstimated: z.boolean().optional(),
  /** Anchors of this page's first and last row, for the pages around it. */
  firstCursor: z.string().optional(),
  lastCursor: z.string().optional(),
};
