import { z } from 'zod';

/**
 * Stable error codes: every refusal carries one in `error`. Distinct causes have distinct codes so
 * clients (the web app, the rental API's SMS-Activate tokens) can map them without reading `msg`.
 */
export const ERROR_CODES = [
  // generic
  'bad_input',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'too_many_requests',
  'unavailable',
  'internal',
  /** The request body is larger than the server accepts. */
  'body_too_large',
  /** The request's Content-Type is not one the route reads. */
  'unsupported_media_type',
  // rental
  'service_not_found',
  'service_disabled',
  'no_numbers',
  'balance_too_low',
  'order_not_found',
  'cancel_too_early',
  'order_has_code',
  'order_already_cancelled',
  /** Finish or "another SMS" before any code arrived. */
  'order_no_code',
  /** "Another SMS" on a service that takes one code only. */
  'order_not_repeatable',
  /** "Another SMS" after the order was finished or its window ended. */
  'order_closed',
  /** The caller's price ceiling (maxPrice) is below the service's price. */
  'price_above_max',
  // API keys and the rental API for programs
  'api_key_missing',
  'api_key_invalid',
  /** The key's expiry time has passed. */
  'api_key_expired',
  /** The endpoint needs a scope the key does not have. */
  'api_key_scope_missing',
  /** The caller's address is outside the key's allowed addresses. */
  'api_key_ip_refused',
  /** The user has the most keys allowed. */
  'api_key_limit',
  /** An SMS-Activate handler action we do not offer. */
  'unknown_action',
  /** An SMS-Activate setStatus value we do not know. */
  'invalid_status',
  // webhooks
  'webhook_limit',
  'webhook_url_refused',
  'webhook_not_found',
  // accounts
  'user_not_found',
  'username_taken',
  'email_taken',
  'account_inactive',
  'last_admin',
  'self_protected',
  // gateways
  'gateway_not_found',
  'gateway_busy',
  'gateway_unreachable',
  // payments
  'too_many_open_invoices',
  'payment_provider_unavailable',
  'payment_provider_refused',
  /** No such top-up among the caller's own. */
  'payment_not_found',
  /** Only a PENDING invoice (nothing paid yet) can be cancelled. */
  'payment_not_cancellable',
  // messaging
  'sending_disabled',
  'daily_limit_reached',
  'all_opted_out',
  'campaign_not_found',
  // the messaging API
  'message_not_found',
  /** Only a queued message (no device has it yet) can be cancelled. */
  'message_not_cancellable',
  /** A simId that is not a SIM the caller may send from. */
  'sim_not_found',
  // chat
  'conversation_not_found',
  'sim_unavailable',
  'mms_not_supported',
  'opted_out',
  'country_not_enabled',
  'media_not_found',
  'file_required',
  'file_type_not_allowed',
  'file_too_large',
  // the second factor
  /** An admin must enrol a second factor before anything else (REQUIRE_ADMIN_2FA). */
  'second_factor_required',
  /** The code (or recovery code) is not correct. */
  'second_factor_invalid',
  /** The sign-in challenge is unknown, expired, used, or void after too many wrong codes. */
  'second_factor_challenge_invalid',
  /** Enrolment asked while the factor is on, or a code asked while it is off. */
  'second_factor_state',
  // rental
  /** The user cancelled RENTAL_CANCELS_PER_HOUR rentals in the last hour (429 with Retry-After). */
  'cancel_limit_reached',
  /** The call needs a fresh re-authentication (`POST /api/Auth/reauth`, then the `X-Reauth` header). */
  'reauth_required',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * The one mapper from error codes to HTTP statuses: the server answers each code with its status
 * (apps/server/src/http/errors.ts), and each endpoint declaration's error answers are grouped by it.
 */
export const ERROR_STATUS: Record<ErrorCode, number> = {
  bad_input: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_many_requests: 429,
  unavailable: 503,
  internal: 500,
  body_too_large: 413,
  unsupported_media_type: 415,
  service_not_found: 404,
  service_disabled: 409,
  no_numbers: 409,
  balance_too_low: 402,
  order_not_found: 404,
  cancel_too_early: 409,
  order_has_code: 409,
  order_already_cancelled: 409,
  order_no_code: 409,
  order_not_repeatable: 409,
  order_closed: 409,
  price_above_max: 409,
  api_key_missing: 401,
  api_key_invalid: 401,
  api_key_expired: 401,
  api_key_scope_missing: 403,
  api_key_ip_refused: 403,
  api_key_limit: 409,
  unknown_action: 400,
  invalid_status: 400,
  webhook_limit: 409,
  webhook_url_refused: 400,
  webhook_not_found: 404,
  user_not_found: 404,
  username_taken: 409,
  email_taken: 409,
  account_inactive: 401,
  last_admin: 409,
  self_protected: 409,
  gateway_not_found: 404,
  gateway_busy: 409,
  gateway_unreachable: 503,
  too_many_open_invoices: 409,
  payment_provider_unavailable: 503,
  // Our rules accepted the amount, the provider did not (e.g. below its coin minimum).
  payment_provider_refused: 422,
  payment_not_found: 404,
  payment_not_cancellable: 409,
  sending_disabled: 409,
  daily_limit_reached: 429,
  all_opted_out: 409,
  campaign_not_found: 404,
  message_not_found: 404,
  message_not_cancellable: 409,
  sim_not_found: 404,
  conversation_not_found: 404,
  sim_unavailable: 409,
  // A picture to a conversation whose SIM is in a phone: never possible there, whatever the retry.
  mms_not_supported: 422,
  opted_out: 409,
  // A destination whose country the operator does not send to.
  country_not_enabled: 409,
  media_not_found: 404,
  file_required: 400,
  file_type_not_allowed: 415,
  file_too_large: 413,
  second_factor_required: 403,
  second_factor_invalid: 400,
  second_factor_challenge_invalid: 401,
  second_factor_state: 409,
  cancel_limit_reached: 429,
  reauth_required: 403,
};

/** Every failure has this body, with a fitting HTTP status. `field` names the bad input. */
export const ErrorBody = z.object({
  code: z.literal(0),
  /** One of ERROR_CODES; kept open so an older client still reads a newer server's errors. */
  error: z.string(),
  msg: z.string(),
  field: z.string().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** The spec's `{code: 1, msg}` success convention. */
export const Ok = z.object({ code: z.literal(1), msg: z.string() });
export type Ok = z.infer<typeof Ok>;

export const Empty = z.object({}).optional();

export const AppMeta = z.object({ demo: z.boolean(), serverTime: z.string() });
export type AppMeta = z.infer<typeof AppMeta>;
