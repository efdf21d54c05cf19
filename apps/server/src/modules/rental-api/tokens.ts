import type { ErrorCode } from '@simdock/contract';

/**
 * The one map from domain error codes to SMS-Activate error tokens (docs/api.md). Every
 * code has a token (the type makes a new code fail to compile until it is mapped); nothing reads an
 * error's message to choose one.
 */
export const HANDLER_TOKENS: Record<ErrorCode, string> = {
  // "a parameter has an invalid value" is ERROR_SQL in SA's own dictionary
  bad_input: 'ERROR_SQL',
  unauthorized: 'BAD_KEY',
  forbidden: 'BAD_KEY',
  not_found: 'NO_ACTIVATION',
  conflict: 'ERROR_SQL',
  too_many_requests: 'RATE_LIMIT',
  unavailable: 'ERROR_SQL',
  internal: 'ERROR_SQL',
  body_too_large: 'ERROR_SQL',
  unsupported_media_type: 'ERROR_SQL',
  service_not_found: 'BAD_SERVICE',
  service_disabled: 'NO_NUMBERS',
  no_numbers: 'NO_NUMBERS',
  balance_too_low: 'NO_BALANCE',
  order_not_found: 'NO_ACTIVATION',
  cancel_too_early: 'EARLY_CANCEL_DENIED',
  order_has_code: 'BAD_STATUS',
  order_already_cancelled: 'BAD_STATUS',
  order_no_code: 'BAD_STATUS',
  order_not_repeatable: 'BAD_STATUS',
  order_closed: 'BAD_STATUS',
  // The token carries the current price: WRONG_MAX_PRICE:<price> (added by the handler).
  price_above_max: 'WRONG_MAX_PRICE',
  user_not_found: 'BAD_KEY',
  username_taken: 'ERROR_SQL',
  email_taken: 'ERROR_SQL',
  account_inactive: 'ACCOUNT_INACTIVE',
  last_admin: 'ERROR_SQL',
  self_protected: 'ERROR_SQL',
  gateway_not_found: 'ERROR_SQL',
  gateway_busy: 'ERROR_SQL',
  gateway_unreachable: 'ERROR_SQL',
  too_many_open_invoices: 'ERROR_SQL',
  payment_provider_unavailable: 'ERROR_SQL',
  payment_provider_refused: 'ERROR_SQL',
  // Bulk SMS codes never come out of a rental call; mapped for completeness.
  sending_disabled: 'ERROR_SQL',
  daily_limit_reached: 'ERROR_SQL',
  all_opted_out: 'ERROR_SQL',
  campaign_not_found: 'ERROR_SQL',
  conversation_not_found: 'ERROR_SQL',
  sim_unavailable: 'ERROR_SQL',
  opted_out: 'ERROR_SQL',
  media_not_found: 'ERROR_SQL',
  file_required: 'ERROR_SQL',
  file_type_not_allowed: 'ERROR_SQL',
  file_too_large: 'ERROR_SQL',
  api_key_missing: 'NO_KEY',
  api_key_invalid: 'BAD_KEY',
  unknown_action: 'BAD_ACTION',
  invalid_status: 'BAD_STATUS',
  webhook_limit: 'ERROR_SQL',
  webhook_url_refused: 'ERROR_SQL',
  webhook_not_found: 'ERROR_SQL',
};
