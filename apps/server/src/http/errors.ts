import { ERROR_STATUS, type ErrorBody, type ErrorCode, ruleMessages } from '@simdock/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDbInputError, isDbSchemaMissing, isDbUnavailable } from '../db/errors.ts';
import { badInput, DomainError, tooManyRequests, unavailable } from '../errors.ts';

const RULE_TEXTS: ReadonlySet<string> = new Set(Object.values(ruleMessages));
/** The contract's own messages (rule texts, and sentences ending in a period) are shown as they are. */
const isContractMessage = (msg: string) => RULE_TEXTS.has(msg) || msg.endsWith('.');

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
