import { endpoints, WEBHOOK_MAX } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { currentUser, route } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import {
  addWebhook,
  listWebhooks,
  recentDeliveries,
  redeliver,
  removeWebhook,
  sendTestEvent,
  setEvents,
} from './webhooks.service.ts';

export function webhookRoutes(app: App, ctx: AppContext) {
  const { webhooks } = endpoints;

  route(app, ctx, webhooks.list, async (req) => ({
    code: 1 as const,
    webhooks: await listWebhooks(ctx, currentUser(req).id),
    max: WEBHOOK_MAX,
  }));

  route(app, ctx, webhooks.add, async (req) => ({
    code: 1 as const,
    msg: 'Webhook added.',
    webhook: await addWebhook(ctx, currentUser(req).id, req.body.url, req.body.events),
  }));

  route(app, ctx, webhooks.events, async (req) => ({
    code: 1 as const,
    msg: 'Webhook events saved.',
    webhook: await setEvents(ctx, currentUser(req).id, req.body.id, req.body.events),
  }));

  route(app, ctx, webhooks.redeliver, async (req) => {
    const deliveries = await redeliver(ctx, currentUser(req).id, req.body.id);
    const d = deliveries[0];
    return {
      code: 1 as const,
      msg: d?.status === 'delivered' ? 'Delivered again.' : `Not delivered: ${d?.lastError ?? 'no answer'}.`,
      deliveries,
    };
  });

  route(app, ctx, webhooks.delete, async (req) => {
    await removeWebhook(ctx, currentUser(req).id, req.body.id);
    return { code: 1 as const, msg: 'Webhook deleted.' };
  });

  route(app, ctx, webhooks.test, async (req) => {
    const deliveries = await sendTestEvent(ctx, currentUser(req).id, req.body.id);
    const ok = deliveries.filter((d) => d.status === 'delivered').length;
    return {
      code: 1 as const,
      msg: `Test event delivered to ${ok} of ${deliveries.length} URL${deliveries.length === 1 ? '' : 's'}.`,
      deliveries,
    };
  });

  route(app, ctx, webhooks.deliveries, async (req) => ({
    code: 1 as const,
    deliveries: await recentDeliveries(ctx, currentUser(req).id),
  }));
}
