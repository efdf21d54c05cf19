import type { z } from 'zod';
import type { ErrorCode } from './api/common.ts';

/**
 * One HTTP endpoint, declared once: the server registers its route from this declaration (the
 * handler stays in its module, see apps/server/src/http/route.ts `route`), the web calls it through
 * `call(endpoint, …)` (apps/web/src/api/client.ts), and the OpenAPI document is generated from it.
 * So a path, an access level or a field exists in one place, and renaming one breaks `tsc` on both
 * sides instead of a request at run time.
 */

/**
 * Who may call it: `public` (anyone), `user` (a signed-in session), `admin` (a session with the
 * administrator role), `apikey` (a program with the user's API key), `device` (a gateway pushing
 * to its secret URL: no session, the secret is in the path).
 */
export type EndpointAccess = 'public' | 'user' | 'admin' | 'apikey' | 'device';
export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface EndpointDeclaration {
  method: HttpMethod | readonly HttpMethod[];
  /** Fastify syntax: `/api/media/:fileName`. */
  path: string;
  access: EndpointAccess;
  /**
   * `apikey` endpoints: where the key is read (default `bearer`: `Authorization: Bearer <key>`;
   * `param`: the `api_key` parameter; `basic`: Basic auth as the username and the key, as SMSGate
   * clients send it).
   */
  keyIn?: 'bearer' | 'param' | 'basic';
  /**
   * `apikey` endpoints: the scope a key must hold to call it (`rental`, `messaging:send`,
   * `messaging:read`); a key without it is refused with 403.
   */
  scope?: 'rental' | 'messaging:send' | 'messaging:read';
  /**
   * `user` endpoints: the call also needs a fresh re-authentication proof in the `X-Reauth` header
   * (`POST /api/Auth/reauth`: the password again, and a code when the second factor is on);
   * without one it is refused with 403 `reauth_required`.
   */
  reauth?: boolean;
  /** The OpenAPI tag: the screen or area the endpoint serves. */
  tag: string;
  summary?: string;
  description?: string;
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  /** Request headers the endpoint reads (e.g. `Idempotency-Key`), validated and documented. */
  headers?: z.ZodType;
  /**
   * Answers by HTTP status; `200` is what `call` parses and returns. The error answers come from
   * `endpointResponses` (endpoint-errors.ts) unless a declaration describes a status itself.
   */
  response?: { readonly [status: number]: z.ZodType };
  /**
   * The refusals of its own rules the handler may answer (`balance_too_low`, `order_not_found`…),
   * beyond those every endpoint of its kind gives (input, session, role, key, re-authentication).
   */
  errors?: readonly ErrorCode[];
  /** Kept out of the OpenAPI document (simulator pages, scrapers' endpoints). */
  hide?: boolean;
}

/** Declares an endpoint; the `const` parameter keeps its literal types (path, access, schemas). */
export function endpoint<const E extends EndpointDeclaration>(declaration: E): E {
  return declaration;
}

type Input<S> = S extends z.ZodType ? z.input<S> : undefined;
type Output<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a caller sends as the body (before the schema's defaults and transforms). */
export type EndpointBody<E extends EndpointDeclaration> = Input<E['body']>;
/** The body as the handler reads it (after parsing). */
export type EndpointParsedBody<E extends EndpointDeclaration> = Output<E['body']>;
export type EndpointQuery<E extends EndpointDeclaration> = Input<E['query']>;
export type EndpointParsedQuery<E extends EndpointDeclaration> = Output<E['query']>;
export type EndpointParams<E extends EndpointDeclaration> = Input<E['params']>;
export type EndpointParsedParams<E extends EndpointDeclaration> = Output<E['params']>;
type Ok<E extends EndpointDeclaration> = E['response'] extends { 200: infer S } ? S : undefined;
/** The successful answer as a caller reads it. */
export type EndpointResult<E extends EndpointDeclaration> = Output<Ok<E>>;
/** The successful answer as a handler may return it (before serialisation). */
export type EndpointReply<E extends EndpointDeclaration> = Input<Ok<E>>;

/**
 * The endpoint's path with its `:name` parameters filled in (URI-encoded). A missing parameter is a
 * programming error and throws.
 */
export function endpointPath(e: Pick<EndpointDeclaration, 'path'>, params?: object): string {
  const values = (params ?? {}) as Record<string, unknown>;
  return e.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined || value === null) throw new Error(`${e.path}: missing parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}

/** The endpoint's methods as a list. */
export function endpointMethods(e: Pick<EndpointDeclaration, 'method'>): HttpMethod[] {
  return typeof e.method === 'string' ? [e.method] : [...e.method];
}
