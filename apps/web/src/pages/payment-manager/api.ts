import { ADMIN_PAGE_SIZE, type AdminPaymentsQuery, endpoints } from '@simdock/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import { ADMIN_PAYMENTS_KEY } from '../../api/payments.ts';
import type { PageCursors } from '../../lib/page-anchors.ts';
import { recoverInterval } from '../../lib/recover.ts';

/** Payment Manager's filters (none: every payment). */
export type PaymentFilters = Pick<AdminPaymentsQuery, 'search' | 'status' | 'from' | 'to'>;

/**
 * GET /api/Admin/payments?page&pageSize=100[&search&status&from&to] → one page of every user's payments,
 * newest first.
 */
export function fetchAdminPayments(
  page: number,
  filters: PaymentFilters = {},
  signal?: AbortSignal,
  cursors: PageCursors = {},
) {
  return call(endpoints.payment.adminList, undefined, {
    query: { ...cursors, page, pageSize: ADMIN_PAGE_SIZE, ...filters },
    signal,
  });
}

export const adminPaymentsQuery = (page: number, filters: PaymentFilters = {}, cursors: PageCursors = {}) =>
  queryOptions({
    queryKey: [...ADMIN_PAYMENTS_KEY, page, filters, cursors] as const,
    queryFn: ({ signal }) => fetchAdminPayments(page, filters, signal, cursors),
    placeholderData: keepPreviousData,
    refetchInterval: recoverInterval(30_000),
  });

export function useAdminPayments(page: number, filters: PaymentFilters = {}, cursors?: PageCursors) {
  return useQuery(adminPaymentsQuery(page, filters, cursors));
}
