import { type ErrorCode, type RuleMessageKey, ruleMessages } from '@simdock/contract';

/**
 * The one error type use cases throw: a stable code (contract `ERROR_CODES`), a message for people
 * and optionally the input field at fault. `http/errors.ts` maps the code to a status; the rental
 * API maps it to its protocol tokens. Only `code`, `message` and `field` ever reach a client.
 */
export class DomainError extends Error {
  /** Seconds a client should wait before trying again: sent as `Retry-After` (429, 503). */
  retryAfterSeconds?: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const badInput = (msg: string, field?: string) => new DomainError('bad_input', msg, field);
export const unauthorized = (msg = 'Please sign in again.') => new DomainError('unauthorized', msg);
export const forbidden = (msg = 'You do not have permission to do this.') =>
  new DomainError('forbidden', msg);
export const notFound = (msg: string, code: ErrorCode = 'not_found') => new DomainError(code, msg);
export const conflict = (msg: string, field?: string, code: ErrorCode = 'conflict') =>
  new DomainError(code, msg, field);
export const unavailable = (msg: string, code: ErrorCode = 'unavailable') => new DomainError(code, msg);
export const tooManyRequests = (msg: string) => new DomainError('too_many_requests', msg);

/** Throws a bad_input error for the first broken rule of a FieldErrors map. */
export function assertNoFieldErrors(errors: Partial<Record<string, RuleMessageKey>>): void {
  const first = Object.entries(errors).find(([, v]) => v !== undefined);
  if (first) throw badInput(ruleMessages[first[1]!], first[0]);
}
