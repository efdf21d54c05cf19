import { z } from 'zod';
import { boundedText, TEXT_LIMITS as L } from '../limits.ts';

// ---- webhooks ------------------------------------------------------------------------------------

/** At most this many webhook URLs per user. */
export const WEBHOOK_MAX = 3;
export const WEBHOOK_URL_MAX = 2048;
/** Tries per delivery (the first one and the retries), and the wait before each retry, in seconds. */
export const WEBHOOK_RETRY_DELAYS_S = [20, 25, 30, 60, 120, 300, 900] as const;
export const WEBHOOK_MAX_TRIES = WEBHOOK_RETRY_DELAYS_S.length + 1;
export const WEBHOOK_TIMEOUT_MS = 3000;
/**
 * Headers of every webhook POST (format `simdock`). The signature is HMAC-SHA256 of
 * `${timestamp}.${body}`, hex. `eventId` is the event's id, the same in every retry and redelivery.
 */
export const WEBHOOK_HEADERS = {
  timestamp: 'x-simdock-timestamp',
  signature: 'x-simdock-signature',
  event: 'x-simdock-event',
  delivery: 'x-simdock-delivery',
  eventId: 'x-simdock-event-id',
} as const;

/**
 * What a webhook URL can receive, named alike (`<thing>.<what happened>`): the rental's incoming
 * codes (`code.received`) and the messaging events. Each URL chooses its events (all of them by
 * default); `test` goes to every URL.
 */
export const WEBHOOK_EVENTS = [
  'code.received',
  'message.received',
  'message.sent',
  'message.delivered',
  'message.failed',
  'campaign.finished',
] as const;
export const WebhookEventName = z.enum(WEBHOOK_EVENTS);
export type WebhookEventName = z.infer<typeof WebhookEventName>;

/** Earlier names still accepted when a URL chooses its events (stored and answered by the new name). */
export const WEBHOOK_EVENT_ALIASES = { 'sms-incoming': 'code.received' } as const satisfies Record<
  string,
  WebhookEventName
>;
/** An event name as a request may give it: the current name or an earlier one (`sms-incoming`). */
const WebhookEventInput = z
  .enum([
    ...WEBHOOK_EVENTS,
    ...(Object.keys(WEBHOOK_EVENT_ALIASES) as (keyof typeof WEBHOOK_EVENT_ALIASES)[]),
  ])
  .transform(
    (e): WebhookEventName =>
      e in WEBHOOK_EVENT_ALIASES
        ? WEBHOOK_EVENT_ALIASES[e as keyof typeof WEBHOOK_EVENT_ALIASES]
        : (e as WebhookEventName),
  );

/**
 * How a URL's deliveries are written: `simdock` (the events documented here, `X-SimDock-*`
 * headers) or `smsgate` (SMSGate's webhook bodies and signature headers, for tools
 * made for SMSGate that registered through its API).
 */
export const WEBHOOK_FORMATS = ['simdock', 'smsgate'] as const;
export const WebhookFormat = z.enum(WEBHOOK_FORMATS);
export type WebhookFormat = z.infer<typeof WebhookFormat>;

export const Webhook = z.object({
  id: z.string(),
  url: z.string(),
  /** The events this URL receives (at least one). */
  events: z.array(WebhookEventName),
  format: WebhookFormat,
  /**
   * The HMAC key that signs this URL's deliveries (`whsec_…`); null when it was sealed under an
   * earlier APP_SECRET and can no longer be read (deliveries fail: delete the webhook, add it again).
   */
  secret: z.string().nullable(),
  createdAt: z.string(),
});
export type Webhook = z.infer<typeof Webhook>;

export const WebhookListResponse = z.object({
  code: z.literal(1),
  webhooks: z.array(Webhook),
  max: z.number().int(),
});
export type WebhookListResponse = z.infer<typeof WebhookListResponse>;

const eventsField = z
  .array(WebhookEventInput, { error: `Events must be some of: ${WEBHOOK_EVENTS.join(', ')}.` })
  .min(1, 'Choose at least one event.')
  // An event named twice (old and new name) counts once: the server keeps each once.
  .max(WEBHOOK_EVENTS.length * 2);

export const AddWebhookBody = z.object({
  url: boundedText(WEBHOOK_URL_MAX, 'Webhook URL').pipe(z.string().trim().min(1, 'Enter a webhook URL.')),
  /** Absent: every event. */
  events: eventsField.optional(),
});
/** POST /api/user/webhooks/events: which events a URL receives. */
export const SetWebhookEventsBody = z.object({ id: boundedText(L.id, 'Webhook id'), events: eventsField });
export const AddWebhookResponse = z.object({ code: z.literal(1), msg: z.string(), webhook: Webhook });
export const WebhookIdBody = z.object({ id: boundedText(L.id, 'Webhook id') });
/** POST /api/user/webhooks/test: one test event to one URL (id) or to every URL. */
export const TestWebhookBody = z.object({ id: boundedText(L.id, 'Webhook id').optional() });

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export const WebhookDelivery = z.object({
  id: z.string(),
  url: z.string(),
  event: z.string(),
  /** The event's own id, the same in every delivery and retry of it: de-duplicate on it. */
  eventId: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  /** HTTP status of the last try (null: no answer, e.g. a timeout). */
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  deliveredAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const TestWebhookResponse = z.object({
  code: z.literal(1),
  msg: z.string(),
  deliveries: z.array(WebhookDelivery),
});
export type TestWebhookResponse = z.infer<typeof TestWebhookResponse>;

export const WebhookDeliveriesResponse = z.object({
  code: z.literal(1),
  deliveries: z.array(WebhookDelivery),
});
export type WebhookDeliveriesResponse = z.infer<typeof WebhookDeliveriesResponse>;

/** POST /api/user/webhooks/redeliver: sends a logged delivery again now (a new delivery, same event id). */
export const RedeliverWebhookBody = z.object({ id: boundedText(L.id, 'Delivery id') });

/** The JSON body of an incoming-code webhook (`event: "code.received"`) and of a test (`"test"`). */
export const WebhookEvent = z.object({
  event: z.enum(['code.received', 'test']),
  /** The order id as a number: the SMS-Activate activation id. */
  activationId: z.number().int(),
  orderId: z.string(),
  service: z.string(),
  phone: z.string(),
  code: z.string().nullable(),
  text: z.string(),
  receivedAt: z.string(),
});
export type WebhookEvent = z.infer<typeof WebhookEvent>;

/**
 * The body of a messaging event (`message.*`, `campaign.finished`). `id` is the event's id: the same
 * in every retry and redelivery (de-duplicate on it). Per message, events are delivered in order
 * (`message.sent` before `message.delivered` or `message.failed`).
 */
export const MessageEventBody = z.object({
  id: z.string(),
  event: WebhookEventName.exclude(['code.received']),
  createdAt: z.string(),
  data: z.object({
    /** The message, `o<n>` (sent) or `i<n>` (received), as in the chat and the messaging API (absent for `campaign.finished`). */
    messageId: z.string().optional(),
    campaignId: z.string().nullable().optional(),
    /** The caller's own reference of the send (its Idempotency-Key or SMSGate message id), if any. */
    campaignRef: z.string().nullable().optional(),
    conversationId: z.string().nullable().optional(),
    direction: z.enum(['in', 'out']).optional(),
    /** The other party's number. */
    phoneNumber: z.string().optional(),
    /** Our SIM's number, when known. */
    simNumber: z.string().nullable().optional(),
    text: z.string().optional(),
    status: z.string().optional(),
    /** A failure's reason, for people. */
    reason: z.string().nullable().optional(),
    /** `campaign.finished`: its counts. */
    delivered: z.number().int().optional(),
    failed: z.number().int().optional(),
    cancelled: z.number().int().optional(),
  }),
});
export type MessageEventBody = z.infer<typeof MessageEventBody>;
