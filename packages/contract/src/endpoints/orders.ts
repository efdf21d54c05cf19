import { DeviceStats, DeviceStatsBody } from '../api/gateways.ts';
import {
  AdminOrdersQuery,
  AdminOrdersResponse,
  CancelOrderResponse,
  CreateOrderBody,
  CreateOrderResponse,
  DashboardStats,
  IdempotencyHeaders,
  OrderActionBody,
  OrderActionResponse,
  OrderFilterResponse,
  UserOrdersResponse,
} from '../api/orders.ts';
import { endpoint } from '../endpoint.ts';

/** Rentals: the Dashboard's own orders, the Order Manager's list and filters, Device Statistics. */
export const order = {
  /** Rents a number; send an `Idempotency-Key` header (the server validates and documents it). */
  create: endpoint({
    method: 'POST',
    path: '/api/Order/create',
    access: 'user',
    tag: 'orders',
    body: CreateOrderBody,
    headers: IdempotencyHeaders,
    response: { 200: CreateOrderResponse },
    errors: ['service_not_found', 'service_disabled', 'no_numbers', 'balance_too_low', 'conflict'],
  }),
  getByUser: endpoint({
    method: 'POST',
    path: '/api/Order/getbyuser',
    access: 'user',
    tag: 'orders',
    response: { 200: UserOrdersResponse },
  }),
  cancel: endpoint({
    method: 'POST',
    path: '/api/Order/cancel',
    access: 'user',
    tag: 'orders',
    body: OrderActionBody,
    response: { 200: CancelOrderResponse },
    errors: [
      'order_not_found',
      'order_has_code',
      'order_already_cancelled',
      'cancel_too_early',
      'cancel_limit_reached',
    ],
  }),
  /** Finishes a rental whose code arrived: it takes no more codes (the Dashboard's Finish). */
  finish: endpoint({
    method: 'POST',
    path: '/api/Order/finish',
    access: 'user',
    tag: 'orders',
    body: OrderActionBody,
    response: { 200: OrderActionResponse },
    errors: ['order_not_found', 'order_already_cancelled', 'order_no_code'],
  }),
  /** Asks for another SMS on the same number, free (repeatable services; the Dashboard's "Another SMS"). */
  anotherSms: endpoint({
    method: 'POST',
    path: '/api/Order/anothersms',
    access: 'user',
    tag: 'orders',
    body: OrderActionBody,
    response: { 200: OrderActionResponse },
    errors: [
      'order_not_found',
      'order_already_cancelled',
      'order_not_repeatable',
      'order_no_code',
      'order_closed',
    ],
  }),
  stats: endpoint({
    method: 'POST',
    path: '/api/Order/stats',
    access: 'user',
    tag: 'orders',
    response: { 200: DashboardStats },
  }),
  adminOrders: endpoint({
    method: 'GET',
    path: '/api/Admin/orders',
    access: 'admin',
    tag: 'admin',
    query: AdminOrdersQuery,
    response: { 200: AdminOrdersResponse },
  }),
  orderFilter: endpoint({
    method: 'GET',
    path: '/admin/orderfilter',
    access: 'admin',
    tag: 'admin',
    response: { 200: OrderFilterResponse },
  }),
  /** Device Statistics: rentals per service on one gateway, found by MAC (or id). */
  deviceStats: endpoint({
    method: 'POST',
    path: '/api/Admin/deviceStats',
    access: 'admin',
    tag: 'admin: gateways',
    body: DeviceStatsBody,
    response: { 200: DeviceStats },
  }),
};
