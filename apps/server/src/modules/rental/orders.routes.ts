import { endpoints, normalizeMac, ORDER_STATUSES, Order, percent, totalPages } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { currentUser, route, sendJsonText } from '../../http/route.ts';
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
import { cancel, finish, rent, requestAnotherSms, userOrdersJson } from './orders.service.ts';

/** The rent's `Idempotency-Key` (the header schema allows one string at most). */
const idempotencyKey = (req: { headers: Record<string, unknown> }) =>
  req.headers['idempotency-key'] as string | undefined;

/** The Dashboard's Order out of the rental API's detail: the contract's fields, no extra ones. */
const toOrder = (detail: Order): Order => Order.parse(detail);

export function orderRoutes(app: App, ctx: AppContext) {
  const { order } = endpoints;

  route(app, ctx, order.create, async (req) => ({
    code: 1 as const,
    data: await rent(ctx, currentUser(req).id, req.body.serviceCode, idempotencyKey(req), {
      country: req.body.country,
      operator: req.body.operator,
    }),
  }));

  // The list arrives as JSON text from PostgreSQL (orderListsJson); orders.test.ts checks it
  // against UserOrdersResponse.
  route(app, ctx, order.getByUser, async (req, reply) =>
    sendJsonText(reply, `{"code":1,"orders":${await userOrdersJson(ctx, currentUser(req).id)}}`),
  );

  route(app, ctx, order.cancel, async (req) => ({
    code: 1 as const,
    msg: 'Order cancelled and refunded.',
    data: await cancel(ctx, currentUser(req).id, req.body.orderId),
  }));

  // The Dashboard's Finish and "Another SMS": the rental API's rules, answered as the Dashboard's Order.
  route(app, ctx, order.finish, async (req) => ({
    code: 1 as const,
    msg: 'Order finished.',
    data: toOrder(await finish(ctx, currentUser(req).id, req.body.orderId)),
  }));

  route(app, ctx, order.anotherSms, async (req) => ({
    code: 1 as const,
    msg: 'Waiting for another SMS.',
    data: toOrder(await requestAnotherSms(ctx, currentUser(req).id, req.body.orderId)),
  }));

  route(app, ctx, order.stats, async (req) => {
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
  });

  route(app, ctx, order.adminOrders, async (req) => {
    const { page, pageSize, after, before, ...filter } = req.query;
    const { rows, total, ...paged } = await adminOrdersPage(ctx.db, filter, {
      page,
      pageSize,
      after,
      before,
    });
    const names = await usernamesByIds(
      ctx.db,
      rows.map((o) => o.userId),
    );
    return {
      items: rows.map(({ userId, ...o }) => ({ ...o, username: names.get(userId) ?? '-' })),
      page,
      total,
      totalPages: totalPages(total, pageSize),
      ...paged,
    };
  });

  route(app, ctx, order.orderFilter, async () => {
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
  });

  // Device Statistics: rentals per service on one gateway, found by MAC (or id).
  route(app, ctx, order.deviceStats, async (req) => {
    const gw = await findGatewayByMacOrId(ctx, req.body.mac);
    if (!gw) {
      const what = normalizeMac(req.body.mac) ? 'the MAC address' : 'the id';
      throw notFound(`No gateway has ${what} ${req.body.mac}.`, 'gateway_not_found');
    }
    return {
      mac: gw.mac,
      name: gw.name,
      totalSIM: gw.totalSIM,
      serviceStatss: await serviceStatsOnGateway(ctx.db, gw.id),
    };
  });
}
