import {
  BALANCE_HISTORY_DEFAULT_PAGE_SIZE,
  BALANCE_HISTORY_PAGE_SIZES,
  type BalanceEntry,
  totalPages,
} from '@simdock/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Wallet } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import {
  buttonClass,
  Card,
  type Column,
  DataTable,
  Notice,
  PageHeader,
  Pager,
} from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { formatDateTime, formatMoney } from '../../lib/format.ts';
import { pageNumber, useSearchState } from '../../lib/useSearchState.ts';
import { useSession } from '../../session/session.tsx';
import { BALANCE_HISTORY_KEY, useBalanceHistory } from './api.ts';
import { amountTone, ledgerKindKey, referenceText } from './ledger-text.ts';

// Page and page size in the URL: a reload and Back show the same page.
const URL_DEFAULTS = { page: '1', size: String(BALANCE_HISTORY_DEFAULT_PAGE_SIZE) };

/** A page size from the URL: one the list offers, else the default. */
function pageSizeOf(text: string): number {
  const n = Number(text);
  return (BALANCE_HISTORY_PAGE_SIZES as readonly number[]).includes(n)
    ? n
    : BALANCE_HISTORY_DEFAULT_PAGE_SIZE;
}

const TONE = { credit: 'text-ok', debit: 'text-bad', none: 'text-muted' } as const;

/**
 * /balance, Balance history: every money movement of the signed-in user, newest first and paged —
 * date, kind in plain words, what it was for, the signed amount and the balance after it. Reached
 * from the top bar's balance and the Top up page. A change of the balance (the live `balance`
 * event updates the top bar) reloads the list.
 */
export function BalanceHistoryPage() {
  const { t } = useI18n();
  const { user } = useSession();
  const qc = useQueryClient();
  const [url, setUrl] = useSearchState(URL_DEFAULTS);
  const page = pageNumber(url.page);
  const pageSize = pageSizeOf(url.size);
  const history = useBalanceHistory({ page, pageSize });
  const balance = user?.balance;

  // A new entry moved the balance (a top-up credited, a refund): show it.
  const seen = useRef(balance);
  useEffect(() => {
    if (balance === seen.current) return;
    seen.current = balance;
    void qc.invalidateQueries({ queryKey: BALANCE_HISTORY_KEY });
  }, [balance, qc]);

  const columns: Column<BalanceEntry>[] = [
    {
      key: 'date',
      header: t('balance.colDate'),
      className: 'whitespace-nowrap',
      cellClassName: 'tabular text-muted',
      cell: (e) => formatDateTime(e.createdAt),
    },
    {
      key: 'kind',
      header: t('balance.colKind'),
      cellClassName: 'font-medium text-fg',
      cell: (e) => t(ledgerKindKey(e.kind)),
    },
    {
      key: 'reference',
      header: t('balance.colReference'),
      cellClassName: 'text-muted',
      cell: (e) => referenceText(e.reference, t) || <span aria-hidden>—</span>,
    },
    {
      key: 'amount',
      header: t('balance.colAmount'),
      align: 'right',
      className: 'whitespace-nowrap',
      cellClassName: 'tabular font-semibold',
      cell: (e) => (
        <span className={TONE[amountTone(e.amount)]} data-testid="balance-amount">
          {formatMoney(e.amount, { signed: true, decimals: 4 })}
        </span>
      ),
    },
    {
      key: 'after',
      header: t('balance.colBalanceAfter'),
      align: 'right',
      className: 'whitespace-nowrap',
      cellClassName: 'tabular',
      cell: (e) => (e.balanceAfter === null ? '—' : formatMoney(e.balanceAfter, { decimals: 4 })),
    },
  ];

  const data = history.data;
  return (
    <>
      <PageHeader
        title={t('balance.title')}
        subtitle={t('balance.subtitle')}
        actions={
          <Link to="/topup" className={buttonClass('primary', 'sm')}>
            <Wallet className="size-4" aria-hidden />
            {t('balance.topUp')}
          </Link>
        }
      />
      <Card flush>
        {balance !== undefined ? (
          <p className="border-b border-line px-4 py-3 text-sm text-muted" data-testid="balance-current">
            {t('balance.current', { amount: formatMoney(balance, { decimals: 4 }) })}
          </p>
        ) : null}
        {history.isError && data ? (
          <Notice tone="error" className="m-3">
            {t('balance.loadFailed')}
          </Notice>
        ) : null}
        <DataTable
          caption={t('balance.tableCaption')}
          columns={columns}
          rows={data?.items}
          rowKey={(e) => e.id}
          loading={history.isFetching && !data}
          error={history.isError && !data ? history.error : undefined}
          errorTitle={t('balance.loadFailed')}
          onRetry={() => history.refetch()}
          emptyText={t('balance.empty')}
          phoneCards
        />
        {data && data.total > 0 ? (
          <div className="border-t border-line p-3">
            <Pager
              page={page}
              totalPages={totalPages(data.total, pageSize)}
              totalEstimated={data.totalEstimated}
              onPageChange={(p) => setUrl({ page: String(p) })}
              pageSize={pageSize}
              pageSizes={BALANCE_HISTORY_PAGE_SIZES}
              onPageSizeChange={(size) => setUrl({ size: String(size), page: '1' })}
              disabled={history.isFetching}
            />
          </div>
        ) : null}
      </Card>
    </>
  );
}
