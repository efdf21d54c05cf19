import {
  AddWebhookBody,
  AddWebhookResponse,
  TestWebhookBody,
  TestWebhookResponse,
  WebhookDeliveriesResponse,
  WebhookIdBody,
  WebhookListResponse,
} from '../api/apikey.ts';
import { Empty, Ok } from '../api/common.ts';
import { endpoint } from '../endpoint.ts';

/** The API Key page's webhooks: URLs that receive each incoming code, signed, and their delivery log. */
export const webhooks = {
  list: endpoint({
    method: 'POST',
    path: '/api/user/webhooks',
    access: 'user',
    tag: 'api key',
    summary: 'Your webhook URLs',
    body: Empty,
    response: { 200: WebhookListResponse },
  }),
  add: endpoint({
    method: 'POST',
    path: '/api/user/webhooks/add',
    access: 'user',
    tag: 'api key',
    summary: 'Add a webhook URL (at most 3)',
    description:
      'Each incoming code is POSTed as JSON `{event:"sms-incoming", activationId, orderId, service, phone, code, text, receivedAt}` with headers `X-SimDock-Timestamp`, `X-SimDock-Signature: sha256=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`, `X-SimDock-Event`, `X-SimDock-Delivery`. Answer with any 2xx within 3 s; otherwise it is retried 7 times (20 s … 15 min apart).',
    body: AddWebhookBody,
    response: { 200: AddWebhookResponse },
  }),
  delete: endpoint({
    method: 'POST',
    path: '/api/user/webhooks/delete',
    access: 'user',
    tag: 'api key',
    summary: 'Delete a webhook URL',
    body: WebhookIdBody,
    response: { 200: Ok },
  }),
  /** One test event to one URL (`id`) or to every URL. */
  test: endpoint({
    method: 'POST',
    path: '/api/user/webhooks/test',
    access: 'user',
    tag: 'api key',
    summary: 'Send a test event now (one try per URL)',
    body: TestWebhookBody,
    response: { 200: TestWebhookResponse },
  }),
  deliveries: endpoint({
    method: 'POST',
    path: '/api/user/webhooks/deliveries',
    access: 'user',
    tag: 'api key',
    summary: 'The delivery log (last 50)',
    body: Empty,
    response: { 200: WebhookDeliveriesResponse },
  }),
};
