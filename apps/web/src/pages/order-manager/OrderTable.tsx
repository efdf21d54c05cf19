import type { AdminOrder } from '@simdock/contract';
import { type Column, DataTable, DateTimeText, OrderStatusBadge } from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { formatPhone } from '../../lib/format.ts';

/**
 * The orders table (docs/product.md#screens-and-routes): ID, Gateway, Port, User, Phone, Service, OTP,
 * Status, Created At. It fits 1280 px with the longest names: gateway and service names wrap, Created
 * At breaks between date and time; the service shows by name (its code in the tooltip).
 */
export function OrderTable({
  orders,
  loading,
  error,
  onRetry,
}: {
  orders: AdminOrder[] | undefined;
  loading: boolean;
  error?: unknown;
  onRetry?: () => unknown;
}) {
  const { t } = useI18n();
  const nowrap = 'whitespace-nowrap';
  const columns: Column<AdminOrder>[] = [
    {
      key: 'id',
      header: t('orders.colId'),
      className: nowrap,
      cell: (o) => <span className="tabular">{o.id}</span>,
    },
    {
      key: 'gateway',
      header: t('orders.colGateway'),
      cellClassName: 'min-w-28 break-words',
      cell: (o) => o.gateway,
    },
    { key: 'port', header: t('orders.colPort'), className: nowrap, cell: (o) => o.port },
    { key: 'user', header: t('orders.colUser'), className: nowrap, cell: (o) => o.username },
    {
      key: 'phone',
      header: t('orders.colPhone'),
      className: nowrap,
      cell: (o) => <span className="font-mono text-[13px]">{formatPhone(o.phoneNumber)}</span>,
    },
    {
      key: 'service',
      header: t('orders.colService'),
      cellClassName: 'min-w-24 break-words',
      cell: (o) => <span title={o.serviceCode}>{o.serviceName}</span>,
    },
    {
      key: 'otp',
      header: t('orders.colOtp'),
      className: nowrap,
      cell: (o) =>
        o.codeText ? (
          <span className="font-mono text-[13px] font-semibold">{o.codeText}</span>
        ) : (
          <span className="text-muted">-</span>
        ),
    },
    {
      key: 'status',
      header: t('orders.colStatus'),
      cell: (o) => <OrderStatusBadge status={o.status} />,
    },
    {
      key: 'createdAt',
      header: t('orders.colCreatedAt'),
      cell: (o) => <DateTimeText value={o.createdAt} />,
    },
  ];
  return (
    <DataTable
      caption={t('orders.caption')}
      columns={columns}
      rows={orders}
      rowKey={(o) => o.id}
      loading={loading}
      error={error}
      errorTitle={t('orders.loadFailed')}
      onRetry={onRetry}
      emptyText={t('orders.empty')}
      phoneCards
      skeletonRows={8}
    />
  );
}
