import { type AdminPayment, adminPaymentTone, shortPaymentId } from '@simdock/contract';
import { TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { Card, type Column, DataTable, PageHeader, Pager, StatusBadge } from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { formatDateTime, formatMoney } from '../../lib/format.ts';
import { useAdminPayments } from './api.ts';

const FLAGS = ['refunded_after_credit', 'repeat_deposit'] as const;
type Flag = (typeof FLAGS)[number];
const isFlag = (f: string | null): f is Flag => (FLAGS as readonly (string | null)[]).includes(f);

/**
 * /paymentmanager (Admin9, docs/product.md#screens-and-routes): every payment, 100 per page, newest first.
 * IDs over 12 characters show as first 6 + dots + last 4 (the full id in the tooltip); Finished At is '-'
 * while unfinished; top-ups that need a look (a refund after the credit, a repeated deposit) are marked.
 */
export function PaymentManagerPage() {
  const { t } = useI18n();
  const [page, setPage] = useState(1);
  const payments = useAdminPayments(page);

  const columns: Column<AdminPayment>[] = [
    {
      key: 'id',
      header: t('payments.colId'),
      className: 'whitespace-nowrap',
      cellClassName: 'font-mono text-xs',
      cell: (p) => <span title={p.id}>{shortPaymentId(p.id)}</span>,
    },
    {
      key: 'user',
      header: t('payments.colUser'),
      cellClassName: 'font-medium',
      cell: (p) => p.username || '—',
    },
    {
      key: 'amount',
      header: t('payments.colAmount'),
      align: 'right',
      cellClassName: 'tabular',
      cell: (p) => formatMoney(p.amount),
    },
    {
      key: 'amountReal',
      header: t('payments.colAmountReal'),
      align: 'right',
      cellClassName: 'tabular',
      cell: (p) => formatMoney(p.amountReal),
    },
    {
      key: 'status',
      header: t('payments.colStatus'),
      cell: (p) => (
        <span className="inline-flex flex-wrap items-center gap-1.5">
          <StatusBadge tone={adminPaymentTone(p.status)}>{p.status}</StatusBadge>
          {isFlag(p.flag) ? (
            <StatusBadge tone="red" title={t(`payments.flag.${p.flag}`)}>
              <TriangleAlert className="size-3" aria-hidden />
              {t('payments.review')}
              <span className="sr-only">: {t(`payments.flag.${p.flag}`)}</span>
            </StatusBadge>
          ) : null}
        </span>
      ),
    },
    {
      key: 'gwStatus',
      header: t('payments.colGwStatus'),
      cellClassName: 'font-mono text-xs',
      cell: (p) => p.gwStatus ?? '-',
    },
    {
      key: 'created',
      header: t('payments.colCreated'),
      className: 'whitespace-nowrap',
      cellClassName: 'tabular text-muted',
      cell: (p) => formatDateTime(p.createdAt),
    },
    {
      key: 'finished',
      header: t('payments.colFinished'),
      className: 'whitespace-nowrap',
      cellClassName: 'tabular text-muted',
      cell: (p) => (p.finishedAt ? formatDateTime(p.finishedAt) : '-'),
    },
  ];

  return (
    <>
      <PageHeader
        title={t('payments.title')}
        subtitle={t('payments.subtitle')}
        count={payments.data?.total}
      />
      <Card flush>
        <DataTable
          caption={t('payments.tableCaption')}
          columns={columns}
          rows={payments.data?.items}
          rowKey={(p) => p.id}
          loading={payments.isFetching && !payments.data}
          error={payments.isError ? payments.error : undefined}
          errorTitle={t('payments.loadFailed')}
          onRetry={() => payments.refetch()}
          emptyText={t('payments.empty')}
          phoneCards
          stickyFirst
        />
        <div className="border-t border-line p-3">
          <Pager
            variant="numbered"
            page={payments.data?.page ?? page}
            totalPages={payments.data?.totalPages ?? 1}
            onPageChange={setPage}
            disabled={payments.isFetching}
          />
        </div>
      </Card>
    </>
  );
}
