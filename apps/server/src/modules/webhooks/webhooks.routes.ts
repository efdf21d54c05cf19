import {
  AddWebhookBody,
  AddWebhookResponse,
  Empty,
  Ok,
  TestWebhookBody,
  TestWebhookResponse,
  WEBHOOK_MAX,
  WebhookDeliveriesResponse,
  WebhookIdBody,
  WebhookListResponse,
} from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { access, currentUser } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import {
  addWebhook,
  listWebhooks,
  recentDeliveries,
  removeWebhook,
  sendTestEvent,
} from './webhooks.service.ts';

export function webhookRoutes(app: App, ctx: AppContext) {
  const tags = ['api key'];

  app.post(
    '/api/user/webhooks',
    {
      ...access(ctx, 'user'),
      schema: { tags, summary: 'Your webhook URLs', body: Empty, response: { 200: WebhookListResponse } },
    },
    async (req) => ({
      code: 1 as const,
      webhooks: await listWebhooks(ctx, currentUser(req).id),
      max: WEBHOOK_MAX,
    }),
  );

  app.post(
    '/api/user/webhooks/add',
    {
      ...access(ctx, 'user'),
      schema: {
        tags,
        summary: 'Add a webhook URL (at most 3)',
        description:
          'Each incoming code is POSTed as JSON `{event:"sms-incoming", activationId, orderId, service, phone, code, text, receivedAt}` with headers `X-SimDock-Timestamp`, `X-SimDock-Signature: sha256=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`, `X-SimDock-Event`, `X-SimDock-Delivery`. Answer with any 2xx within 3 s; otherwise it is retried 7 times (20 s … 15 min apart).',
        body: AddWebhookBody,
        response: { 200: AddWebhookResponse },
      },
    },
    async (req) => ({
      code: 1 as const,
      msg: 'Webhook added.',
      webhook: await addWebhook(ctx, currentUser(req).id, req.body.url),
    }),
  );

  app.post(
    '/api/user/webhooks/delete',
    {
      ...access(ctx, 'user'),
      schema: { tags, summary: 'Delete a webhook URL', body: WebhookIdBody, response: { 200: Ok } },
    },
    async (req) => {
      await removeWebhook(ctx, currentUser(req).id, req.body.id);
      return { code: 1 as const, msg: 'Webhook deleted.' };
    },
  );

  app.post(
    '/api/user/webhooks/test',
    {
      ...access(ctx, 'user'),
      schema: {
        tags,
        summary: 'Send a test event now (one try per URL)',
        body: TestWebhookBody,
        response: { 200: TestWebhookResponse },
      },
    },
    async (req) => {
      const deliveries = await sendTestEvent(ctx, currentUser(req).id, req.body.id);
      const ok = deliveries.filter((d) => d.status === 'delivered').length;
      return {
        code: 1 as const,
        msg: `Test event delivered to ${ok} of ${deliveries.length} URL${deliveries.length === 1 ? '' : 's'}.`,
        deliveries,
      };
    },
  );

  app.post(
    '/api/user/webhooks/deliveries',
    {
      ...access(ctx, 'user'),
      schema: {
        tags,
        summary: 'The delivery log (last 50)',
        body: Empty,
        response: { 200: WebhookDeliveriesResponse },
      },
    },
    async (req) => ({ code: 1 as const, deliveries: await recentDeliveries(ctx, currentUser(req).id) }),
  );
}
