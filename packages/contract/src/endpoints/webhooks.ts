import { Empty, Ok } from '../api/common.ts';
import {
  AddWebhookBody,
  AddWebhookResponse,
  RedeliverWebhookBody,
  SetWebhookEventsBody,
  TestWebhookBody,
  TestWebhookResponse,
  WebhookDeliveriesResponse,
  WebhookIdBody,
  WebhookListResponse,
} from '../api/webhooks.ts';
import { endpoint } from '../endpoint.ts';

/** What every delivery looks like, and one example body per event (the add endpoint's description). */
const DELIVERY_DOC = [
  "Each URL receives the events it chose (`events`; all of them when absent): `code.received` (a rental code; its earlier name `sms-incoming` is still accepted in `events`), `message.sent` (a device accepted a message), `message.delivered`, `message.failed` (final, after the retries; a cancelled message is not failed), `message.received` (a reply in a conversation), `campaign.finished` (once, when a send's last message ended). A test event goes to every URL.",
  'Every POST is JSON with headers `X-SimDock-Timestamp`, `X-SimDock-Signature: sha256=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`, `X-SimDock-Event`, `X-SimDock-Event-Id` and `X-SimDock-Delivery`. Answer with any 2xx within 3 s; otherwise it is retried 7 times (20 s … 15 min apart).',
  'The event id (`X-SimDock-Event-Id`, and `id` in message bodies) is the same in every retry and redelivery: de-duplicate on it. The events of one message reach a URL in order (`message.sent` before `message.delivered`/`message.failed`): a later one waits while an earlier one is retried, and goes once it was delivered or given up.',
  'Bodies: `code.received`: `{"event":"code.received","activationId":42,"orderId":"42","service":"tg","phone":"15550001111","code":"31415","text":"Telegram code 31415","receivedAt":"2026-05-01T10:00:00.000Z"}`.',
  '`message.sent`: `{"id":"evt_3f1c…","event":"message.sent","createdAt":"2026-05-01T10:00:01.000Z","data":{"messageId":"o981","campaignId":"57","campaignRef":null,"conversationId":"310","direction":"out","phoneNumber":"15550002222","simNumber":null,"text":"Spring sale","status":"sent","reason":null}}`.',
  '`message.delivered`: the same `data` with `"status":"delivered"`. `message.failed`: `"status":"failed","reason":"6 Timeout; 21 Short message transfer rejected"`.',
  '`message.received`: `{"id":"evt_…","event":"message.received","createdAt":"…","data":{"messageId":"i77","campaignId":null,"campaignRef":null,"conversationId":"310","direction":"in","phoneNumber":"15550002222","simNumber":"15559990001","text":"Who is this?","status":"received","reason":null}}`.',
  '`campaign.finished`: `{"id":"evt_…","event":"campaign.finished","createdAt":"…","data":{"campaignId":"57","campaignRef":"order-77","delivered":98,"failed":1,"cancelled":1}}`. `campaignRef` is the reference the send was made with (Idempotency-Key), or null.',
].join('\n\n');

/** The API Key page's webhooks: URLs that receive incoming codes and messaging events, signed, and their delivery log. */
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
    reauth: true,
    path: '/api/user/webhooks/add',
    access: 'user',
    tag: 'api key',
    summary: 'Add a webhook URL (at most 3)',
    description: DELIVERY_DOC,
    body: AddWebhookBody,
    response: { 200: AddWebhookResponse },
  }),
  events: endpoint({
    method: 'POST',
    reauth: true,
    path: '/api/user/webhooks/events',
    access: 'user',
    tag: 'api key',
    summary: 'Choose the events a webhook URL receives',
    description:
      "At least one of `code.received` (or its earlier name `sms-incoming`), `message.received`, `message.sent`, `message.delivered`, `message.failed`, `campaign.finished` (a URL registered in SMSGate's format takes only the `message.*` events). Another user's URL: 404.",
    body: SetWebhookEventsBody,
    response: { 200: AddWebhookResponse },
  }),
  /** Sends a logged delivery again now (the replay button). */
  redeliver: endpoint({
    method: 'POST',
    path: '/api/user/webhooks/redeliver',
    access: 'user',
    tag: 'api key',
    summary: 'Send a logged delivery again now (same event id)',
    description:
      "One try now, logged as a new delivery with the same event id and body (the receiver's de-duplication sees the same event); not retried. Another user's delivery, or one whose URL was deleted: 404.",
    body: RedeliverWebhookBody,
    response: { 200: TestWebhookResponse },
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
