import { z } from 'zod';
import { ALLOWED_IPS_MAX, allowedIpsProblem, checkAllowedIps, IP_RULE_MAX } from '../cidr.ts';
import { boundedText, TEXT_LIMITS as L } from '../limits.ts';
import { CountryCode, OperatorName } from './catalogue.ts';
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

// ---- keys for programs: several named keys, each with scopes, allowed addresses and an expiry ----

/**
 * What a key may call: `rental` (the rental API: /api/v1 and the SMS-Activate handler),
 * `messaging:send` (send messages), `messaging:read` (read messages and their status). An endpoint
 * declares the scope it needs (`scope` in its declaration); a key without it is refused with 403.
 */
export const API_KEY_SCOPES = ['rental', 'messaging:send', 'messaging:read'] as const;
export const ApiKeyScope = z.enum(API_KEY_SCOPES);
export type ApiKeyScope = z.infer<typeof ApiKeyScope>;
/** At most this many keys per user, the default key included. */
export const API_KEYS_MAX = 10;
export const API_KEY_NAME_MAX = 60;
/** How much of a key is kept and shown to recognise it (`sd_` and 7 characters). */
export const API_KEY_PREFIX_LENGTH = 10;
/** The default key's name (the one the API Key page's spec calls shows and resets). */
export const DEFAULT_API_KEY_NAME = 'Default';

/** One key as its owner's list shows it: never the key itself. */
export const ApiKeyInfo = z.object({
  id: z.string(),
  name: z.string(),
  /** The first characters of the key, to recognise it (null: unreadable, see `apiKey` reset). */
  prefix: z.string().nullable(),
  scopes: z.array(ApiKeyScope),
  /** Addresses and CIDR ranges the key may be used from, in normal form; empty: any address. */
  allowedIps: z.array(z.string()),
  /** ISO time after which the key is refused (401 `api_key_expired`); null: never. */
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
  /** The last call made with it, to the minute; null: never used. */
  lastUsedAt: z.string().nullable(),
  /** The key of the spec's calls (`/api/user/apikey`, `reset-key`, `delete-key`). */
  isDefault: z.boolean(),
  expired: z.boolean(),
});
export type ApiKeyInfo = z.infer<typeof ApiKeyInfo>;

/** POST /api/user/apikeys: the caller's keys, default first, then newest first. */
export const ApiKeyListResponse = z.object({
  code: z.literal(1),
  keys: z.array(ApiKeyInfo),
  max: z.number().int(),
});
export type ApiKeyListResponse = z.infer<typeof ApiKeyListResponse>;

/** POST /api/user/apikeys/create. */
export const CreateApiKeyBody = z.object({
  name: boundedText(API_KEY_NAME_MAX, 'Key name').pipe(z.string().trim().min(1, 'Enter a name for the key.')),
  scopes: z
    .array(z.enum(API_KEY_SCOPES, { error: `Scopes must be some of: ${API_KEY_SCOPES.join(', ')}.` }))
    .min(1, 'Choose at least one scope.')
    .max(API_KEY_SCOPES.length),
  /** IPv4/IPv6 addresses or CIDR ranges (see cidr.ts); absent or empty: any address. */
  allowedIps: z
    .array(boundedText(IP_RULE_MAX, 'Allowed address'))
    .max(ALLOWED_IPS_MAX, `At most ${ALLOWED_IPS_MAX} allowed addresses.`)
    .superRefine((list, ctx) => {
      const check = checkAllowedIps(list);
      if (!check.ok) ctx.addIssue({ code: 'custom', message: allowedIpsProblem(check) });
    })
    .optional(),
  /** ISO time with a zone, in the future; absent: the key never expires. */
  expiresAt: z.iso
    .datetime({
      offset: true,
      error: 'expiresAt must be an ISO 8601 time with a zone, e.g. 2026-12-01T00:00:00Z.',
    })
    .optional(),
});
export type CreateApiKeyBody = z.input<typeof CreateApiKeyBody>;

/** The new key in clear, this once (only its hash is kept), and the key as the list shows it. */
export const CreateApiKeyResponse = z.object({
  code: z.literal(1),
  msg: z.string(),
  apiKey: z.string(),
  key: ApiKeyInfo,
});
export type CreateApiKeyResponse = z.infer<typeof CreateApiKeyResponse>;

export const ApiKeyIdBody = z.object({ id: boundedText(L.id, 'Key id') });

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
  /** Set when asked for one country: `price` and `available` are that country's. */
  country: z.string().optional(),
});
export type ApiService = z.infer<typeof ApiService>;
/** GET /api/v1/services?country=DE&operator=Vodafone: one country's (and operator's) prices and stock. */
export const ApiServicesQuery = z
  .object({ country: CountryCode.optional(), operator: OperatorName.optional() })
  .optional();
export const ApiServicesResponse = z.object({ services: z.array(ApiService) });

export const ApiCreateOrderBody = z.object({
  service: boundedText(L.serviceCode, 'Service').pipe(z.string().min(1, 'Choose a service.')),
  /** Refuse the rent when the price is above this (USD). */
  maxPrice: z.number().positive().max(1e9).optional(),
  /** Only a number of this country (ISO 3166-1 alpha-2) and operator; the price is the country's. */
  country: CountryCode.optional(),
  operator: OperatorName.optional(),
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
/** `totalEstimated`: a long list's total is the database's estimate (docs/architecture.md#paged-lists). */
const totalEstimated = z.boolean().optional();
export const ApiOrdersResponse = z.object({
  orders: z.array(ApiOrder),
  total: z.number().int(),
  totalEstimated,
});

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
  totalEstimated,
  balance: z.number(),
});
