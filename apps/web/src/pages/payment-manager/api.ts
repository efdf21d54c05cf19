import { ADMIN_PAGE_SIZE, endpoints } from '@simdock/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import { ADMIN_PAYMENTS_KEY } from '../../api/payments.ts';

/** GET /api/Admin/payments?page&pageSize=100 → one page of every user's payments, newest first. */
export function fetchAdminPayments(page: number, signal?: AbortSignal) {
  return call(endpoints.payment.adminList, undefined, {
    query: { page, pageSize: ADMIN_PAGE_SIZE },
    signal,
  });
}

export const adminPaymentsQuery = (page: number) =>
  queryOptions({
    queryKey: [...ADMIN_PAYMENTS_KEY, page] as const,
    queryFn: ({ signal }) => fetchAdminPayments(page, signal),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });

export function useAdminPayments(page: number) {
  return useQuery(adminPaymentsQuery(page));
}
