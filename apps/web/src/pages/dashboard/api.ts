import { endpoints, type Order } from '@simdock/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, requireCode1 } from '../../api/client.ts';
import { applyOrder, myOrdersQuery, ORDERS_REFRESH_MS, servicesQuery, statsQuery } from '../../api/orders.ts';
import { useLiveStatus } from '../../live/live.tsx';

export { mergeOrder, prefetchDashboard } from '../../api/orders.ts';

export const useServices = () => useQuery(servicesQuery);

/** The user's orders: live events keep them current; the 5-second refresh runs only while they are down. */
export function useMyOrders() {
  const live = useLiveStatus();
  return useQuery({ ...myOrdersQuery, refetchInterval: live === 'live' ? false : ORDERS_REFRESH_MS });
}

export const useDashboardStats = () => useQuery(statsQuery);

/** A random request key; getRandomValues works on plain-http hosts too (randomUUID needs HTTPS). */
function newRequestKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Rents a number. Each click gets its own Idempotency-Key, sent again on any retry of that click,
 * so a retried request never rents twice.
 */
export async function rentNumber(
  serviceCode: string,
  idempotencyKey: string = newRequestKey(),
): Promise<Order> {
  const answer = await call(
    endpoints.order.create,
    { serviceCode },
    { headers: { 'idempotency-key': idempotencyKey } },
  );
  return requireCode1(answer).data;
}

export function useRentMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: ['order', 'create'],
    mutationFn: (serviceCode: string) => rentNumber(serviceCode),
    onSuccess: (order) => void applyOrder(qc, order),
  });
}

export async function cancelOrder(orderId: string): Promise<Order> {
  return requireCode1(await call(endpoints.order.cancel, { orderId })).data;
}

export function useCancelMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: ['order', 'cancel'],
    mutationFn: cancelOrder,
    onSuccess: (order) => void applyOrder(qc, order),
  });
}

/** Finish: the code arrived, the number takes no more (it leaves the pinned rentals). */
export async function finishOrder(orderId: string): Promise<Order> {
  return requireCode1(await call(endpoints.order.finish, { orderId })).data;
}

export function useFinishMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: ['order', 'finish'],
    mutationFn: finishOrder,
    onSuccess: (order) => void applyOrder(qc, order),
  });
}

/** "Another SMS" on a repeatable service's number, free: the next code arrives like the first. */
export async function requestAnotherSms(orderId: string): Promise<Order> {
  return requireCode1(await call(endpoints.order.anotherSms, { orderId })).data;
}

export function useAnotherSmsMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: ['order', 'anotherSms'],
    mutationFn: requestAnotherSms,
    onSuccess: (order) => void applyOrder(qc, order),
  });
}
