import { z } from 'zod';
import { boundedText, TEXT_LIMITS as L } from '../limits.ts';
import { OrderStatus } from './orders.ts';

// ---- the API key page (signed in with the session token) ---------------------------------------

/** POST /api/user/apikey: the caller's key, or null ('No Apikey'). */
export const ApiKeyResponse = z.object({ code: z.literal(1), apiKey: z.string().nullable() });
export type ApiKeyResponse = z.infer<typeof ApiKeyResponse>;

/** POST /api/user/reset-key: a new key; the old one stops working at once. */
export const ResetKeyResponse = z.object({ code: z.literal(1), msg: z.string(), apiKey: z.string() });
export type ResetKeyResponse = z.infer<typeof ResetKeyResponse>;

/** Keys look like `sd_` + 43 base64url characters (256 random bits). */
export const API_KEY_PATTERN = /^sd_[A-Za-z0-9_-]{43}$/;

// ---- webhooks ------------------------------------------------------------------------------------

/** At most this many webhook URLs per user. */
export const WEBHOOK_MAX = 3;
export const WEBHOOK_URL_MAX = 2048;
/** Tries per delivery (the first one and the retries), and the wait before each retry, in seconds. */
export const WEBHOOK_RETRY_DELAYS_S = [20, 25, 30, 60, 120, 300, 900] as const;
export const WEBHOOK_MAX_TRIES = WEBHOOK_RETRY_DELAYS_S.length + 1;
export const WEBHOOK_TIMEOUT_MS = 3000;
/** Headers of every webhook POST. The signature is HMAC-SHA256 of `${timestamp}.${body}`, hex. */
export const WEBHOOK_HEADERS = {
  timestamp: 'x-simdock-timestamp',
  signature: 'x-simdock-signature',
  event: 'x-simdock-event',
  delivery: 'x-simdock-delivery',
} as const;

export const Webhook = z.object({
  id: z.string(),
  url: z.string(),
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

export const AddWebhookBody = z.object({
  url: boundedText(WEBHOOK_URL_MAX, 'Webhook URL').pipe(z.string().trim().min(1, 'Enter a webhook URL.')),
});
export const AddWebhookResponse = z.object({ code: z.literal(1), msg: z.string(), webhook: Webhook });
export const WebhookIdBody = z.object({ id: boundedText(L.id, 'Webhook id') });
/** POST /api/user/webhooks/test: one test event to one URL (id) or to every URL. */
export const TestWebhookBody = z.object({ id: boundedText(L.id, 'Webhook id').optional() });

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export const WebhookDelivery = z.object({
  id: z.string(),
  url: z.string(),
  event: z.string(),
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

/** The JSON body of an incoming-code webhook (`event: "sms-incoming"`) and of a test (`"test"`). */
export const WebhookEvent = z.object({
  event: z.enum(['sms-incoming', 'test']),
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

// ---- the REST API for programs: /api/v1 with `Authorization: Bearer <api key>` -------------------

export const ApiService = z.object({
  code: z.string(),
  name: z.string(),
  description: z.string(),
  /** USD per rental. */
  price: z.number(),
  /** Numbers that can be rented right now. */
  available: z.number().int(),
  rentTimeMinutes: z.number().int(),
  isRepeatable: z.boolean(),
});
export type ApiService = z.infer<typeof ApiService>;
export const ApiServicesResponse = z.object({ services: z.array(ApiService) });

export const ApiCreateOrderBody = z.object({
  service: boundedText(L.serviceCode, 'Service').pipe(z.string().min(1, 'Choose a service.')),
  /** Refuse the rent when the price is above this (USD). */
  maxPrice: z.number().positive().max(1e9).optional(),
});

export const ApiOrderCode = z.object({
  code: z.string().nullable(),
  text: z.string(),
  receivedAt: z.string(),
});

export const ApiOrder = z.object({
  id: z.string(),
  /** The same id as a number (the handler's activation id). */
  activationId: z.number().int(),
  service: z.string(),
  serviceName: z.string(),
  /** Digits with the country code, no `+`. */
  phoneNumber: z.string(),
  status: OrderStatus,
  /** The last code (null until one arrives). */
  code: z.string().nullable(),
  smsText: z.string().nullable(),
  codes: z.array(ApiOrderCode),
  price: z.number(),
  createdAt: z.string(),
  expiresAt: z.string(),
  cancelableAt: z.string(),
  /** The service sends more than one code: POST …/another-sms asks for the next. */
  canGetAnotherSms: z.boolean(),
  /** Another SMS was asked for and has not arrived yet. */
  waitingForAnotherSms: z.boolean(),
  finished: z.boolean(),
});
export type ApiOrder = z.infer<typeof ApiOrder>;
export const ApiOrderResponse = z.object({ order: ApiOrder });

export const ApiOrderParams = z.object({ id: boundedText(L.orderId, 'Order id') });
export const ApiListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export const ApiOrdersQuery = ApiListQuery.extend({ status: OrderStatus.optional() });
export const ApiOrdersResponse = z.object({ orders: z.array(ApiOrder), total: z.number().int() });

export const ApiBalanceResponse = z.object({ balance: z.number(), currency: z.literal('USD') });

export const ApiLedgerEntry = z.object({
  id: z.string(),
  /** Signed USD: a charge is negative, a refund or top-up positive. */
  amount: z.number(),
  kind: z.string(),
  ref: z.string().nullable(),
  createdAt: z.string(),
});
export type ApiLedgerEntry = z.infer<typeof ApiLedgerEntry>;
export const ApiLedgerResponse = z.object({
  entries: z.array(ApiLedgerEntry),
  total: z.number().int(),
  balance: z.number(),
});
