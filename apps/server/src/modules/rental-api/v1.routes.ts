import {
  ApiBalanceResponse,
  ApiCreateOrderBody,
  type ApiLedgerEntry,
  ApiLedgerResponse,
  ApiListQuery,
  type ApiOrder,
  ApiOrderParams,
  ApiOrderResponse,
  ApiOrdersQuery,
  ApiOrdersResponse,
  ApiServicesResponse,
  ErrorBody,
  IdempotencyHeaders,
} from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { DomainError, notFound } from '../../errors.ts';
import { access, currentUser } from '../../http/route.ts';
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

const ERRORS = {
  400: ErrorBody.describe('Bad input'),
  401: ErrorBody.describe('Missing or invalid API key, or inactive account'),
  429: ErrorBody.describe('Over the rate limit (see Retry-After)'),
};

export function v1Routes(app: App, ctx: AppContext) {
  const tags = ['rental API v1'];
  const key = () => access(ctx, 'apikey');

  app.get(
    '/api/v1/services',
    {
      ...key(),
      schema: {
        tags,
        summary: 'Services with price and live availability',
        response: { 200: ApiServicesResponse, ...ERRORS },
      },
    },
    async () => ({
      services: (await servicesWithAvailability(ctx, true)).map((s) => ({
        code: s.code,
        name: s.name,
        description: s.description,
        price: s.price,
        available: s.available,
        rentTimeMinutes: s.rentTimeMinutes,
        isRepeatable: s.isRepeatable,
      })),
    }),
  );

  app.post(
    '/api/v1/orders',
    {
      ...key(),
      schema: {
        tags,
        summary: 'Rent a number',
        description:
          'Charges the service price and returns the order. Send an `Idempotency-Key` header (any unique text per rent): a retried request with the same key returns the first order and never buys twice. Refusals: 402 `balance_too_low`, 404 `service_not_found`, 409 `no_numbers` / `service_disabled` / `price_above_max`.\n\nExample: `curl -X POST -H "Authorization: Bearer $KEY" -H "Idempotency-Key: $(uuidgen)" -H "content-type: application/json" -d \'{"service":"tg"}\' https://HOST/api/v1/orders`',
        headers: IdempotencyHeaders,
        body: ApiCreateOrderBody,
        response: {
          200: ApiOrderResponse,
          ...ERRORS,
          402: ErrorBody.describe('Balance too low'),
          409: ErrorBody.describe('No numbers / price above max'),
        },
      },
    },
    async (req) => {
      const userId = currentUser(req).id;
      const o = await rent(
        ctx,
        userId,
        req.body.service,
        req.headers['idempotency-key'],
        req.body.maxPrice !== undefined ? { maxPrice: req.body.maxPrice.toFixed(2) } : {},
      );
      return { order: apiOrder((await userOrderDetail(ctx, userId, o.id))!) };
    },
  );

  app.get(
    '/api/v1/orders',
    {
      ...key(),
      schema: {
        tags,
        summary: 'Your orders, newest first',
        querystring: ApiOrdersQuery,
        response: { 200: ApiOrdersResponse, ...ERRORS },
      },
    },
    async (req) => {
      const { limit, offset, status } = req.query;
      const page = await userOrderDetails(ctx, currentUser(req).id, status ? { status } : {}, limit, offset);
      return { orders: page.orders.map(apiOrder), total: page.total };
    },
  );

  const orderOf = async (userId: string, id: string) => {
    const o = await userOrderDetail(ctx, userId, id);
    if (!o) throw notFound('Order not found.', 'order_not_found');
    return o;
  };

  app.get(
    '/api/v1/orders/:id',
    {
      ...key(),
      schema: {
        tags,
        summary: 'One order: status, codes and full SMS texts',
        params: ApiOrderParams,
        response: { 200: ApiOrderResponse, ...ERRORS, 404: ErrorBody.describe('Order not found') },
      },
    },
    async (req) => ({ order: apiOrder(await orderOf(currentUser(req).id, req.params.id)) }),
  );

  const action = (
    path: string,
    summary: string,
    run: (userId: string, id: string) => Promise<unknown>,
    description: string,
  ) =>
    app.post(
      `/api/v1/orders/:id/${path}`,
      {
        ...key(),
        schema: {
          tags,
          summary,
          description,
          params: ApiOrderParams,
          response: {
            200: ApiOrderResponse,
            ...ERRORS,
            404: ErrorBody.describe('Order not found'),
            409: ErrorBody.describe('Not possible in the order’s state'),
          },
        },
      },
      async (req) => {
        const userId = currentUser(req).id;
        await run(userId, req.params.id);
        return { order: apiOrder(await orderOf(userId, req.params.id)) };
      },
    );

  action(
    'cancel',
    'Cancel and refund an order without a code',
    (u, id) => cancel(ctx, u, id),
    'Refused with 409 `cancel_too_early` in the first minutes (see `cancelableAt`), `order_has_code` after a code, `order_already_cancelled`.',
  );
  action(
    'finish',
    'Finish an order whose code arrived',
    (u, id) => finish(ctx, u, id),
    'The order takes no more codes. 409 `order_no_code` before a code (cancel instead).',
  );
  action(
    'another-sms',
    'Ask for another SMS on the same number (repeatable services)',
    (u, id) => requestAnotherSms(ctx, u, id),
    'Free. The order then shows `waitingForAnotherSms: true` until the next code arrives. 409 `order_not_repeatable`, `order_no_code`, `order_closed`.',
  );

  app.get(
    '/api/v1/balance',
    {
      ...key(),
      schema: { tags, summary: 'Your balance (USD)', response: { 200: ApiBalanceResponse, ...ERRORS } },
    },
    async (req) => {
      const balance = await balanceOf(ctx.db, currentUser(req).id);
      if (balance === undefined) throw new DomainError('user_not_found', 'User not found.');
      return { balance: Number(balance), currency: 'USD' as const };
    },
  );

  app.get(
    '/api/v1/ledger',
    {
      ...key(),
      schema: {
        tags,
        summary: 'Your money movements, newest first (charges negative)',
        description:
          'Kinds: `order_charge` (ref `order:<id>`), `refund` (ref `order:<id>`), `topup`, `admin_adjustment`, `demo_credit`. The balance is the sum of the ledger.',
        querystring: ApiListQuery,
        response: { 200: ApiLedgerResponse, ...ERRORS },
      },
    },
    async (req) => {
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
      return { entries, total: page.total, balance: Number(balance ?? '0') };
    },
  );
}
