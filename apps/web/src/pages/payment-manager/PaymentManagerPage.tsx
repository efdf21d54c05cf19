import {
  type AdminPayment,
  adminPaymentTone,
  PAYMENT_SEARCH_MAX,
  PAYMENT_STATUSES,
  type PaymentStatus,
  shortPaymentId,
  shownPaymentStatus,
} from '@simdock/contract';
import { Filter, Info, TriangleAlert } from 'lucide-react';
import { useForm } from 'react-hook-form';
import {
  Button,
  Card,
  type Column,
  DataTable,
  DateTimeText,
  FormField,
  Input,
  PageHeader,
  Pager,
  Select,
  StatusBadge,
} from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { formatMoney } from '../../lib/format.ts';
import { codeLabel } from '../../lib/labels.ts';
import { usePageAnchors } from '../../lib/page-anchors.ts';
import { pageNumber, useSearchState } from '../../lib/useSearchState.ts';
import { type PaymentFilters, useAdminPayments } from './api.ts';

const FLAGS = ['refunded_after_credit', 'repeat_deposit'] as const;
type Flag = (typeof FLAGS)[number];
const isFlag = (f: string | null): f is Flag => (FLAGS as readonly (string | null)[]).includes(f);
const isStatus = (s: string): s is PaymentStatus => (PAYMENT_STATUSES as readonly string[]).includes(s);
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** What the URL keeps (?q&status&from&to&page): reload and Back show the same list. */
const URL_DEFAULTS = { q: '', status: '', from: '', to: '', page: '1' };
interface FilterForm {
  q: string;
  status: string;
  from: string;
  to: string;
}
const NO_FILTERS: FilterForm = { q: '', status: '', from: '', to: '' };

/** The URL's filters as the server takes them (malformed values are left out, not sent). */
function toQuery(f: FilterForm): PaymentFilters {
  return {
    ...(f.q.trim() ? { search: f.q.trim().slice(0, PAYMENT_SEARCH_MAX) } : {}),
    ...(isStatus(f.status) ? { status: f.status } : {}),
    ...(DAY.test(f.from) ? { from: f.from } : {}),
    ...(DAY.test(f.to) ? { to: f.to } : {}),
  };
}

/**
 * /paymentmanager (Admin9, docs/product.md#screens-and-routes): every payment, 100 per page, newest first,
 * searchable by user or invoice id and filtered by status and creation days (all in the URL). IDs over 12
 * characters show as first 6 + dots + last 4 (the full id in the tooltip); Finished At is '-' while
 * unfinished; statuses show by name (a top-up its owner cancelled reads "Cancelled", as its owner sees it); top-ups that need a look (a refund
 * after the credit, a repeated deposit) are marked.
 */
export function PaymentManagerPage() {
  const { t } = useI18n();
  const [url, setUrl] = useSearchState(URL_DEFAULTS);
  const applied: FilterForm = { q: url.q, status: url.status, from: url.from, to: url.to };
  const page = pageNumber(url.page);
  const query = toQuery(applied);
  const filtered = Object.keys(query).length > 0;
  const anchors = usePageAnchors(JSON.stringify(query));
  const payments = useAdminPayments(page, query, anchors.cursors);
  const amountRealHint = t('payments.amountRealHint');

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
      // The spec's column name, explained in its tooltip (docs/payments.md#partial-and-over-payments).
      header: (
        <span
          className="inline-flex items-center gap-1 whitespace-normal"
          title={amountRealHint}
          data-testid="amount-real-header"
        >
          {t('payments.colAmountReal')}
          <Info className="size-3.5 opacity-70" aria-hidden />
          <span className="sr-only">{amountRealHint}</span>
        </span>
      ),
      cardLabel: <span title={amountRealHint}>{t('payments.colAmountReal')}</span>,
      align: 'right',
      cellClassName: 'tabular',
      cell: (p) => formatMoney(p.amountReal),
    },
    {
      key: 'status',
      header: t('payments.colStatus'),
      cell: (p) => (
        <span className="inline-flex flex-wrap items-center gap-1.5">
          <StatusBadge tone={adminPaymentTone(shownPaymentStatus(p))}>
            {codeLabel(t, 'payments.status.', shownPaymentStatus(p))}
          </StatusBadge>
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
      // Two words that may wrap (headers do not by default): the table fits 1280 px.
      header: <span className="whitespace-normal">{t('payments.colGwStatus')}</span>,
      cardLabel: t('payments.colGwStatus'),
      cell: (p) =>
        p.gwStatus ? <span data-code={p.gwStatus}>{codeLabel(t, 'payments.gw.', p.gwStatus)}</span> : '-',
    },
    {
      key: 'created',
      header: t('payments.colCreated'),
      // Date over time when the column is narrow: every column fits 1280 px.
      cellClassName: 'text-muted',
      cell: (p) => <DateTimeText value={p.createdAt} />,
    },
    {
      key: 'finished',
      header: t('payments.colFinished'),
      cellClassName: 'text-muted',
      cell: (p) => <DateTimeText value={p.finishedAt} />,
    },
  ];

  return (
    <>
      <PageHeader
        title={t('payments.title')}
        subtitle={t('payments.subtitle')}
        count={payments.data?.total}
        countEstimated={payments.data?.totalEstimated}
      />
      <Card flush>
        <PaymentFilterForm
          // A new URL (Back, a link) starts the form from the filters it names.
          key={[applied.q, applied.status, applied.from, applied.to].join('\u0000')}
          applied={applied}
          onApply={(f) => setUrl({ ...f, q: f.q.trim(), page: '1' })}
        />
        <DataTable
          caption={t('payments.tableCaption')}
          columns={columns}
          rows={payments.data?.items}
          rowKey={(p) => p.id}
          loading={payments.isFetching}
          error={payments.isError && !payments.data ? payments.error : undefined}
          errorTitle={t('payments.loadFailed')}
          onRetry={() => payments.refetch()}
          emptyText={filtered ? t('payments.emptyFiltered') : t('payments.empty')}
          phoneCards
          stickyFirst
        />
        <div className="border-t border-line p-3">
          <Pager
            variant="numbered"
            page={payments.data?.page ?? page}
            totalPages={payments.data?.totalPages ?? 1}
            totalEstimated={payments.data?.totalEstimated}
            onPageChange={(p) => {
              anchors.keep(payments.data);
              setUrl({ page: String(p) });
            }}
            disabled={payments.isFetching}
          />
        </div>
      </Card>
    </>
  );
}

/** Search (user or invoice id), status and creation days; nothing changes until Apply (or Enter). */
function PaymentFilterForm({ applied, onApply }: { applied: FilterForm; onApply: (f: FilterForm) => void }) {
  const { t } = useI18n();
  const { register, handleSubmit } = useForm<FilterForm>({ defaultValues: applied });
  const active = Object.values(applied).some((v) => v !== '');
  return (
    <form
      aria-label={t('payments.filters')}
      noValidate
      onSubmit={handleSubmit(onApply)}
      className="flex flex-wrap items-end gap-3 border-b border-line p-3"
    >
      <FormField label={t('payments.search')} className="w-full sm:w-64">
        <Input
          type="search"
          autoComplete="off"
          placeholder={t('payments.searchPlaceholder')}
          maxLength={PAYMENT_SEARCH_MAX}
          {...register('q')}
        />
      </FormField>
      <FormField label={t('payments.filterStatus')} className="w-full sm:w-48">
        <Select {...register('status')}>
          <option value="">{t('payments.allStatuses')}</option>
          {PAYMENT_STATUSES.map((s) => (
            <option key={s} value={s}>
              {codeLabel(t, 'payments.status.', s)}
            </option>
          ))}
        </Select>
      </FormField>
      <FormField label={t('payments.filterFrom')} className="w-[calc(50%-0.375rem)] sm:w-40">
        <Input type="date" {...register('from')} />
      </FormField>
      <FormField label={t('payments.filterTo')} className="w-[calc(50%-0.375rem)] sm:w-40">
        <Input type="date" {...register('to')} />
      </FormField>
      <div className="flex gap-2">
        <Button type="submit" variant="primary" icon={<Filter className="size-4" aria-hidden />}>
          {t('payments.apply')}
        </Button>
        {active ? (
          <Button variant="ghost" onClick={() => onApply(NO_FILTERS)}>
            {t('payments.clear')}
          </Button>
        ) : null}
      </div>
    </form>
  );
}
