import type { Order, PublicService } from '@simdock/contract';
import { useMemo } from 'react';
import { errorMessage } from '../../api/client.ts';
import {
  Button,
  Card,
  type Column,
  CopyableText,
  DataTable,
  DateTimeText,
  OrderStatusBadge,
  Pager,
  RelativeTime,
} from '../../components/index.ts';
import { notify } from '../../components/toast.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { formatMoney, formatPhone } from '../../lib/format.ts';
import { useNow } from '../../lib/useNow.ts';
import { pageNumber, useSearchState } from '../../lib/useSearchState.ts';
import { useCancelMutation, useMyOrders, useServices } from './api.ts';
import { OrderCountry } from './OrderCountry.tsx';

/** Whether the Cancel button applies to an order at `now`: still waiting, no code, past the minimum time. */
export function cancelState(order: Order, now: number): 'hidden' | 'wait' | 'ready' {
  if (order.status !== 'WAIT_CODE' || order.codeText !== null) return 'hidden';
  return now >= Date.parse(order.cancelableAt) ? 'ready' : 'wait';
}

/**
 * Whether a rental can still receive a code at `now`: waiting for its code, or a repeatable
 * service's rental with a code, before it expires and until finished. A one-code rental is done once
 * its code arrived.
 */
export function isActiveRental(order: Order, repeatable: boolean, now: number): boolean {
  // Finished (Finish, or closed by the server) takes no more codes, whatever time is left.
  if (order.finished || Date.parse(order.expiresAt) <= now) return false;
  return order.status === 'WAIT_CODE' || (order.status === 'SUCCESS' && repeatable);
}

/** "My numbers" (this card's id): where a rental goes when it leaves the pinned ones. */
export const MY_NUMBERS_ID = 'my-numbers';

/** Focuses an element that is not focusable by itself (a section), as the skip link does. */
export function focusSection(el: HTMLElement | null): void {
  if (!el) return;
  if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
  el.focus();
}

/** Codes of the repeatable services (from the public list). */
export function useRepeatable(): (code: string) => boolean {
  const services = useServices();
  return useMemo(() => {
    const set = new Set(
      (services.data ?? []).filter((s: PublicService) => s.isRepeatable).map((s) => s.code),
    );
    return (code: string) => set.has(code);
  }, [services.data]);
}

/** The cells shared by the waiting rentals and the history: phone, code, status, time left, cancel. */
export function useOrderColumns(now: number): Column<Order>[] {
  const { t } = useI18n();
  const cancel = useCancelMutation();
  const repeatable = useRepeatable();

  // mutateAsync: the toast with the refund shows even when the live event re-rendered the row first.
  const onCancel = (o: Order) => {
    cancel.mutateAsync(o.id).then(
      (cancelled) => {
        notify.success(t('dashboard.cancelled', { amount: formatMoney(cancelled.price) }));
        // The row's Cancel button is gone: the list keeps the focus, not the page's start.
        focusSection(document.getElementById(MY_NUMBERS_ID));
      },
      (err) => notify.error(t('dashboard.cancelFailed', { msg: errorMessage(err) })),
    );
  };

  return [
    {
      key: 'phone',
      header: t('dashboard.colPhone'),
      className: 'whitespace-nowrap',
      cell: (o) => (
        <CopyableText value={o.phoneNumber} display={formatPhone(o.phoneNumber)} testId="order-phone" />
      ),
    },
    {
      key: 'code',
      header: t('dashboard.colCode'),
      cell: (o) => (
        <div className="min-w-0">
          {o.codeText ? (
            <CopyableText
              value={o.codeText}
              testId="order-code"
              className="text-base font-semibold text-ok"
            />
          ) : (
            <span className={o.smsText ? 'text-warn' : 'text-muted'}>
              {o.smsText
                ? t('dashboard.smsNoCode')
                : o.status === 'WAIT_CODE'
                  ? t('dashboard.waitingCode')
                  : '-'}
            </span>
          )}
          {o.smsText ? (
            <div className="max-w-48 truncate text-xs text-muted" title={o.smsText}>
              {t('dashboard.fullSms', { text: o.smsText })}
            </div>
          ) : null}
        </div>
      ),
    },
    {
      key: 'service',
      header: t('dashboard.colService'),
      // The number's country beside the service: the phone column is the list's widest at 1280 px.
      cell: (o) => (
        <span>
          <OrderCountry country={o.country} />
          {o.serviceName}
        </span>
      ),
    },
    {
      key: 'status',
      header: t('dashboard.colStatus'),
      cell: (o) => (
        <span data-testid="order-status">
          <OrderStatusBadge status={o.status} />
        </span>
      ),
    },
    {
      key: 'date',
      header: t('dashboard.colDate'),
      // Date over time when narrow: the list fits 1280 px once an SMS text shows.
      cell: (o) => <DateTimeText value={o.createdAt} className="text-muted" />,
    },
    {
      key: 'left',
      header: t('dashboard.colTimeLeft'),
      className: 'whitespace-nowrap',
      cell: (o) =>
        isActiveRental(o, repeatable(o.serviceCode), now) ? (
          <RelativeTime value={o.expiresAt} className="tabular">
            {(time) => t('dashboard.expiresIn', { time })}
          </RelativeTime>
        ) : (
          <span className="text-muted">
            {o.status === 'SUCCESS' ? t('dashboard.done') : t('dashboard.ended')}
          </span>
        ),
    },
    {
      key: 'actions',
      header: <span className="sr-only">{t('dashboard.colActions')}</span>,
      align: 'right',
      cell: (o) => {
        const state = cancelState(o, now);
        if (state === 'hidden') return null;
        const busy = cancel.isPending && cancel.variables === o.id;
        return (
          <div className="flex flex-col items-end gap-0.5">
            <Button
              size="sm"
              variant="secondary"
              busy={busy}
              busyLabel={t('dashboard.cancelling')}
              disabled={state === 'wait'}
              onClick={() => onCancel(o)}
            >
              {t('dashboard.cancel')}
            </Button>
            {state === 'wait' ? (
              <RelativeTime value={o.cancelableAt} className="text-xs text-muted">
                {(time) => t('dashboard.cancelAvailable', { time })}
              </RelativeTime>
            ) : null}
          </div>
        );
      },
    },
  ];
}

export const HISTORY_PAGE_SIZE = 10;
// The page in the URL (/dashboard?page=2): a reload and Back show the same page.
const URL_DEFAULTS = { page: '1' };

/** "My numbers": every rental (the latest 100), newest first, with its date, 10 per page. */
export function OrderList() {
  const { t, tn } = useI18n();
  const orders = useMyOrders();
  // The shared 1 s clock: which rentals are still active and when Cancel opens; the times' words tick
  // by themselves (RelativeTime).
  const now = useNow();
  const columns = useOrderColumns(now);
  const [url, setUrl] = useSearchState(URL_DEFAULTS);
  const page = pageNumber(url.page);
  const all = orders.data;
  const totalPages = Math.max(1, Math.ceil((all?.length ?? 0) / HISTORY_PAGE_SIZE));
  const current = Math.min(page, totalPages);
  const rows = all?.slice((current - 1) * HISTORY_PAGE_SIZE, current * HISTORY_PAGE_SIZE);

  return (
    <Card
      title={t('dashboard.ordersTitle')}
      description={t('dashboard.ordersText')}
      actions={
        all?.length ? (
          <span className="text-xs text-muted tabular">{tn('dashboard.historyCount', all.length)}</span>
        ) : undefined
      }
      flush
      id={MY_NUMBERS_ID}
    >
      <DataTable
        columns={columns}
        rows={rows}
        rowKey={(o) => o.id}
        loading={orders.isLoading}
        error={orders.isError && !orders.data ? orders.error : undefined}
        errorTitle={t('dashboard.ordersError')}
        onRetry={() => orders.refetch()}
        emptyText={t('dashboard.noOrders')}
        caption={t('dashboard.ordersTitle')}
        phoneCards
      />
      {totalPages > 1 ? (
        <div className="border-t border-line px-3">
          <Pager
            page={current}
            totalPages={totalPages}
            onPageChange={(p) => setUrl({ page: String(p) })}
            label={t('dashboard.ordersTitle')}
          />
        </div>
      ) : null}
    </Card>
  );
}
