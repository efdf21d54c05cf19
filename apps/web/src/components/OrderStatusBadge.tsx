import { ORDER_STATUSES, type OrderStatus, orderStatusTone } from '@simdock/contract';
import type { MessageKey, TFunction } from '../i18n/index.tsx';
import { useI18n } from '../i18n/index.tsx';
import { StatusBadge } from './StatusBadge.tsx';

/** The friendly, translated name of an order status ('Waiting for code', 'Code received', 'Cancelled'). */
export function orderStatusName(status: string, t: TFunction): string {
  return (ORDER_STATUSES as readonly string[]).includes(status)
    ? t(`status.order.${status as OrderStatus}` as MessageKey)
    : t('status.unknown', { status });
}

/**
 * An order's status: its colour (docs/product.md#states-and-colours) and its translated name (never its
 * code, not even as a tooltip).
 */
export function OrderStatusBadge({ status }: { status: string }) {
  const { t } = useI18n();
  return <StatusBadge tone={orderStatusTone(status)}>{orderStatusName(status, t)}</StatusBadge>;
}
