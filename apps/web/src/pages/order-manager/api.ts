import { ADMIN_PAGE_SIZE, endpoints } from '@simdock/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import type { PageCursors } from '../../lib/page-anchors.ts';
import { recoverInterval } from '../../lib/recover.ts';
import type { OrderParams } from './order-params.ts';

const ADMIN_ORDERS_KEY = ['orders', 'admin'] as const;

/** GET /admin/orderfilter → gateways and statuses for the filters, and the per-gateway statistics. */
export function fetchOrderFilter(signal?: AbortSignal) {
  return call(endpoints.order.orderFilter, undefined, { signal });
}

export const orderFilterQuery = () =>
  queryOptions({
    queryKey: [...ADMIN_ORDERS_KEY, 'filter'] as const,
    queryFn: ({ signal }) => fetchOrderFilter(signal),
    refetchInterval: recoverInterval(),
  });

export function useOrderFilterQuery() {
  return useQuery(orderFilterQuery());
}

/** GET /api/Admin/orders?page&pageSize=100&status&gateway&phoneNumber → one page of orders, newest first. */
export function fetchAdminOrders(p: OrderParams, signal?: AbortSignal, cursors: PageCursors = {}) {
  return call(endpoints.order.adminOrders, undefined, {
    query: {
      ...cursors,
      page: p.page,
      pageSize: ADMIN_PAGE_SIZE,
      status: p.status,
      gateway: p.gateway,
      phoneNumber: p.phoneNumber.trim(),
    },
    signal,
  });
}

export const adminOrdersQuery = (p: OrderParams, cursors: PageCursors = {}) =>
  queryOptions({
    queryKey: [...ADMIN_ORDERS_KEY, 'list', p, cursors] as const,
    queryFn: ({ signal }) => fetchAdminOrders(p, signal, cursors),
    // The previous page stays on screen (dimmed) while the next one loads: no jump, no flash.
    placeholderData: keepPreviousData,
    refetchInterval: recoverInterval(),
  });

export function useAdminOrdersQuery(p: OrderParams, cursors?: PageCursors) {
  return useQuery(adminOrdersQuery(p, cursors));
}

/** GET /api/Admin/inbox?matched=false → incoming SMS that no order took (kept, never lost). */
export function fetchUnmatchedSms(page: number, signal?: AbortSignal, cursors: PageCursors = {}) {
  return call(endpoints.gateway.inbox, undefined, {
    query: { ...cursors, page, pageSize: UNMATCHED_PAGE_SIZE, matched: 'false' },
    signal,
  });
}

export const UNMATCHED_PAGE_SIZE = 20;

export const unmatchedSmsQuery = (page: number, cursors: PageCursors = {}) =>
  queryOptions({
    queryKey: [...ADMIN_ORDERS_KEY, 'unmatched', page, cursors] as const,
    queryFn: ({ signal }) => fetchUnmatchedSms(page, signal, cursors),
    placeholderData: keepPreviousData,
    refetchInterval: recoverInterval(15_000),
  });

export function useUnmatchedSmsQuery(page: number, cursors?: PageCursors) {
  return useQuery(unmatchedSmsQuery(page, cursors));
}
