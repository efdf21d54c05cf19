import type { ConfiguredModule } from '../../module.ts';
import { paymentsConfig } from './payments.config.ts';
import { hasPayments } from './payments.queries.ts';
import { paymentRoutes } from './payments.routes.ts';
import { reconcile, renderPaymentEvent } from './payments.service.ts';

// Payments: USDT top-up invoices at a provider (sandbox or NOWPayments), their webhooks and
// status answers applied exactly once, credits through billing. See providers/README.md.
export { seedDemoTopups } from './payments.service.ts';

export { paymentsConfig };

export const paymentsModule: ConfiguredModule<typeof paymentsConfig> = {
  name: 'payments',
  tables: ['payments', 'payment_events', 'payment_credits', 'sandbox_invoices'],
  config: paymentsConfig,
  routes: paymentRoutes,
  liveRenderers: { payment: renderPaymentEvent },
  userHistoryChecks: [async (q, userId) => ((await hasPayments(q, userId)) ? 'top-ups' : null)],
  jobs: [
    {
      name: 'payment-reconciliation',
      intervalMs: (ctx) => ctx.config.PAYMENT_RECONCILE_INTERVAL_MS,
      run: (ctx) => reconcile(ctx),
    },
  ],
};
