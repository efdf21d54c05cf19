import { type ApiLedgerEntry, type ApiOrder, endpoints } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { DomainError, notFound } from '../../errors.ts';
import { currentUser, route } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import { balanceOf, ledgerPage } from '../billing/index.ts';
import {
  cancel,
  finish,
  type OrderDetail,
  rent,
  requestAnotherSms,
  servicesWithAvailability,
  userOrderDetail,
  userOrderDetails,
} from '../rental/index.ts';
import { digits } from './handler.service.ts';

// The REST API for programs: /api/v1 with `Authorization: Bearer <api key>`. Errors are the usual
// `{code: 0, error, msg}` with a fitting status; every call is counted against the key's rate limit.

export function apiOrder(o: OrderDetail): ApiOrder {
  return {
    id: o.id,
    activationId: Number(o.id),
    service: o.serviceCode,
    serviceName: o.serviceName,
    phoneNumber: digits(o.phoneNumber),
    status: o.status,
    code: o.codeText,
    smsText: o.smsText,
    codes: o.codes,
    price: o.price,
    createdAt: o.createdAt,
    expiresAt: o.expiresAt,
    cancelableAt: o.cancelableAt,
    canGetAnotherSms: o.canGetAnotherSms,
    waitingForAnotherSms: o.waitingForAnotherSms,
    finished: o.finished,
  };
}

export function v1Routes(app: App, ctx: AppContext) {
  const { rentalApi } = endpoints;

  route(app, ctx, rentalApi.services, async (req) => ({
    services: (
      await servicesWithAvailability(ctx, true, undefined, {
        country: req.query?.country,
        operator: req.query?.operator,
      })
    ).map((s) => ({
      code: s.code,
      name: s.name,
      description: s.description,
      price: s.price,
      available: s.available,
      rentTimeMinutes: s.rentTimeMinutes,
      isRepeatable: s.isRepeatable,
      ...(s.country ? { country: s.country } : {}),
    })),
  }));

  route(app, ctx, rentalApi.createOrder, async (req) => {
    const userId = currentUser(req).id;
    const o = await rent(
      ctx,
      userId,
      req.body.service,
      // The header schema allows one string at most.
      req.headers['idempotency-key'] as string | undefined,
      {
        ...(req.body.maxPrice !== undefined ? { maxPrice: req.body.maxPrice.toFixed(2) } : {}),
        country: req.body.country,
        operator: req.body.operator,
      },
    );
    return { order: apiOrder((await userOrderDetail(ctx, userId, o.id))!) };
  });

  route(app, ctx, rentalApi.orders, async (req) => {
    const { limit, offset, status } = req.query;
    const page = await userOrderDetails(ctx, currentUser(req).id, status ? { status } : {}, limit, offset);
    return {
      orders: page.orders.map(apiOrder),
      total: page.total,
      ...(page.totalEstimated ? { totalEstimated: true } : {}),
    };
  });

  const orderOf = async (userId: string, id: string) => {
    const o = await userOrderDetail(ctx, userId, id);
    if (!o) throw notFound('Order not found.', 'order_not_found');
    return o;
  };

  route(app, ctx, rentalApi.order, async (req) => ({
    order: apiOrder(await orderOf(currentUser(req).id, req.params.id)),
  }));

  /** An order action: runs it, then answers the order as it is now. */
  const action = (
    declaration: typeof rentalApi.cancelOrder | typeof rentalApi.finishOrder | typeof rentalApi.anotherSms,
    run: (userId: string, id: string) => Promise<unknown>,
  ) =>
    route(app, ctx, declaration, async (req) => {
      const userId = currentUser(req).id;
      await run(userId, req.params.id);
      return { order: apiOrder(await orderOf(userId, req.params.id)) };
    });

  action(rentalApi.cancelOrder, (u, id) => cancel(ctx, u, id));
  action(rentalApi.finishOrder, (u, id) => finish(ctx, u, id));
  action(rentalApi.anotherSms, (u, id) => requestAnotherSms(ctx, u, id));

  route(app, ctx, rentalApi.balance, async (req) => {
    const balance = await balanceOf(ctx.db, currentUser(req).id);
    if (balance === undefined) throw new DomainError('user_not_found', 'User not found.');
    return { balance: Number(balance), currency: 'USD' as const };
  });

  route(app, ctx, rentalApi.ledger, async (req) => {
    const userId = currentUser(req).id;
    const [page, balance] = await Promise.all([
      ledgerPage(ctx.db, userId, req.query.limit, req.query.offset),
      balanceOf(ctx.db, userId),
    ]);
    const entries: ApiLedgerEntry[] = page.entries.map((e) => ({
      id: e.id,
      amount: Number(e.amount),
      kind: e.kind,
      ref: e.ref,
      createdAt: e.created_at.toISOString(),
    }));
    return {
      entries,
      total: page.total,
      ...(page.totalEstimated ? { totalEstimated: true } : {}),
      balance: Number(balance ?? '0'),
    };
  });
}
