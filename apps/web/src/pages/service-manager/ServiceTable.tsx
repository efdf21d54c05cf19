import type { Service } from '@simdock/contract';
import { Globe, Pencil, Trash2 } from 'lucide-react';
import { type Column, DataTable, RowActions, StatusBadge } from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { formatMoney, formatNumber } from '../../lib/format.ts';

export interface ServiceTableProps {
  services: Service[] | undefined;
  loading: boolean;
  /** A failed load (shown with Retry, never with the empty text). */
  error?: unknown;
  onRetry?: () => unknown;
  onEdit: (service: Service) => void;
  onDelete: (service: Service) => void;
  /** Spent numbers per service id (missing: none; undefined while loading or failed). */
  spentCounts?: ReadonlyMap<string, number>;
  onSpent: (service: Service) => void;
  /** Opens the service's prices by country. */
  onPrices: (service: Service) => void;
}

/** The services table (docs/product.md#screens-and-routes): Name (textContains and pattern beneath), Code,
 * Price, Stock, Available, Spent numbers (opens their dialog), Rent (min), Repeatable, Actions. */
export function ServiceTable({
  services,
  loading,
  error,
  onRetry,
  onEdit,
  onDelete,
  spentCounts,
  onSpent,
  onPrices,
}: ServiceTableProps) {
  const { t } = useI18n();
  const columns: Column<Service>[] = [
    {
      key: 'name',
      header: t('services.colName'),
      className: 'min-w-56',
      cell: (s) => (
        <div className="flex flex-col gap-0.5">
          <span className="flex flex-wrap items-center gap-2">
            <span className="font-medium text-fg">{s.name}</span>
            {s.isEnable ? null : <StatusBadge tone="grey">{t('services.disabled')}</StatusBadge>}
          </span>
          <span className="text-xs text-muted">
            {t('services.textContainsShort')}{' '}
            {s.textContains ? (
              <span className="text-fg/80">{s.textContains}</span>
            ) : (
              <em>{t('services.anySms')}</em>
            )}
          </span>
          <span className="text-xs text-muted">
            {t('services.patternShort')}{' '}
            <code className="rounded bg-subtle px-1 py-px font-mono text-[11px] text-fg/80 break-all">
              {s.pattern}
            </code>
          </span>
        </div>
      ),
    },
    {
      key: 'code',
      header: t('services.colCode'),
      className: 'whitespace-nowrap',
      cell: (s) => <span className="font-mono text-[13px]">{s.code}</span>,
    },
    {
      key: 'price',
      header: t('services.colPrice'),
      align: 'right',
      cell: (s) => formatMoney(s.price),
    },
    { key: 'stock', header: t('services.colStock'), align: 'right', cell: (s) => formatNumber(s.stock) },
    {
      key: 'available',
      header: t('services.colAvailable'),
      align: 'right',
      cell: (s) => formatNumber(s.available),
    },
    {
      key: 'spent',
      header: t('services.colSpent'),
      align: 'right',
      className: 'whitespace-nowrap',
      cell: (s) => {
        const count = spentCounts ? (spentCounts.get(s.id) ?? 0) : undefined;
        return (
          <button
            type="button"
            onClick={() => onSpent(s)}
            aria-label={t('services.spentOpen', { name: s.name, count: count ?? '—' })}
            className="tabular rounded px-1.5 py-0.5 text-accent-text underline decoration-dotted underline-offset-2 hover:bg-subtle"
          >
            {count === undefined ? '—' : formatNumber(count)}
          </button>
        );
      },
    },
    {
      key: 'rent',
      header: t('services.colRent'),
      align: 'right',
      cell: (s) => formatNumber(s.rentTimeMinutes),
    },
    {
      key: 'repeatable',
      header: t('services.colRepeatable'),
      align: 'center',
      cell: (s) => (s.isRepeatable ? t('common.yes') : t('common.no')),
    },
    {
      key: 'actions',
      header: t('services.colActions'),
      align: 'right',
      className: 'whitespace-nowrap',
      cell: (s) => (
        <RowActions
          name={s.name}
          className="flex-nowrap"
          actions={[
            {
              key: 'edit',
              label: t('services.edit'),
              icon: <Pencil className="size-3.5" aria-hidden />,
              onSelect: () => onEdit(s),
            },
            {
              key: 'delete',
              label: t('services.delete'),
              icon: <Trash2 className="size-3.5" aria-hidden />,
              destructive: true,
              onSelect: () => onDelete(s),
            },
            {
              key: 'prices',
              label: t('services.prices'),
              icon: <Globe className="size-3.5" aria-hidden />,
              onSelect: () => onPrices(s),
            },
          ]}
        />
      ),
    },
  ];
  return (
    <DataTable
      caption={t('services.caption')}
      columns={columns}
      rows={services}
      rowKey={(s) => s.id}
      loading={loading}
      error={error}
      errorTitle={t('services.loadFailedTitle')}
      onRetry={onRetry}
      emptyText={t('services.empty')}
      phoneCards
      rowClassName={(s) => (s.isEnable ? undefined : 'text-muted')}
    />
  );
}
