import { ArrowDown, ArrowUp, ArrowUpDown, MoveHorizontal } from 'lucide-react';
import { isValidElement, type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { useI18n } from '../i18n/index.tsx';
import { cx } from '../lib/cx.ts';
import { PHONE_QUERY, useMediaQuery } from '../lib/useMediaQuery.ts';
import { EmptyState, ErrorState } from './StateViews.tsx';

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
  /** Phone cards: the label of this field (default: the header); `false` leaves it out of the card. */
  cardLabel?: ReactNode | false;
}

export interface DataTableProps<T> {
  columns: Column<T>[];
  /** undefined while the first load runs. */
  rows: T[] | undefined;
  rowKey: (row: T) => string;
  /** Shows skeleton rows (first load) or dims the rows (refetch). */
  loading?: boolean;
  /**
   * A failure, shown in place of the rows and never together with the empty text: the thrown error
   * (its plain-words text is shown under `errorTitle`) or a ready text.
   */
  error?: unknown;
  /** What failed, e.g. t('services.loadFailedTitle'). */
  errorTitle?: ReactNode;
  /** Shows "Try again" in the error state. */
  onRetry?: () => unknown;
  /** The spec's empty text for this table, e.g. t('services.empty'). */
  emptyText?: ReactNode;
  /** A next step under the empty text (e.g. an "Add …" button). */
  emptyAction?: ReactNode;
  sort?: SortState;
  onSortChange?: (sort: SortState) => void;
  /** A caption for screen readers (visually hidden). */
  caption?: ReactNode;
  skeletonRows?: number;
  /** Classes for one row (e.g. highlight). */
  rowClassName?: (row: T) => string | undefined;
  /**
   * Below 640 px each row becomes a card: the first column is its title, the `actions` column its
   * footer, the others label/value pairs. Use it for wide tables (admin screens).
   */
  phoneCards?: boolean;
  /**
   * With `phoneCards`: the width (px) below which rows become cards; default 640 (phones). A wide table
   * whose actions would scroll out of view on tablets can keep cards longer (e.g. 1280).
   */
  cardsBelow?: number;
  /** Phone cards: each card's accessible name (e.g. the row's name), so a card can be found by it. */
  cardName?: (row: T) => string;
  /** Keeps the first column in view while the table scrolls sideways. */
  stickyFirst?: boolean;
}

const ALIGN = { left: 'text-left', right: 'text-right', center: 'text-center' } as const;

/**
 * The table every list screen uses: header row with optional sort buttons, skeleton while loading,
 * the empty text, the error state with Retry (never together with the empty text), horizontal scroll
 * with a hint on small screens, or one card per row on phones (`phoneCards`).
 */
export function DataTable<T>(props: DataTableProps<T>) {
  const isPhone = useMediaQuery(props.cardsBelow ? `(max-width: ${props.cardsBelow - 0.02}px)` : PHONE_QUERY);
  const { rows, loading, error, errorTitle, onRetry, emptyText, emptyAction } = props;
  const { t } = useI18n();
  const failure =
    error !== undefined && error !== null && error !== false ? (
      <ErrorState
        compact
        title={
          errorTitle ??
          (typeof error === 'string' || isValidElement(error) ? (error as ReactNode) : t('errors.unexpected'))
        }
        error={typeof error === 'string' || isValidElement(error) ? undefined : error}
        onRetry={onRetry}
      />
    ) : null;
  const empty = <EmptyState compact title={emptyText ?? t('common.noData')} action={emptyAction} />;
  if (props.phoneCards && isPhone) return <DataCards {...props} failure={failure} empty={empty} />;
  return <Table {...props} failure={failure} empty={empty} firstLoad={Boolean(loading && !rows)} />;
}

/** Scroll container that shows a hint and a fade while there is more to the right. */
function ScrollArea({ children, busy }: { children: ReactNode; busy?: boolean }) {
  const { t } = useI18n();
  const ref = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState(false);
  const [scrolls, setScrolls] = useState(false);
  const measure = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    setMore(el.scrollWidth - el.clientWidth - el.scrollLeft > 2);
    setScrolls(el.scrollWidth - el.clientWidth > 2);
  }, []);
  useEffect(() => {
    measure();
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    if (el.firstElementChild) ro.observe(el.firstElementChild);
    return () => ro.disconnect();
  }, [measure]);
  return (
    <div className="relative">
      {more ? (
        <p
          className="flex items-center justify-end gap-1 px-3 pt-1.5 text-xs text-muted"
          data-testid="scroll-hint"
        >
          <MoveHorizontal className="size-3.5" aria-hidden />
          {t('state.scrollHint')}
        </p>
      ) : null}
      <div
        ref={ref}
        onScroll={measure}
        // A box that scrolls sideways takes the keyboard focus (arrow keys scroll it), even in a table
        // without buttons.
        tabIndex={scrolls ? 0 : undefined}
        className="relative overflow-x-auto focus-visible:outline-2 focus-visible:outline-accent"
        aria-busy={busy || undefined}
      >
        {children}
      </div>
      {more ? (
        <div
          className="pointer-events-none absolute inset-y-0 right-0 w-8 bg-gradient-to-l from-surface to-transparent"
          aria-hidden
        />
      ) : null}
    </div>
  );
}

function Table<T>({
  columns,
  rows,
  rowKey,
  loading,
  sort,
  onSortChange,
  caption,
  skeletonRows = 5,
  rowClassName,
  stickyFirst,
  failure,
  empty,
  firstLoad,
}: DataTableProps<T> & { failure: ReactNode; empty: ReactNode; firstLoad: boolean }) {
  const { t } = useI18n();
  const sticky = (i: number) =>
    stickyFirst && i === 0 ? 'sticky left-0 z-[1] bg-surface shadow-[1px_0_0_var(--color-line)]' : undefined;
  return (
    <ScrollArea busy={loading}>
      <table className="w-full border-collapse text-sm">
        {caption ? <caption className="sr-only">{caption}</caption> : null}
        <thead>
          <tr className="border-b border-line bg-subtle/60">
            {columns.map((c, i) => {
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
                    sticky(i) && 'sticky left-0 z-[1] bg-subtle',
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
          {failure ? (
            <tr>
              <td colSpan={columns.length}>{failure}</td>
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
              <td colSpan={columns.length}>{empty}</td>
            </tr>
          ) : (
            rows.map((row, i) => (
              <tr
                key={rowKey(row)}
                className={cx('border-b border-line last:border-0 hover:bg-subtle/40', rowClassName?.(row))}
              >
                {columns.map((c, ci) => (
                  <td
                    key={c.key}
                    className={cx(
                      'px-3 py-2.5 align-middle',
                      ALIGN[c.align ?? 'left'],
                      c.className,
                      c.cellClassName,
                      sticky(ci),
                    )}
                  >
                    {c.cell(row, i)}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </ScrollArea>
  );
}

/** The phone layout of a DataTable: one card per row. */
function DataCards<T>({
  columns,
  rows,
  rowKey,
  loading,
  caption,
  skeletonRows = 3,
  rowClassName,
  cardName,
  failure,
  empty,
}: DataTableProps<T> & { failure: ReactNode; empty: ReactNode }) {
  if (failure) return <div>{failure}</div>;
  if (loading && !rows)
    return (
      <ul className="divide-y divide-line" aria-busy>
        {Array.from({ length: skeletonRows }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: skeleton rows have no identity
          <li key={i} className="flex flex-col gap-2 px-4 py-3">
            <span className="block h-4 w-1/2 animate-pulse rounded bg-subtle" />
            <span className="block h-3 w-3/4 animate-pulse rounded bg-subtle" />
          </li>
        ))}
      </ul>
    );
  if (!rows || rows.length === 0) return <div>{empty}</div>;
  const [first, ...rest] = columns;
  const actions = rest.find((c) => c.key === 'actions');
  const fields = rest.filter((c) => c !== actions && c.cardLabel !== false);
  return (
    <ul
      className={cx('divide-y divide-line', loading && 'opacity-60')}
      aria-label={caption ? String(caption) : undefined}
    >
      {rows.map((row, i) => (
        <li
          key={rowKey(row)}
          aria-label={cardName?.(row)}
          className={cx('flex min-w-0 flex-col gap-2 px-4 py-3', rowClassName?.(row))}
        >
          {first ? <div className="min-w-0 font-medium text-fg">{first.cell(row, i)}</div> : null}
          {fields.length ? (
            // Labels take at most 40% (a long one wraps) and values the rest, breaking long words: a
            // card never widens the page (Vietnamese labels are long).
            <dl className="grid grid-cols-[fit-content(40%)_minmax(0,1fr)] gap-x-3 gap-y-1 text-[13px]">
              {fields.map((c) => (
                <div key={c.key} className="contents">
                  <dt className="min-w-24 text-muted">{c.cardLabel ?? c.header}</dt>
                  <dd className={cx('min-w-0 break-words', c.cellClassName)}>{c.cell(row, i)}</dd>
                </div>
              ))}
            </dl>
          ) : null}
          {actions ? <div className="pt-1">{actions.cell(row, i)}</div> : null}
        </li>
      ))}
    </ul>
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
