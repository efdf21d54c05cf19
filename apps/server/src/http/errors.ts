import type { ErrorBody, ErrorKind, RuleMessageKey } from '@simdock/contract';
import { ruleMessages } from '@simdock/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDbInputError, isDbUnavailable } from '../db/errors.ts';

const RULE_TEXTS: ReadonlySet<string> = new Set(Object.values(ruleMessages));
/** The contract's own messages (rule texts, and sentences ending in a period) are shown as they are. */
const isContractMessage = (msg: string) => RULE_TEXTS.has(msg) || msg.endsWith('.');

const STATUS: Record<ErrorKind, number> = {
  bad_input: 400,
  unauthorized: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_many_requests: 429,
  unavailable: 503,
  internal: 500,
};

/** The one error type domain code throws; only `msg` and `field` ever reach the client. */
export class AppError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
  get status() {
    return STATUS[this.kind];
  }
  toBody(): ErrorBody {
    return { code: 0, error: this.kind, msg: this.message, ...(this.field ? { field: this.field } : {}) };
  }
}

export const badInput = (msg: string, field?: string) => new AppError('bad_input', msg, field);
export const unauthorized = (msg = 'Please sign in again.') => new AppError('unauthorized', msg);
export const forbidden = (msg = 'You do not have permission to do this.') => new AppError('forbidden', msg);
export const notFound = (msg: string) => new AppError('not_found', msg);
export const conflict = (msg: string, field?: string) => new AppError('conflict', msg, field);
export const unavailable = (msg: string) => new AppError('unavailable', msg);
export const tooManyRequests = (msg: string) => new AppError('too_many_requests', msg);

/** Throws a bad_input error for the first broken rule of a FieldErrors map. */
export function assertNoFieldErrors(errors: Partial<Record<string, RuleMessageKey>>): void {
  const first = Object.entries(errors).find(([, v]) => v !== undefined);
  if (first) throw badInput(ruleMessages[first[1]!], first[0]);
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof AppError) return reply.status(err.status).send(err.toBody());
    if (hasZodFastifySchemaValidationErrors(err)) {
      const issue = err.validation[0];
      const field = issue?.instancePath.replace(/^\//, '').replace(/\//g, '.') || undefined;
      const text = issue?.message ?? 'is invalid';
      const msg = isContractMessage(text) ? text : field ? `${field}: ${text}` : text;
      return reply.status(400).send(badInput(msg, field).toBody());
    }
    if (err.statusCode === 429) {
      return reply
        .status(429)
        .send(tooManyRequests('Too many requests. Please wait and try again.').toBody());
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      // Fastify's own client errors (bad JSON, body too large, wrong content type): safe to pass on.
      return reply.status(err.statusCode).send(badInput(err.message).toBody());
    }
    if (isDbUnavailable(err)) {
      req.log.warn({ reason: err.message }, 'database unavailable');
      return reply
        .status(503)
        .send(unavailable('The service is temporarily unavailable. Please try again in a moment.').toBody());
    }
    if (isDbInputError(err)) {
      // A safety net: the contract should have refused this input already. Logged to fix the rule.
      req.log.warn({ err }, 'database refused a value from the request');
      return reply.status(400).send(badInput('A value in the request is not valid.').toBody());
    }
    req.log.error({ err }, 'unhandled error');
    return reply
      .status(500)
      .send(new AppError('internal', 'Something went wrong on our side. Please try again.').toBody());
  });
}
