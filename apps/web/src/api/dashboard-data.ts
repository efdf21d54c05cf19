import { endpoints, type Order, type PublicService } from '@simdock/contract';
import type { QueryClient } from '@tanstack/react-query';
import { call, requireCode1 } from './client.ts';

/**
 * The Dashboard's three lists: their cache keys and fetchers. Kept apart from their query options
 * (orders.ts) so that a signed-in start on /dashboard can ask for them from the entry chunk (main.tsx)
 * without pulling the query-options code into the sign-in page's JavaScript.
 */
export const DASHBOARD_KEYS = {
  services: ['dashboard', 'services'],
  orders: ['dashboard', 'orders'],
  stats: ['dashboard', 'stats'],
} as const;

/** POST /api/Service/getall without a token (a public call) → the services without the admin fields. */
export async function fetchServices(signal?: AbortSignal): Promise<PublicService[]> {
  const res = await call(endpoints.service.getAll, undefined, { signal });
  return res.services;
}

export async function fetchMyOrders(signal?: AbortSignal): Promise<Order[]> {
  return requireCode1(await call(endpoints.order.getByUser, undefined, { signal })).orders;
}

export const fetchStats = (signal?: AbortSignal) => call(endpoints.order.stats, undefined, { signal });

/**
 * Asks for the three lists together, so the Dashboard's content needs one round trip: a signed-in
 * start on /dashboard calls it first thing, beside the user info and the chunks; the route calls it
 * again when the page's chunk arrives (a no-op while the first answers are fresh or on their way).
 */
export function prefetchDashboard(qc: QueryClient): void {
  void qc.prefetchQuery({
    queryKey: DASHBOARD_KEYS.services,
    queryFn: ({ signal }) => fetchServices(signal),
  });
  void qc.prefetchQuery({ queryKey: DASHBOARD_KEYS.orders, queryFn: ({ signal }) => fetchMyOrders(signal) });
  void qc.prefetchQuery({ queryKey: DASHBOARD_KEYS.stats, queryFn: ({ signal }) => fetchStats(signal) });
}
