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
