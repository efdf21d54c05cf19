import { endpoints } from '@simdock/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import { MY_PAYMENTS_KEY } from '../../api/payments.ts';

/** GET /api/Payments/options: which provider is active (the page labels the sandbox). */
export const paymentOptionsQuery = queryOptions({
  queryKey: ['payment-options'] as const,
  queryFn: ({ signal }) => call(endpoints.payment.options, undefined, { signal }),
  staleTime: 5 * 60_000,
});

export function usePaymentOptions() {
  return useQuery(paymentOptionsQuery);
}

/** GET /api/Payments/history?page= → the user's own payments, newest first. */
export function fetchPaymentHistory(page: number, signal?: AbortSignal) {
  return call(endpoints.payment.history, undefined, { query: { page }, signal });
}

export const paymentHistoryQuery = (page: number) =>
  queryOptions({
    queryKey: [...MY_PAYMENTS_KEY, page] as const,
    queryFn: ({ signal }) => fetchPaymentHistory(page, signal),
    placeholderData: keepPreviousData,
    // While an invoice is open, poll: the live stream may be down (a proxy that drops SSE).
    refetchInterval: (q) =>
      q.state.data?.items.some((p) => p.status === 'PENDING' || p.status === 'PAID') ? 10_000 : false,
  });

export function usePaymentHistory(page: number) {
  return useQuery(paymentHistoryQuery(page));
}

/** POST /api/Payments/create {amount} → the hosted invoice url. */
export function createPayment(amount: number) {
  return call(endpoints.payment.create, { amount });
}

export function useCreatePayment() {
  return useMutation({ mutationKey: ['payments', 'create'], mutationFn: createPayment });
}

/** POST /api/Payments/cancel {id}: the user's own PENDING invoice; the history refreshes after. */
export function useCancelPayment() {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: ['payments', 'cancel'],
    mutationFn: (id: string) => call(endpoints.payment.cancel, { id }),
    onSettled: () => qc.invalidateQueries({ queryKey: MY_PAYMENTS_KEY }),
  });
}
