import {
  CancelOrderResponse,
  CreateOrderResponse,
  DashboardStats,
  type Order,
  Order as OrderSchema,
  PublicServiceListResponse,
  UserOrdersResponse,
} from '@simdock/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { apiPost, requireCode1 } from '../../api/client.ts';
import { getToken } from '../../api/token.ts';
import { SESSION_QUERY_KEY } from '../../api/user.ts';
import { followSse } from '../../lib/sse.ts';

/** Spec §9: the dashboard's orders refresh every 5 s (the fallback when live events are down). */
export const ORDERS_REFRESH_MS = 5000;

// ---- services (public list) ----

export async function fetchServices(signal?: AbortSignal) {
  const res = await apiPost('/api/Service/getall', {}, PublicServiceListResponse, { auth: false, signal });
  return res.services;
}

export const servicesQuery = queryOptions({
  queryKey: ['dashboard', 'services'],
  queryFn: ({ signal }) => fetchServices(signal),
  refetchInterval: 15_000,
});

export const useServices = () => useQuery(servicesQuery);

// ---- the user's orders ----

export async function fetchMyOrders(signal?: AbortSignal): Promise<Order[]> {
  return requireCode1(await apiPost('/api/Order/getbyuser', {}, UserOrdersResponse, { signal })).orders;
}

export const myOrdersQuery = queryOptions({
  queryKey: ['dashboard', 'orders'],
  queryFn: ({ signal }) => fetchMyOrders(signal),
  refetchInterval: ORDERS_REFRESH_MS,
});

export const useMyOrders = () => useQuery(myOrdersQuery);

// ---- stat cards ----

export const statsQuery = queryOptions({
  queryKey: ['dashboard', 'stats'],
  queryFn: ({ signal }) => apiPost('/api/Order/stats', {}, DashboardStats, { signal }),
  refetchInterval: 30_000,
});

export const useDashboardStats = () => useQuery(statsQuery);

/** Puts a changed order into the cached list (newest first), replacing its older copy. */
export function mergeOrder(list: Order[] | undefined, order: Order): Order[] {
  const rest = (list ?? []).filter((o) => o.id !== order.id);
  return [order, ...rest].sort((a, b) => Number(b.id) - Number(a.id));
}

function useOrderChanged() {
  const qc = useQueryClient();
  return useCallback(
    (order: Order) => {
      qc.setQueryData(myOrdersQuery.queryKey, (list) => mergeOrder(list, order));
      void qc.invalidateQueries({ queryKey: statsQuery.queryKey });
      void qc.invalidateQueries({ queryKey: servicesQuery.queryKey });
      // Rents, cancels and refunds change the balance in the top bar.
      void qc.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
    },
    [qc],
  );
}

// ---- rent and cancel ----

export async function rentNumber(serviceCode: string): Promise<Order> {
  return requireCode1(await apiPost('/api/Order/create', { serviceCode }, CreateOrderResponse)).data;
}

export function useRentMutation() {
  const changed = useOrderChanged();
  return useMutation({ mutationKey: ['order', 'create'], mutationFn: rentNumber, onSuccess: changed });
}

export async function cancelOrder(orderId: string): Promise<Order> {
  return requireCode1(await apiPost('/api/Order/cancel', { orderId }, CancelOrderResponse)).data;
}

export function useCancelMutation() {
  const changed = useOrderChanged();
  return useMutation({ mutationKey: ['order', 'cancel'], mutationFn: cancelOrder, onSuccess: changed });
}

// ---- live updates ----

/**
 * Follows GET /api/Order/stream while the dashboard is open: each `order` event updates the list at
 * once (a code appears without waiting for the 5-second refresh). On every (re)connection the list
 * is refetched, so nothing missed while disconnected stays missing.
 */
export function useLiveOrders(onNewCode?: (order: Order) => void) {
  const qc = useQueryClient();
  const changed = useOrderChanged();
  const onCode = useRef(onNewCode);
  onCode.current = onNewCode;
  useEffect(() => {
    const abort = new AbortController();
    void followSse('/api/Order/stream', {
      token: getToken,
      signal: abort.signal,
      onOpen: () => void qc.invalidateQueries({ queryKey: myOrdersQuery.queryKey }),
      onMessage: (m) => {
        if (m.event !== 'order') return;
        const parsed = OrderSchema.safeParse(JSON.parse(m.data));
        if (!parsed.success) return;
        const before = qc.getQueryData(myOrdersQuery.queryKey)?.find((o) => o.id === parsed.data.id);
        changed(parsed.data);
        if (parsed.data.codeText && parsed.data.codeText !== before?.codeText) onCode.current?.(parsed.data);
      },
    });
    return () => abort.abort();
  }, [qc, changed]);
}
