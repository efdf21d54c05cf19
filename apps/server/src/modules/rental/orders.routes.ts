import {
  AdminOrdersQuery,
  AdminOrdersResponse,
  CancelOrderBody,
  CancelOrderResponse,
  CreateOrderBody,
  CreateOrderResponse,
  DashboardStats,
  DeviceStats,
  DeviceStatsBody,
  IdempotencyHeaders,
  ORDER_STATUSES,
  OrderFilterResponse,
  percent,
  totalPages,
  UserOrdersResponse,
} from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { access, currentUser, sendJsonText } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import { findGatewayByMacOrId, gatewayNames, uptimeShare } from '../gateways/index.ts';
import { usernamesByIds } from '../users/index.ts';
import {
  adminOrdersPage,
  gatewayOrderStats,
  orderGatewayNames,
  serviceStatsOnGateway,
  userOrderStats,
} from './orders.queries.ts';
import { cancel, rent, userOrdersJson } from './orders.service.ts';

export function orderRoutes(app: App, ctx: AppContext) {
  app.post(
    '/api/Order/create',
    {
      ...access(ctx, 'user'),
      schema: {
        tags: ['orders'],
        headers: IdempotencyHeaders,
        body: CreateOrderBody,
        response: { 200: CreateOrderResponse },
      },
    },
    async (req) => ({
      code: 1 as const,
      data: await rent(ctx, currentUser(req).id, req.body.serviceCode, req.headers['idempotency-key']),
    }),
  );

  app.post(
    '/api/Order/getbyuser',
    { ...access(ctx, 'user'), schema: { tags: ['orders'], response: { 200: UserOrdersResponse } } },
    // The list arrives as JSON text from PostgreSQL (orderListsJson); orders.test.ts checks it
    // against UserOrdersResponse.
    async (req, reply) =>
      sendJsonText(reply, `{"code":1,"orders":${await userOrdersJson(ctx, currentUser(req).id)}}`),
  );

  app.post(
    '/api/Order/cancel',
    {
      ...access(ctx, 'user'),
      schema: { tags: ['orders'], body: CancelOrderBody, response: { 200: CancelOrderResponse } },
    },
    async (req) => ({
      code: 1 as const,
      msg: 'Order cancelled and refunded.',
      data: await cancel(ctx, currentUser(req).id, req.body.orderId),
    }),
  );

  app.post(
    '/api/Order/stats',
    { ...access(ctx, 'user'), schema: { tags: ['orders'], response: { 200: DashboardStats } } },
    async (req) => {
      const now = ctx.clock.now();
      const dayStart = new Date(now);
      dayStart.setUTCHours(0, 0, 0, 0);
      const [mine, share] = await Promise.all([
        userOrderStats(ctx.db, currentUser(req).id, dayStart, now),
        uptimeShare(ctx.db, new Date(now.getTime() - 24 * 3600_000)),
      ]);
      return {
        activeNumbers: mine.active,
        dailyRentals: mine.today,
        uptime: share === null ? null : Math.round(share * 10000) / 100,
      };
    },
  );

  app.get(
    '/api/Admin/orders',
    {
      ...access(ctx, 'admin'),
      schema: { tags: ['admin'], querystring: AdminOrdersQuery, response: { 200: AdminOrdersResponse } },
    },
    async (req) => {
      const { page, pageSize, ...filter } = req.query;
      const { items, total } = await adminOrdersPage(ctx.db, filter, page, pageSize);
      const names = await usernamesByIds(
        ctx.db,
        items.map((o) => o.userId),
      );
      return {
        items: items.map(({ userId, ...o }) => ({ ...o, username: names.get(userId) ?? '-' })),
        page,
        total,
        totalPages: totalPages(total, pageSize),
      };
    },
  );

  app.get(
    '/admin/orderfilter',
    { ...access(ctx, 'admin'), schema: { tags: ['admin'], response: { 200: OrderFilterResponse } } },
    async () => {
      const [current, used, stats] = await Promise.all([
        gatewayNames(ctx.db),
        orderGatewayNames(ctx.db),
        gatewayOrderStats(ctx.db),
      ]);
      return {
        gateways: [...new Set([...current, ...used])].sort(),
        statuses: [...ORDER_STATUSES],
        groupPipeline: stats.map((s) => ({ ...s, successRate: percent(s.successOrders, s.totalOrders) })),
      };
    },
  );

  // Device Statistics: rentals per service on one gateway, found by MAC (or id).
  app.post(
    '/api/Admin/deviceStats',
    {
      ...access(ctx, 'admin'),
      schema: { tags: ['admin: gateways'], body: DeviceStatsBody, response: { 200: DeviceStats } },
    },
    async (req) => {
      const gw = await findGatewayByMacOrId(ctx, req.body.mac);
      if (!gw) throw notFound(`No gateway has the MAC address ${req.body.mac}.`, 'gateway_not_found');
      return {
        mac: gw.mac,
        name: gw.name,
        totalSIM: gw.totalSIM,
        serviceStatss: await serviceStatsOnGateway(ctx.db, gw.id),
      };
    },
  );
}
