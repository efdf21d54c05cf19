import type { z } from 'zod';
import { ERROR_STATUS, ErrorBody, type ErrorCode } from './api/common.ts';
import type { EndpointDeclaration } from './endpoint.ts';

// The error answers of the declarations, for the server's routes and so the OpenAPI document. Kept
// out of endpoint.ts, which every page's bundle holds: the web parses only a call's 200 answer and
// reads a refusal through ErrorBody, so it never needs the answers by status.

/**
 * Every error code a declared endpoint may answer: those of its kind (bad input when it reads one,
 * the session, role and second-factor checks of `user` and `admin`, the key checks and rate limit of
 * `apikey`, the re-authentication of `reauth`) and its own `errors`.
 */
export function endpointErrors(d: EndpointDeclaration): ErrorCode[] {
  const codes: ErrorCode[] = [];
  if (d.body || d.query || d.params || d.headers) codes.push('bad_input');
  if (d.access === 'user' || d.access === 'admin')
    codes.push('unauthorized', 'account_inactive', 'second_factor_required');
  if (d.access === 'admin') codes.push('forbidden');
  if (d.access === 'apikey') {
    codes.push('api_key_missing', 'api_key_invalid', 'api_key_expired', 'api_key_ip_refused');
    if (d.scope) codes.push('api_key_scope_missing');
    codes.push('too_many_requests');
  }
  if (d.reauth) codes.push('reauth_required');
  for (const code of d.errors ?? []) if (!codes.includes(code)) codes.push(code);
  return codes;
}

/** The error answers of these codes by status, each described by the codes it carries. */
export function errorAnswers(codes: readonly ErrorCode[]): Record<number, z.ZodType> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes)
    byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, of]) => [status, ErrorBody.describe(of.map((c) => `\`${c}\``).join(', '))]),
  );
}

/**
 * A declaration's answers by status: its error answers (`endpointErrors`, grouped by status) and its
 * own `response`; an answer it declares for a status itself is kept (an API with an error shape of
 * its own, SMSGate's, describes its own).
 */
export function endpointResponses(d: EndpointDeclaration): Record<number, z.ZodType> {
  return { ...errorAnswers(endpointErrors(d)), ...d.response };
}
