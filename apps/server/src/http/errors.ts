import { type ErrorBody, type ErrorCode, ruleMessages } from '@simdock/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDbInputError, isDbSchemaMissing, isDbUnavailable } from '../db/errors.ts';
import { badInput, DomainError, tooManyRequests, unavailable } from '../errors.ts';

const RULE_TEXTS: ReadonlySet<string> = new Set(Object.values(ruleMessages));
/** The contract's own messages (rule texts, and sentences ending in a period) are shown as they are. */
const isContractMessage = (msg: string) => RULE_TEXTS.has(msg) || msg.endsWith('.');

/** The one mapper from domain error codes to HTTP statuses. */
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

/** Codes for the framework's own 4xx answers; anything else it refuses is bad input. */
const FRAMEWORK_CODES: Partial<Record<number, ErrorCode>> = {
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  413: 'body_too_large',
  415: 'unsupported_media_type',
};

export function errorBody(err: DomainError): ErrorBody {
  return { code: 0, error: err.code, msg: err.message, ...(err.field ? { field: err.field } : {}) };
}

export function statusOf(err: DomainError): number {
  return ERROR_STATUS[err.code];
}

/**
 * `schemaBehind`: whether the database lacks migrations (or cannot be asked), so an undefined
 * table or column means "not ready" (503) rather than a bug (500).
 */
export function registerErrorHandling(
  app: FastifyInstance,
  schemaBehind: () => Promise<boolean> = async () => false,
): void {
  app.setErrorHandler(async (err: FastifyError, req, reply) => {
    if (err instanceof DomainError) {
      if (err.retryAfterSeconds !== undefined) reply.header('retry-after', err.retryAfterSeconds);
      return reply.status(statusOf(err)).send(errorBody(err));
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const issue = err.validation[0];
      const field = issue?.instancePath.replace(/^\//, '').replace(/\//g, '.') || undefined;
      const text = issue?.message ?? 'is invalid';
      const msg = isContractMessage(text) ? text : field ? `${field}: ${text}` : text;
      return reply.status(400).send(errorBody(badInput(msg, field)));
    }
    if (err.statusCode === 429) {
      return reply
        .status(429)
        .send(errorBody(tooManyRequests('Too many requests. Please wait and try again.')));
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      // Fastify's own client errors (bad JSON, body too large, wrong content type): safe to pass on,
      // with a code that says what the status says.
      const code = FRAMEWORK_CODES[err.statusCode] ?? 'bad_input';
      return reply.status(err.statusCode).send(errorBody(new DomainError(code, err.message)));
    }
    if (isDbUnavailable(err) || (isDbSchemaMissing(err) && (await schemaBehind().catch(() => true)))) {
      req.log.warn({ reason: err.message }, 'database unavailable');
      // Retry-After: the answer-headers hook adds the default wait for a 503.
      return reply
        .status(503)
        .send(
          errorBody(unavailable('The service is temporarily unavailable. Please try again in a moment.')),
        );
    }
    if (isDbInputError(err)) {
      // A safety net: the contract should have refused this input already. Logged to fix the rule.
      req.log.warn({ err }, 'database refused a value from the request');
      return reply.status(400).send(errorBody(badInput('A value in the request is not valid.')));
    }
    req.log.error({ err }, 'unhandled error');
    return reply
      .status(500)
      .send(errorBody(new DomainError('internal', 'Something went wrong on our side. Please try again.')));
  });
}
