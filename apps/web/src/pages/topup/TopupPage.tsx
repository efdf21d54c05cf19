import {
  shortPaymentId,
  TOPUP_DEFAULT,
  TOPUP_MIN,
  topupAmountProblem,
  type UserPayment,
  userPaymentTone,
} from '@simdock/contract';
import { ExternalLink, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import {
  Button,
  buttonClass,
  Card,
  type Column,
  ConfirmDialog,
  DataTable,
  FormField,
  MoneyInput,
  Notice,
  notify,
  PageHeader,
  Pager,
  StatusBadge,
} from '../../components/index.ts';
import { type TFunction, useI18n } from '../../i18n/index.tsx';
import { failureText, serverText } from '../../lib/errors.ts';
import { formatDateTime, formatMoney, formatMoneyInput } from '../../lib/format.ts';
import { fieldErrorText, keyResolver } from '../../lib/forms.ts';
import { useSession } from '../../session/session.tsx';
import { useCancelPayment, useCreatePayment, usePaymentHistory, usePaymentOptions } from './api.ts';

interface Values {
  amount: string;
}

/** The server's reason after 'Failed to create invoice: ', or 'Error while calling API'. */
function createFailure(err: unknown, t: TFunction): string {
  const reason = serverText(err);
  return reason ? t('topup.createFailed', { error: reason }) : t('topup.apiError');
}

/** The status a user reads: a FAILED invoice they cancelled themselves says so. */
const shownStatus = (p: UserPayment) => (p.cancelled ? 'CANCELLED' : p.status);

/** The amount as a number for the contract's rule: '' and junk are NaN (→ "enter a number"). */
const amountNumber = (text: string) => (/^\s*\d+(\.\d*)?\s*$/.test(text) ? Number(text) : Number.NaN);

/** The contract's top-up rule (minimum, maximum, cents). */
const amountResolver = keyResolver<Values>((v) => {
  const problem = topupAmountProblem(amountNumber(v.amount));
  return { amount: problem ? `topup.rule.${problem}` : undefined };
});

/**
 * /topup: an amount form (minimum 10, default 10) that opens the provider's hosted invoice, and the
 * user's payment history with Pay Now for PENDING invoices (docs/product.md). The balance in the top
 * bar follows credits live (the `balance` event); the history refreshes on `payment` events and polls
 * while an invoice is open.
 */
export function TopupPage() {
  const { t } = useI18n();
  const options = usePaymentOptions();
  const create = useCreatePayment();
  const [page, setPage] = useState(1);
  const history = usePaymentHistory(page);
  const [params] = useSearchParams();
  const returned = params.get('payment');
  const off = options.data?.provider === 'none';

  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<Values>({
    defaultValues: { amount: formatMoneyInput(TOPUP_DEFAULT, 2) },
    resolver: amountResolver,
  });

  // A failure shows once, inline under the form (not also as a toast); a new attempt clears it.
  const onSubmit = handleSubmit((v) =>
    create.mutate(amountNumber(v.amount), {
      onSuccess: (res) => window.location.assign(res.result.url),
    }),
  );
  const [cancelling, setCancelling] = useState<UserPayment | null>(null);

  useBalanceFollowsHistory(history.data?.items);

  const columns: Column<UserPayment>[] = [
    {
      key: 'id',
      header: t('topup.colId'),
      cellClassName: 'font-mono text-xs',
      cell: (p) => <span title={p.id}>{shortPaymentId(p.id)}</span>,
    },
    {
      key: 'amount',
      header: t('topup.colAmount'),
      align: 'right',
      cellClassName: 'tabular',
      cell: (p) => formatMoney(p.amount),
    },
    {
      key: 'status',
      header: t('topup.colStatus'),
      cell: (p) => (
        <StatusBadge tone={p.cancelled ? 'grey' : userPaymentTone(p.status)}>
          {t(`topup.status.${shownStatus(p)}`)}
        </StatusBadge>
      ),
    },
    {
      key: 'created',
      header: t('topup.colCreated'),
      className: 'whitespace-nowrap',
      cellClassName: 'tabular text-muted',
      cell: (p) => formatDateTime(p.createdAt),
    },
    {
      key: 'actions',
      header: <span className="sr-only">{t('topup.colAction')}</span>,
      align: 'right',
      cardLabel: false,
      cell: (p) =>
        p.status === 'PENDING' ? (
          <div className="flex justify-end gap-2">
            <a
              href={p.url}
              className={buttonClass('primary', 'sm')}
              aria-label={t('topup.payNowFor', { id: shortPaymentId(p.id) })}
            >
              <ExternalLink className="size-3.5" aria-hidden />
              {t('topup.payNow')}
            </a>
            <Button
              size="sm"
              onClick={() => setCancelling(p)}
              aria-label={t('topup.cancelFor', { id: shortPaymentId(p.id) })}
            >
              <X className="size-3.5" aria-hidden />
              {t('topup.cancel')}
            </Button>
          </div>
        ) : null,
    },
  ];

  return (
    <>
      <PageHeader
        title={t('topup.title')}
        subtitle={t('topup.subtitle')}
        actions={
          <Link to="/balance" className={buttonClass('secondary', 'sm')}>
            {t('topup.balanceHistory')}
          </Link>
        }
      />
      <div className="flex flex-col gap-5">
        {options.data?.sandbox ? (
          <Notice tone="info" title={t('topup.sandboxTitle')}>
            {t('topup.sandboxText')}
          </Notice>
        ) : null}
        {off ? (
          <Notice tone="error" title={t('topup.offTitle')}>
            {t('topup.offText')}
          </Notice>
        ) : null}
        {returned ? <ReturnNotice id={returned} items={history.data?.items} /> : null}
        <Card title={t('topup.formTitle')}>
          <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4 sm:flex-row sm:items-start">
            <FormField
              label={t('topup.amount')}
              hint={t('topup.amountHint', { min: TOPUP_MIN })}
              error={fieldErrorText(t, errors.amount)}
              className="sm:w-72"
            >
              <MoneyInput decimals={2} disabled={off} {...register('amount')} />
            </FormField>
            <Button
              type="submit"
              variant="primary"
              className="sm:mt-[26px]"
              disabled={off || options.isPending}
              busy={create.isPending || create.isSuccess}
              busyLabel={t('topup.submitting')}
            >
              {t('topup.submit')}
            </Button>
          </form>
          {create.isError ? (
            <Notice tone="error" className="mt-4">
              {createFailure(create.error, t)}
            </Notice>
          ) : null}
        </Card>
        <Card title={t('topup.historyTitle')} flush>
          <DataTable
            caption={t('topup.tableCaption')}
            columns={columns}
            rows={history.data?.items}
            rowKey={(p) => p.id}
            loading={history.isFetching && !history.data}
            error={history.isError ? history.error : undefined}
            errorTitle={t('topup.loadFailed')}
            onRetry={() => history.refetch()}
            emptyText={t('topup.empty')}
            phoneCards
          />
          <div className="border-t border-line p-3">
            <Pager
              page={history.data?.page ?? page}
              totalPages={history.data?.totalPages ?? 1}
              onPageChange={setPage}
              disabled={history.isFetching}
            />
          </div>
        </Card>
      </div>
      <CancelInvoiceDialog payment={cancelling} returned={returned} onClose={() => setCancelling(null)} />
    </>
  );
}

/**
 * Asks before cancelling a PENDING invoice; a refusal shows in the dialog, success as a toast, except
 * for the invoice the page was opened for (`?payment=`): its notice above says it once already.
 */
function CancelInvoiceDialog({
  payment,
  returned,
  onClose,
}: {
  payment: UserPayment | null;
  returned: string | null;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const cancel = useCancelPayment();
  const close = () => {
    cancel.reset();
    onClose();
  };
  const id = payment ? shortPaymentId(payment.id) : '';
  return (
    <ConfirmDialog
      open={payment !== null}
      title={t('topup.cancelTitle')}
      message={payment ? t('topup.cancelConfirm', { id, amount: formatMoney(payment.amount) }) : undefined}
      confirmLabel={t('topup.cancelYes')}
      cancelLabel={t('topup.cancelNo')}
      busyLabel={t('topup.cancelling')}
      busy={cancel.isPending}
      error={cancel.isError ? t('topup.cancelFailed', { error: failureText(cancel.error, t) }) : undefined}
      onConfirm={() => {
        if (!payment) return;
        cancel.mutate(payment.id, {
          onSuccess: () => {
            if (payment.id !== returned) notify.success(t('topup.cancelled', { id }));
            close();
          },
        });
      }}
      onCancel={close}
    />
  );
}

/** Back from the provider's page (`/topup?payment=<id>`): what happened to that invoice. */
function ReturnNotice({ id, items }: { id: string; items: UserPayment[] | undefined }) {
  const { t } = useI18n();
  const p = items?.find((x) => x.id === id);
  if (!p) return null;
  if (p.status === 'DONE')
    return <Notice tone="success">{t('topup.returnDone', { amount: formatMoney(p.amount) })}</Notice>;
  if (p.cancelled) return <Notice tone="info">{t('topup.returnCancelled')}</Notice>;
  if (p.status === 'FAILED') return <Notice tone="error">{t('topup.returnFailed')}</Notice>;
  return <Notice tone="info">{t(p.status === 'PAID' ? 'topup.returnPaid' : 'topup.returnPending')}</Notice>;
}

/**
 * The polling fallback for the top bar's balance: when the history shows a payment that became DONE
 * (the live `balance` event may have been missed), the user info is refreshed.
 */
function useBalanceFollowsHistory(items: UserPayment[] | undefined) {
  const { refresh } = useSession();
  const done = useRef<Set<string> | null>(null);
  useEffect(() => {
    if (!items) return;
    const now = new Set(items.filter((p) => p.status === 'DONE').map((p) => p.id));
    const before = done.current;
    done.current = now;
    if (before && [...now].some((id) => !before.has(id))) void refresh();
  }, [items, refresh]);
}
