import type { ConfiguredModule } from '../../module.ts';
import { webhooksConfig } from './webhooks.config.ts';
import { webhookRoutes } from './webhooks.routes.ts';
import { deliverDue, queueCodeDeliveries, queueMessageEvents } from './webhooks.service.ts';

// Webhooks: incoming codes and messaging events pushed to the user's URLs (each with its events and
// format), signed, in order per message, retried, logged, redelivered on request.
export { pendingDeliveryCount } from './webhooks.queries.ts';
export {
  addWebhookFor,
  deliverDue,
  listWebhooksOf,
  removeWebhookOf,
} from './webhooks.service.ts';

export { webhooksConfig };

export const webhooksModule: ConfiguredModule<typeof webhooksConfig> = {
  name: 'webhooks',
  tables: ['webhooks', 'webhook_deliveries', 'webhook_attempts'],
  config: webhooksConfig,
  routes: webhookRoutes,
  codeListeners: [queueCodeDeliveries],
  messageEventListeners: [queueMessageEvents],
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
