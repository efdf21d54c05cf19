import {
  AdminOrdersQuery,
  AdminOrdersResponse,
  CancelOrderBody,
  CancelOrderResponse,
  CreateOrderBody,
  CreateOrderResponse,
  DashboardStats,
  ORDER_STATUSES,
  OrderFilterResponse,
  percent,
  totalPages,
  UserOrdersResponse,
} from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import type { App } from '../../http/app.ts';
import { currentUser, guards } from '../../http/auth.ts';
import { OrderEventHub } from './order-events.ts';
import {
  adminOrdersPage,
  gatewayNames,
  gatewayOrderStats,
  uptimeShare,
  userOrderStats,
} from './orders.queries.ts';
import { cancel, listUserOrders, rent } from './orders.service.ts';

const bearer = [{ bearer: [] }];
const HEARTBEAT_MS = 20_000;

export async function orderRoutes(app: App, ctx: AppContext) {
  const { requireUser, requireAdmin } = guards(ctx);
  const hub = new OrderEventHub(ctx);
  await hub.start();
  app.addHook('onClose', () => hub.stop());

  app.post(
    '/api/Order/create',
    {
      preHandler: requireUser,
      schema: {
        tags: ['orders'],
        security: bearer,
        body: CreateOrderBody,
        response: { 200: CreateOrderResponse },
      },
    },
    async (req) => ({ code: 1 as const, data: await rent(ctx, currentUser(req).id, req.body.serviceCode) }),
  );

  app.post(
    '/api/Order/getbyuser',
    {
      preHandler: requireUser,
      schema: { tags: ['orders'], security: bearer, response: { 200: UserOrdersResponse } },
    },
    async (req) => ({ code: 1 as const, orders: await listUserOrders(ctx, currentUser(req).id) }),
  );

  app.post(
    '/api/Order/cancel',
    {
      preHandler: requireUser,
      schema: {
        tags: ['orders'],
        security: bearer,
        body: CancelOrderBody,
        response: { 200: CancelOrderResponse },
      },
    },
    async (req) => ({
      code: 1 as const,
      msg: 'Order cancelled and refunded.',
      data: await cancel(ctx, currentUser(req).id, req.body.orderId),
    }),
  );

  app.post(
    '/api/Order/stats',
    {
      preHandler: requireUser,
      schema: { tags: ['orders'], security: bearer, response: { 200: DashboardStats } },
    },
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

  // Server-sent events: the signed-in user's order changes, the moment they happen.
  app.get(
    '/api/Order/stream',
    {
      preHandler: requireUser,
      schema: { tags: ['orders'], security: bearer, description: 'text/event-stream of `order` events' },
    },
    async (req, reply) => {
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      res.write('retry: 3000\n: connected\n\n');
      const unsubscribe = hub.subscribe(currentUser(req).id, (event) => {
        res.write(`event: order\ndata: ${JSON.stringify(event.order)}\n\n`);
      });
      const heartbeat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS);
      req.raw.on('close', () => {
        clearInterval(heartbeat);
        unsubscribe();
      });
    },
  );

  app.get(
    '/api/Admin/orders',
    {
      preHandler: requireAdmin,
      schema: {
        tags: ['admin'],
        security: bearer,
        querystring: AdminOrdersQuery,
        response: { 200: AdminOrdersResponse },
      },
    },
    async (req) => {
      const { page, pageSize, ...filter } = req.query;
      const { items, total } = await adminOrdersPage(ctx.db, filter, page, pageSize);
      return { items, page, total, totalPages: totalPages(total, pageSize) };
    },
  );

  app.get(
    '/admin/orderfilter',
    {
      preHandler: requireAdmin,
      schema: { tags: ['admin'], security: bearer, response: { 200: OrderFilterResponse } },
    },
    async () => {
      const [gateways, stats] = await Promise.all([gatewayNames(ctx.db), gatewayOrderStats(ctx.db)]);
      return {
        gateways,
        statuses: [...ORDER_STATUSES],
        groupPipeline: stats.map((s) => ({ ...s, successRate: percent(s.successOrders, s.totalOrders) })),
      };
    },
  );
}
