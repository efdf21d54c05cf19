import type { ModuleDescriptor } from '../../module.ts';
import { webhookRoutes } from './webhooks.routes.ts';
import { deliverDue, queueCodeDeliveries } from './webhooks.service.ts';

export { isPrivateAddress } from './url-safety.ts';
// Webhooks: incoming codes pushed to the user's URLs, signed, retried, logged.
export { pendingDeliveryCount } from './webhooks.queries.ts';
export { deliverDue, sign } from './webhooks.service.ts';

export const webhooksModule: ModuleDescriptor = {
  name: 'webhooks',
  tables: ['webhooks', 'webhook_deliveries', 'webhook_attempts'],
  routes: webhookRoutes,
  codeListeners: [queueCodeDeliveries],
  jobs: [
    {
      name: 'webhook-delivery',
      intervalMs: (ctx) => ctx.config.WEBHOOK_INTERVAL_MS,
      run: async (ctx) => {
        while ((await deliverDue(ctx)) >= 20) {
          // a full batch: more may be due
        }
      },
    },
  ],
};
