import { type Order, orderStatusTone } from '@simdock/contract';
import { Radio } from 'lucide-react';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import {
  Button,
  Card,
  type Column,
  CopyableText,
  DataTable,
  Notice,
  StatusBadge,
} from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { formatMoney, formatRelative } from '../../lib/format.ts';
import { useCancelMutation, useLiveOrders, useMyOrders } from './api.ts';

/** Whether the Cancel button applies to an order at `now`: still waiting, no code, past the minimum time. */
export function cancelState(order: Order, now: number): 'hidden' | 'wait' | 'ready' {
  if (order.status !== 'WAIT_CODE' || order.codeText !== null) return 'hidden';
  return now >= Date.parse(order.cancelableAt) ? 'ready' : 'wait';
}

/** Re-renders every second so the time left and the cancel window stay current. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** The user's rentals: phone and code with copy buttons, status colours, time left and Cancel. */
export function OrderList() {
  const { t } = useI18n();
  const orders = useMyOrders();
  const cancel = useCancelMutation();
  const now = useNow();
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string }>();
  useLiveOrders((o) =>
    setNotice({
      tone: 'success',
      text: t('dashboard.codeArrived', { code: o.codeText ?? '', phone: o.phoneNumber }),
    }),
  );

  const onCancel = (o: Order) => {
    setNotice(undefined);
    cancel.mutate(o.id, {
      onSuccess: () =>
        setNotice({ tone: 'success', text: t('dashboard.cancelled', { amount: formatMoney(o.price) }) }),
      onError: (err) =>
        setNotice({ tone: 'error', text: t('dashboard.cancelFailed', { msg: errorMessage(err) }) }),
    });
  };

  const columns: Column<Order>[] = [
    {
      key: 'phone',
      header: t('dashboard.colPhone'),
      className: 'whitespace-nowrap',
      cell: (o) => <CopyableText value={o.phoneNumber} testId="order-phone" />,
    },
    {
      key: 'code',
      header: t('dashboard.colCode'),
      cell: (o) => (
        <div>
          {o.codeText ? (
            <CopyableText
              value={o.codeText}
              testId="order-code"
              className="text-base font-semibold text-ok"
            />
          ) : (
            <span className="text-muted">{o.status === 'WAIT_CODE' ? t('dashboard.waitingCode') : '-'}</span>
          )}
          {o.smsText ? (
            <div className="max-w-72 truncate text-xs text-muted" title={o.smsText}>
              {t('dashboard.fullSms', { text: o.smsText })}
            </div>
          ) : null}
        </div>
      ),
    },
    { key: 'service', header: t('dashboard.colService'), cell: (o) => o.serviceName },
    {
      key: 'status',
      header: t('dashboard.colStatus'),
      cell: (o) => (
        <span data-testid="order-status">
          <StatusBadge tone={orderStatusTone(o.status)}>{o.status}</StatusBadge>
        </span>
      ),
    },
    {
      key: 'left',
      header: t('dashboard.colTimeLeft'),
      className: 'whitespace-nowrap',
      cell: (o) => {
        const open = o.status === 'WAIT_CODE' || o.status === 'SUCCESS';
        const ends = Date.parse(o.expiresAt);
        return open && ends > now ? (
          <time dateTime={o.expiresAt} className="tabular">
            {formatRelative(o.expiresAt, now, t)}
          </time>
        ) : (
          <span className="text-muted">{t('dashboard.ended')}</span>
        );
      },
    },
    {
      key: 'actions',
      header: t('dashboard.colActions'),
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
              <span className="text-xs text-muted">
                {t('dashboard.cancelAvailable', { time: formatRelative(o.cancelableAt, now, t) })}
              </span>
            ) : null}
          </div>
        );
      },
    },
  ];

  return (
    <Card
      title={t('dashboard.ordersTitle')}
      description={t('dashboard.ordersText')}
      actions={
        <span className="inline-flex items-center gap-1.5 text-xs text-ok">
          <Radio className="size-3.5" aria-hidden />
          {t('dashboard.live')}
        </span>
      }
      flush
    >
      {notice ? (
        <div className="px-4 pb-3">
          <Notice tone={notice.tone} onDismiss={() => setNotice(undefined)}>
            {notice.text}
          </Notice>
        </div>
      ) : null}
      {/* Phones get one card per order; wider screens the table. */}
      <div className="hidden sm:block">
        <DataTable
          columns={columns}
          rows={orders.data}
          rowKey={(o) => o.id}
          loading={orders.isLoading}
          error={orders.isError && !orders.data ? t('dashboard.ordersError') : undefined}
          emptyText={t('dashboard.noOrders')}
          caption={t('dashboard.ordersTitle')}
        />
      </div>
      <ul
        className="divide-y divide-line border-t border-line sm:hidden"
        aria-label={t('dashboard.ordersTitle')}
      >
        {orders.data?.length === 0 ? (
          <li className="px-4 py-6 text-center text-muted">{t('dashboard.noOrders')}</li>
        ) : null}
        {orders.data?.map((o) => {
          const cell = (key: string) => columns.find((c) => c.key === key)!.cell(o, 0);
          return (
            <li key={o.id} className="flex flex-col gap-1.5 px-4 py-3">
              <div className="flex items-center justify-between gap-2">
                <span className="font-medium text-fg">{o.serviceName}</span>
                {cell('status')}
              </div>
              {cell('phone')}
              {cell('code')}
              <div className="flex items-center justify-between gap-2 text-sm">
                {cell('left')}
                {cell('actions')}
              </div>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}
