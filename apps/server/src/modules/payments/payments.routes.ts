import {
  AdminPaymentsQuery,
  AdminPaymentsResponse,
  CreatePaymentBody,
  CreatePaymentResponse,
  ErrorBody,
  Ok,
  PageQuery,
  PaymentHistoryResponse,
  PaymentOptions,
} from '@simdock/contract';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { badInput, unauthorized } from '../../errors.ts';
import { errorBody } from '../../http/errors.ts';
import { access, currentUser } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import {
  adminPayments,
  createTopup,
  paymentHistory,
  paymentOptions,
  receiveWebhook,
  WEBHOOK_PATH,
} from './payments.service.ts';
import { sandboxRoutes } from './sandbox.routes.ts';

export async function paymentRoutes(app: App, ctx: AppContext): Promise<void> {
  app.post(
    '/api/Payments/create',
    {
      ...access(ctx, 'user'),
      schema: { tags: ['payments'], body: CreatePaymentBody, response: { 200: CreatePaymentResponse } },
    },
    async (req) => ({
      code: 1 as const,
      result: await createTopup(ctx, currentUser(req).id, req.body.amount),
    }),
  );

  app.get(
    '/api/Payments/history',
    {
      ...access(ctx, 'user'),
      schema: { tags: ['payments'], querystring: PageQuery, response: { 200: PaymentHistoryResponse } },
    },
    async (req) => paymentHistory(ctx, currentUser(req).id, req.query.page),
  );

  app.get(
    '/api/Payments/options',
    { ...access(ctx, 'user'), schema: { tags: ['payments'], response: { 200: PaymentOptions } } },
    async () => paymentOptions(ctx),
  );

  app.get(
    '/api/Admin/payments',
    {
      ...access(ctx, 'admin'),
      schema: { tags: ['admin'], querystring: AdminPaymentsQuery, response: { 200: AdminPaymentsResponse } },
    },
    async (req) => adminPayments(ctx, req.query.page, req.query.pageSize),
  );

  await app.register(async (scope) => {
    webhookRoute(scope.withTypeProvider<ZodTypeProvider>() as unknown as App, ctx);
    if (ctx.config.PAYMENT_PROVIDER === 'sandbox')
      sandboxRoutes(scope.withTypeProvider<ZodTypeProvider>() as unknown as App, ctx);
  });
}

/**
 * The provider's webhook (IPN). Its own scope reads every body as exact text: NOWPayments signs a
 * canonical form of the JSON, so the verifier needs the body as it was sent, not a parsed object.
 */
function webhookRoute(app: App, ctx: AppContext) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) =>
    done(null, body),
  );
  app.post(
    WEBHOOK_PATH,
    {
      ...access(ctx, 'public'),
      schema: { tags: ['payments'], response: { 200: Ok, 400: ErrorBody, 401: ErrorBody } },
    },
    async (req, reply) => {
      const raw = typeof req.body === 'string' ? req.body : '';
      const outcome = await receiveWebhook(ctx, raw, req.headers).catch((err: unknown) => {
        ctx.metrics.webhookFailed('incoming', 'error');
        throw err;
      });
      if (!outcome.ok) {
        ctx.metrics.webhookFailed('incoming', outcome.reason);
        // The error code says what the status says: a bad signature is `unauthorized`, not bad input.
        const err =
          outcome.httpStatus === 401
            ? unauthorized('Invalid signature.')
            : badInput('Malformed notification.');
        return reply.status(outcome.httpStatus).send(errorBody(err));
      }
      return { code: 1 as const, msg: outcome.result };
    },
  );
}
