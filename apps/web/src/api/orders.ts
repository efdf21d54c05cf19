import type { Order } from '@simdock/contract';
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { DASHBOARD_KEYS, fetchMyOrders, fetchServices, fetchStats } from './dashboard-data.ts';
import { SESSION_QUERY_KEY } from './user.ts';

/**
 * The signed-in user's rentals, shared by the Dashboard and the shell's live updates (live/live.tsx).
 * One rule keeps refetches to one per change: an order's answer (rent, cancel) or its live event is
 * put into the cache; only when it CHANGES something the cache cannot know (balance, stats, stock)
 * are those refetched, and the second copy of the same change (the event echoing a rent's answer,
 * or the answer arriving after its event) changes nothing.
 */

export { prefetchDashboard } from './dashboard-data.ts';

/** The dashboard's orders refresh every 5 s (only while live events are down). */
export const ORDERS_REFRESH_MS = 5000;

export const servicesQuery = queryOptions({
  queryKey: DASHBOARD_KEYS.services,
  queryFn: ({ signal }) => fetchServices(signal),
  refetchInterval: 15_000,
});

export const myOrdersQuery = queryOptions({
  queryKey: DASHBOARD_KEYS.orders,
  queryFn: ({ signal }) => fetchMyOrders(signal),
});

export const statsQuery = queryOptions({
  queryKey: DASHBOARD_KEYS.stats,
  queryFn: ({ signal }) => fetchStats(signal),
  refetchInterval: 30_000,
});

/** Puts a changed order into the cached list (newest first), replacing its older copy. */
export function mergeOrder(list: Order[] | undefined, order: Order): Order[] {
  const rest = (list ?? []).filter((o) => o.id !== order.id);
  return [order, ...rest].sort((a, b) => Number(b.id) - Number(a.id));
}

const sameOrder = (a: Order, b: Order) =>
  a.status === b.status &&
  a.codeText === b.codeText &&
  a.smsText === b.smsText &&
  a.expiresAt === b.expiresAt &&
  Boolean(a.finished) === Boolean(b.finished);

export type OrderChange = 'echo' | 'new' | 'status' | 'code' | 'other';

/** What an order answer or event changes compared with the copy we know (undefined: not known). */
export function classifyOrderChange(known: Order | undefined, next: Order): OrderChange {
  if (!known) return 'new';
  if (sameOrder(known, next)) return 'echo';
  if (known.status !== next.status) return 'status';
  if (known.codeText !== next.codeText) return 'code';
  return 'other';
}

/**
 * Applies an order (from an answer or a live event) to the cache and refetches only what it makes
 * unknown: a new order or a status change moves the balance, the stat cards and the stock; a new
 * code on a repeatable rental changes none of them. Returns the change and the copy it replaced.
 */
export function applyOrder(
  qc: QueryClient,
  order: Order,
  known?: Order,
): { change: OrderChange; before: Order | undefined } {
  const list = qc.getQueryData(myOrdersQuery.queryKey);
  const before = list?.find((o) => o.id === order.id) ?? known;
  const change = classifyOrderChange(before, order);
  if (change === 'echo') return { change, before };
  if (list) qc.setQueryData(myOrdersQuery.queryKey, mergeOrder(list, order));
  else void qc.invalidateQueries({ queryKey: myOrdersQuery.queryKey });
  if (change === 'new' || change === 'status') {
    void qc.invalidateQueries({ queryKey: statsQuery.queryKey });
    void qc.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
    if (change === 'new' || order.status === 'CANCEL')
      void qc.invalidateQueries({ queryKey: servicesQuery.queryKey });
  } else if (Boolean(order.finished) !== Boolean(before?.finished)) {
    // Finish keeps the status (SUCCESS) but a finished rental is no longer an Active Number.
    void qc.invalidateQueries({ queryKey: statsQuery.queryKey });
  }
  return { change, before };
}
