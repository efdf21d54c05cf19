import { type BalanceHistoryBody, endpoints } from '@simdock/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../api/client.ts';

/** Balance history queries: ['balance-history', {page, pageSize}]. */
export const BALANCE_HISTORY_KEY = ['balance-history'] as const;

type Page = Required<NonNullable<BalanceHistoryBody>>;

/** POST /api/user/balanceHistory {page, pageSize} → the user's ledger entries, newest first, and their count. */
export function fetchBalanceHistory(page: Page, signal?: AbortSignal) {
  return call(endpoints.account.balanceHistory, page, { signal });
}

export const balanceHistoryQuery = (page: Page) =>
  queryOptions({
    queryKey: [...BALANCE_HISTORY_KEY, page] as const,
    queryFn: ({ signal }) => fetchBalanceHistory(page, signal),
    placeholderData: keepPreviousData,
  });

export function useBalanceHistory(page: Page) {
  return useQuery(balanceHistoryQuery(page));
}
