import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import type { ReactNode } from 'react';
import { useI18n } from '../i18n/index.tsx';
import { cx } from '../lib/cx.ts';

export type SortDir = 'asc' | 'desc';
export interface SortState {
  key: string;
  dir: SortDir;
}

export interface Column<T> {
  /** Unique per table; also the sort key. */
  key: string;
  header: ReactNode;
  /** The cell content for one row. */
  cell: (row: T, index: number) => ReactNode;
  /** Show a sort button in the header (the page sorts the rows; see `sortRows`). */
  sortable?: boolean;
  align?: 'left' | 'right' | 'center';
  /** Extra classes for the header and body cells (widths, `whitespace-nowrap`). */
  className?: string;
  /** Extra classes for the body cells only (`font-mono` for phone numbers, colours). */
  cellClassName?: string;
}

export interface DataTableProps<T> {
  columns: Column<T>[];
  /** undefined while the first load runs. */
  rows: T[] | undefined;
  rowKey: (row: T) => string;
  /** Shows skeleton rows (first load) or dims the rows (refetch). */
  loading?: boolean;
  /** An error text shown in place of the rows. */
  error?: ReactNode;
  /** The spec's empty text for this table, e.g. t('services.empty'). */
  emptyText?: ReactNode;
  sort?: SortState;
  onSortChange?: (sort: SortState) => void;
  /** A caption for screen readers (visually hidden). */
  caption?: ReactNode;
  skeletonRows?: number;
  /** Classes for one row (e.g. highlight). */
  rowClassName?: (row: T) => string | undefined;
}

const ALIGN = { left: 'text-left', right: 'text-right', center: 'text-center' } as const;

/**
 * The table every list screen uses: header row with optional sort buttons, skeleton while loading,
 * the empty text, an error row, and horizontal scroll on small screens.
 */
export function DataTable<T>({
  columns,
  rows,
  rowKey,
  loading,
  error,
  emptyText,
  sort,
  onSortChange,
  caption,
  skeletonRows = 5,
  rowClassName,
}: DataTableProps<T>) {
  const { t } = useI18n();
  const firstLoad = loading && !rows;
  return (
    <div className="relative overflow-x-auto" aria-busy={loading || undefined}>
      <table className="w-full border-collapse text-sm">
        {caption ? <caption className="sr-only">{caption}</caption> : null}
        <thead>
          <tr className="border-b border-line bg-subtle/60">
            {columns.map((c) => {
              const active = sort?.key === c.key;
              const ariaSort = active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined;
              return (
                <th
                  key={c.key}
                  scope="col"
                  aria-sort={c.sortable ? (ariaSort ?? 'none') : undefined}
                  className={cx(
                    'px-3 py-2.5 text-xs font-semibold uppercase tracking-wide text-muted whitespace-nowrap',
                    ALIGN[c.align ?? 'left'],
                    c.className,
                  )}
                >
                  {c.sortable && onSortChange ? (
                    <button
                      type="button"
                      className="inline-flex items-center gap-1 uppercase hover:text-fg"
                      onClick={() =>
                        onSortChange({ key: c.key, dir: active && sort.dir === 'asc' ? 'desc' : 'asc' })
                      }
                      aria-label={
                        typeof c.header === 'string' ? t('common.sortBy', { column: c.header }) : undefined
                      }
                    >
                      {c.header}
                      {active ? (
                        sort.dir === 'asc' ? (
                          <ArrowUp className="size-3.5" aria-hidden />
                        ) : (
                          <ArrowDown className="size-3.5" aria-hidden />
                        )
                      ) : (
                        <ArrowUpDown className="size-3.5 opacity-50" aria-hidden />
                      )}
                    </button>
                  ) : (
                    c.header
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody className={cx(loading && rows ? 'opacity-60 transition-opacity' : undefined)}>
          {error ? (
            <tr>
              <td
                colSpan={columns.length}
                className="px-3 py-8 text-center font-medium text-bad"
                role="alert"
              >
                {error}
              </td>
            </tr>
          ) : firstLoad ? (
            Array.from({ length: skeletonRows }, (_, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: skeleton rows have no identity
              <tr key={i} className="border-b border-line last:border-0">
                {columns.map((c) => (
                  <td key={c.key} className="px-3 py-3">
                    <span className="block h-3.5 w-3/4 animate-pulse rounded bg-subtle" />
                  </td>
                ))}
              </tr>
            ))
          ) : !rows || rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length} className="px-3 py-10 text-center text-muted">
                {emptyText ?? t('common.noData')}
              </td>
            </tr>
          ) : (
            rows.map((row, i) => (
              <tr
                key={rowKey(row)}
                className={cx('border-b border-line last:border-0 hover:bg-subtle/40', rowClassName?.(row))}
              >
                {columns.map((c) => (
                  <td
                    key={c.key}
                    className={cx('px-3 py-2.5 align-middle', ALIGN[c.align ?? 'left'], c.className)}
                  >
                    {c.cell(row, i)}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

/** Sorts a copy of `rows` by a column value (numbers numerically, text case-insensitively). */
export function sortRows<T>(
  rows: readonly T[],
  sort: SortState | undefined,
  value: (row: T, key: string) => unknown,
) {
  if (!sort) return [...rows];
  const factor = sort.dir === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const va = value(a, sort.key);
    const vb = value(b, sort.key);
    if (typeof va === 'number' && typeof vb === 'number') return (va - vb) * factor;
    return (
      String(va ?? '').localeCompare(String(vb ?? ''), undefined, { sensitivity: 'base', numeric: true }) *
      factor
    );
  });
}
