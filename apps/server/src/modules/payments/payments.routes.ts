import { endpoints } from '@simdock/contract';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { badInput, unauthorized } from '../../errors.ts';
import { errorBody } from '../../http/errors.ts';
import { currentUser, route } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import {
  adminPayments,
  cancelTopup,
  createTopup,
  paymentHistory,
  paymentOptions,
  receiveWebhook,
} from './payments.service.ts';
import { sandboxRoutes } from './sandbox.routes.ts';

export async function paymentRoutes(app: App, ctx: AppContext): Promise<void> {
  const { payment } = endpoints;

  route(app, ctx, payment.create, async (req) => ({
    code: 1 as const,
    result: await createTopup(ctx, currentUser(req).id, req.body.amount),
  }));

  route(app, ctx, payment.cancel, async (req) => {
    await cancelTopup(ctx, currentUser(req).id, req.body.id);
    return { code: 1 as const, msg: 'cancelled' };
  });

  route(app, ctx, payment.history, async (req) => paymentHistory(ctx, currentUser(req).id, req.query.page));

  route(app, ctx, payment.options, async () => paymentOptions(ctx));

  route(app, ctx, payment.adminList, async (req) => adminPayments(ctx, req.query));

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
  route(app, ctx, endpoints.payment.ipn, async (req, reply) => {
    const body: unknown = req.body;
    const raw = typeof body === 'string' ? body : '';
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
          : outcome.reason === 'invoice_mismatch'
            ? badInput('The invoice does not match the order.')
            : badInput('Malformed notification.');
      return reply.status(outcome.httpStatus).send(errorBody(err));
    }
    return { code: 1 as const, msg: outcome.result };
  });
}
