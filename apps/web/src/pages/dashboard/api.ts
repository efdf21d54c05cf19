import { endpoints, type Order, type PublicService } from '@simdock/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, requireCode1 } from '../../api/client.ts';
import { applyOrder, myOrdersQuery, ORDERS_REFRESH_MS, servicesQuery, statsQuery } from '../../api/orders.ts';
import { recoverInterval } from '../../lib/recover.ts';
import { useLiveStatus } from '../../live/live.tsx';

export { mergeOrder, prefetchDashboard } from '../../api/orders.ts';

/** POST /api/Service/getall {country}: the catalogue with that country's prices and numbers. */
export async function fetchServicesIn(country: string, signal?: AbortSignal): Promise<PublicService[]> {
  const res = await call(endpoints.service.getAll, { country }, { signal });
  return res.services;
}

/** A country's catalogue: under the Dashboard's key, so whatever refreshes the catalogue refreshes it. */
export const servicesInQuery = (country: string) =>
  queryOptions({
    queryKey: ['dashboard', 'services', country] as const,
    queryFn: ({ signal }) => fetchServicesIn(country, signal),
    refetchInterval: 15_000,
  });

/** The catalogue: every country's (the default), or one country's. */
export function useServices(country?: string) {
  const every = useQuery({ ...servicesQuery, enabled: !country });
  const one = useQuery({ ...servicesInQuery(country ?? ''), enabled: Boolean(country) });
  return country ? one : every;
}

/** POST /api/Catalogue/countries: the countries with usable SIMs, most first. */
export const countriesQuery = queryOptions({
  queryKey: ['dashboard', 'countries'] as const,
  queryFn: ({ signal }) => call(endpoints.catalogue.countries, {}, { signal }),
  staleTime: 60_000,
  refetchInterval: recoverInterval(),
});

export const useCountries = () => useQuery(countriesQuery);

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
  country?: string,
  idempotencyKey: string = newRequestKey(),
): Promise<Order> {
  const answer = await call(endpoints.order.create, country ? { serviceCode, country } : { serviceCode }, {
    headers: { 'idempotency-key': idempotencyKey },
  });
  return requireCode1(answer).data;
}

export function useRentMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: ['order', 'create'],
    mutationFn: ({ serviceCode, country }: { serviceCode: string; country?: string }) =>
      rentNumber(serviceCode, country),
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
