import { pageWindow } from '@simdock/contract';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useId } from 'react';
import { useI18n } from '../i18n/index.tsx';
import { cx } from '../lib/cx.ts';
import { formatNumber } from '../lib/format.ts';
import { Button } from './Button.tsx';
import { Select } from './Input.tsx';

export interface PagerProps {
  /** 1-based. */
  page: number;
  totalPages: number;
  /**
   * The total is the server's estimate (contract PagedAnswerFields): the last page's number is shown
   * as "≈ n" (its rows are the list's true last rows).
   */
  totalEstimated?: boolean;
  onPageChange: (page: number) => void;
  /** 'simple': Prev, 'Page x / y', Next. 'numbered': Prev, 1 … 4 5 6 … 20, Next (contract pageWindow). */
  variant?: 'simple' | 'numbered';
  disabled?: boolean;
  /** With both set, a page-size selector is shown (History, User Manager). */
  pageSize?: number;
  pageSizes?: readonly number[];
  onPageSizeChange?: (size: number) => void;
  /** The navigation's accessible name, when a screen has more than one pager. Default 'Pagination'. */
  label?: string;
  className?: string;
}

/** Pagination for every paged list. */
export function Pager({
  page,
  totalPages,
  totalEstimated = false,
  onPageChange,
  variant = 'simple',
  disabled,
  pageSize,
  pageSizes,
  onPageSizeChange,
  label,
  className,
}: PagerProps) {
  const { t } = useI18n();
  const sizeId = useId();
  const total = Math.max(1, totalPages);
  const estimatedLast = (item: number) => totalEstimated && item === total && item !== page;
  const go = (p: number) => {
    const next = Math.min(Math.max(1, p), total);
    if (next !== page) onPageChange(next);
  };
  return (
    <nav
      aria-label={label ?? t('common.pagination')}
      className={cx('flex flex-wrap items-center justify-between gap-3 px-1 py-2', className)}
    >
      {pageSize !== undefined && pageSizes && onPageSizeChange ? (
        <span className="flex items-center gap-2 text-[13px] text-muted">
          <label htmlFor={sizeId}>{t('common.pageSize')}</label>
          <Select
            id={sizeId}
            value={pageSize}
            disabled={disabled}
            onChange={(e) => onPageSizeChange(Number(e.target.value))}
            className="w-20"
          >
            {pageSizes.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </Select>
        </span>
      ) : (
        <span />
      )}
      <div className="flex flex-wrap items-center gap-1.5">
        <Button
          size="sm"
          onClick={() => go(page - 1)}
          disabled={disabled || page <= 1}
          icon={<ChevronLeft className="size-4" aria-hidden />}
        >
          {t('common.prev')}
        </Button>
        {variant === 'simple' ? (
          <span className="px-2 text-[13px] text-muted tabular" aria-live="polite">
            {t('common.pageOf', {
              page,
              total: totalEstimated ? t('common.about', { n: formatNumber(total) }) : total,
            })}
          </span>
        ) : (
          pageWindow(page, total).map((item, i) =>
            item === 'ellipsis' ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: at most two ellipses, positions are stable
              <span key={`e${i}`} className="px-1 text-muted" aria-hidden>
                …
              </span>
            ) : (
              <button
                key={item}
                type="button"
                disabled={disabled}
                onClick={() => go(item)}
                aria-current={item === page ? 'page' : undefined}
                aria-label={
                  estimatedLast(item)
                    ? t('common.goToLastPage', { page: t('common.about', { n: formatNumber(item) }) })
                    : t('common.goToPage', { page: item })
                }
                className={cx(
                  'h-8 min-w-8 rounded-md px-2 text-[13px] font-medium tabular',
                  item === page
                    ? 'bg-accent text-accent-fg'
                    : 'border border-line-strong bg-surface text-fg hover:bg-subtle',
                )}
              >
                {estimatedLast(item) ? t('common.about', { n: formatNumber(item) }) : item}
              </button>
            ),
          )
        )}
        <Button size="sm" onClick={() => go(page + 1)} disabled={disabled || page >= total}>
          {t('common.next')}
          <ChevronRight className="size-4" aria-hidden />
        </Button>
      </div>
    </nav>
  );
}
