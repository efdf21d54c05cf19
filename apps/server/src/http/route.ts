import {
  ADMIN_ROLE,
  type ApiKeyScope,
  displayIp,
  type EndpointDeclaration,
  type EndpointParsedBody,
  type EndpointParsedParams,
  type EndpointParsedQuery,
  type EndpointReply,
  endpointMethods,
  endpointResponses,
  ipAllowed,
  REAUTH_HEADER,
} from '@simdock/contract';
import type {
  FastifyBodyParser,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  onRequestHookHandler,
  preValidationHookHandler,
  RouteOptions,
} from 'fastify';
import type { ApiKeyAuth, AppContext, AuthUser } from '../context.ts';
import { DomainError, forbidden, tooManyRequests, unauthorized } from '../errors.ts';
import { bearerToken } from './bearer.ts';
import type { App } from './types.ts';

/**
 * Who may call a route. Device pushes are `public`: their secret is in the path. `apikey` routes
 * are for programs: the user's API key instead of a session, metered by a per-key rate limit.
 */
export type Access = 'public' | 'user' | 'admin' | 'apikey';

/** Where an `apikey` route reads the key: `Authorization: Bearer <key>`, or the `api_key` parameter. */
export type KeyIn = 'bearer' | 'param' | 'basic';

declare module 'fastify' {
  interface FastifyRequest {
    user?: AuthUser;
  }
  interface FastifyContextConfig {
    access?: Access;
    keyIn?: KeyIn;
    /** The route reads an empty request body as `{}` (see `readEmptyBodies`). */
    emptyBody?: boolean;
    /** An admin who must still enrol a second factor may call it (User Info, enrolment). */
    secondFactorSetup?: boolean;
    /** The call needs a fresh re-authentication (the contract's `reauth`). */
    reauth?: boolean;
  }
}

/** The `X-RateLimit-*` headers of an API-key call (and `Retry-After` when it is over the limit). */
function setRateHeaders(reply: FastifyReply, rate: ApiKeyAuth['rate']): void {
  reply.header('x-ratelimit-limit', rate.limit);
  reply.header('x-ratelimit-remaining', Math.max(0, rate.remaining));
  reply.header('x-ratelimit-reset', rate.resetSeconds);
  if (rate.remaining < 0) reply.header('retry-after', rate.resetSeconds);
}

/** The `api_key` parameter, from the query string or a form/JSON body (SMS-Activate clients send both). */
function keyParam(req: FastifyRequest): string | undefined {
  for (const source of [req.query, req.body]) {
    if (source && typeof source === 'object' && 'api_key' in source) {
      const v = (source as Record<string, unknown>).api_key;
      if (typeof v === 'string') return v;
      // Given twice, or not text: no key can match it (BAD_KEY, not NO_KEY: a key was sent).
      if (v !== undefined) return 'not-a-key';
    }
  }
  return undefined;
}

/**
 * Why a key may not make this call, or null: the caller's address (`req.ip`: the peer, or with
 * TRUST_PROXY the client X-Forwarded-For names) must be among the key's allowed addresses, and the
 * endpoint's scope among its scopes.
 */
export function keyRefusal(
  key: ApiKeyAuth['key'],
  ip: string,
  scope: ApiKeyScope | undefined,
): DomainError | null {
  if (!ipAllowed(ip, key.allowedIps)) {
    return new DomainError(
      'api_key_ip_refused',
      `This API key may be used only from ${key.allowedIps.join(', ')}; this call came from ${displayIp(ip)}.`,
    );
  }
  if (scope && !key.scopes.includes(scope)) {
    return new DomainError('api_key_scope_missing', `This API key does not have the ${scope} scope.`);
  }
  return null;
}

/** `Authorization: Basic base64(username:password)`, or undefined when the header is not that. */
export function basicCredentials(header: string): { username: string; password: string } | undefined {
  if (!/^basic /i.test(header)) return undefined;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * `apikey` access: authenticates the key, checks its allowed addresses and scopes against the call
 * (403), counts the call and sets the rate headers; over the limit it refuses with
 * `too_many_requests` (429). With keys in the parameters the check must wait for the body, so it
 * runs at `preValidation` (still before any schema looks at the input).
 */
function apiKeyAccess(ctx: AppContext, keyIn: KeyIn, scope?: ApiKeyScope) {
  const check = async (req: FastifyRequest, reply: FastifyReply) => {
    const header = req.headers.authorization ?? '';
    const basic = keyIn === 'basic' ? basicCredentials(header) : undefined;
    const key = keyIn === 'param' ? keyParam(req) : keyIn === 'basic' ? basic?.password : bearerToken(header);
    const auth = await ctx.registry.authenticateApiKey(ctx, key || undefined);
    // Basic auth names the account too: a key only works with its owner's username.
    if (basic && basic.username.toLowerCase() !== auth.user.username.toLowerCase()) {
      throw new DomainError('api_key_invalid', 'This username and API key do not belong together.');
    }
    const refusal = keyRefusal(auth.key, req.ip, scope);
    if (refusal) throw refusal;
    setRateHeaders(reply, auth.rate);
    if (auth.rate.remaining < 0) {
      throw tooManyRequests(
        `Too many requests: ${auth.rate.limit} per window. Try again in ${auth.rate.resetSeconds} s.`,
      );
    }
    req.user = auth.user;
  };
  if (keyIn === 'param') {
    return {
      config: { access: 'apikey' as const, keyIn },
      preValidation: [check as preValidationHookHandler],
    };
  }
  return { config: { access: 'apikey' as const, keyIn }, onRequest: [check as onRequestHookHandler] };
}

/**
 * The one way to declare who may call a route: spread into the route options,
 * `app.post(url, { ...access(ctx, 'admin'), schema }, handler)`. The check runs in `onRequest`,
 * before the body is parsed or validated, so a caller without the right gets 401/403 whatever it
 * sends, never a hint about the payload.
 */
export function access(
  ctx: AppContext,
  level: 'apikey',
  keyIn?: KeyIn,
  scope?: ApiKeyScope,
): {
  config: { access: Access; keyIn: KeyIn };
  onRequest?: onRequestHookHandler[];
  preValidation?: preValidationHookHandler[];
};
export function access(
  ctx: AppContext,
  level: Exclude<Access, 'apikey'>,
): { config: { access: Access }; onRequest: onRequestHookHandler[] };
export function access(
  ctx: AppContext,
  level: Access,
  keyIn: KeyIn = 'bearer',
  scope?: ApiKeyScope,
):
  | { config: { access: Access }; onRequest: onRequestHookHandler[] }
  | {
      config: { access: Access; keyIn: KeyIn };
      onRequest?: onRequestHookHandler[];
      preValidation?: preValidationHookHandler[];
    } {
  if (level === 'apikey') return apiKeyAccess(ctx, keyIn, scope);
  if (level === 'public') return { config: { access: level }, onRequest: [] };
  const check: onRequestHookHandler = async (req) => {
    req.user = await ctx.registry.authenticate(ctx, req.headers.authorization);
    if (req.user.secondFactorPending && !req.routeOptions.config.secondFactorSetup) {
      throw new DomainError(
        'second_factor_required',
        'Set up two-factor authentication in User Info before anything else.',
      );
    }
    if (level === 'admin' && !req.user.roles.includes(ADMIN_ROLE)) {
      throw forbidden('This action needs the administrator role.');
    }
  };
  return { config: { access: level }, onRequest: [check] };
}

/**
 * A route that needs a fresh re-authentication: after the session check (the hooks run in order),
 * before the body is read, so a stolen session gets the same 403 whatever it sends.
 */
function reauthCheck(ctx: AppContext): onRequestHookHandler {
  return async (req) => {
    const user = currentUser(req);
    const header = req.headers[REAUTH_HEADER];
    const proof = typeof header === 'string' ? header : undefined;
    const fresh = await ctx.registry.verifyReauth(ctx, user, proof);
    if (!fresh) {
      throw new DomainError(
        'reauth_required',
        'Confirm your password to continue (this needs a fresh sign-in check).',
      );
    }
    user.reauth = fresh;
  };
}

/** The signed-in user of a `user`, `admin` or `apikey` route. */
export function currentUser(req: FastifyRequest): AuthUser {
  if (!req.user) throw unauthorized();
  return req.user;
}

/** The OpenAPI security scheme of each way an API key is given (schemes in http/http-app.ts). */
export const SECURITY_OF_KEY_IN: Record<KeyIn, string> = {
  bearer: 'apiKey',
  param: 'apiKeyParam',
  basic: 'apiKeyBasic',
};

export interface DeclaredRoute {
  method: string;
  url: string;
  access: Access;
  keyIn?: KeyIn;
  /** It needs a fresh re-authentication besides the session. */
  reauth?: boolean;
}

/**
 * Every API route must declare its access (startup fails otherwise); signed-in routes are marked
 * with the bearer scheme in the OpenAPI document. Returns the list of declared routes, filled as
 * routes are added (the authorization test walks it).
 */
export function enforceDeclaredAccess(app: App): DeclaredRoute[] {
  const routes: DeclaredRoute[] = [];
  app.addHook('onRoute', (opts) => {
    if (!/^\/(api|stubs|admin|3rdparty)\//i.test(opts.url)) return;
    const config = opts.config as { access?: Access; keyIn?: KeyIn; reauth?: boolean } | undefined;
    const level = config?.access;
    if (!level) throw new Error(`Route ${String(opts.method)} ${opts.url} does not declare its access`);
    const security =
      level === 'apikey' ? [{ [SECURITY_OF_KEY_IN[config?.keyIn ?? 'bearer']]: [] }] : [{ bearer: [] }];
    if (level !== 'public' && opts.schema) opts.schema = { ...opts.schema, security };
    for (const method of [opts.method].flat()) {
      if (method !== 'HEAD') {
        routes.push({
          method: String(method),
          url: opts.url,
          access: level,
          ...(level === 'apikey' ? { keyIn: config?.keyIn ?? 'bearer' } : {}),
          ...(config?.reauth ? { reauth: true } : {}),
        });
      }
    }
  });
  return routes;
}

/**
 * Sends JSON text that was built already (by PostgreSQL) as it is: Fastify does not run the route's
 * serializer on a string with a JSON content type. The route's response schema still documents the
 * shape, and the route's tests must check the text against it, as nothing checks it here.
 */
export function sendJsonText(reply: FastifyReply, json: string): FastifyReply {
  // The route's typed reply expects the object; the text is that object already serialised.
  return reply.type('application/json; charset=utf-8').send(json as never);
}

/** The request a declared endpoint's handler reads: body, query and params as its schemas parse them. */
export type EndpointRequest<E extends EndpointDeclaration> = Omit<
  FastifyRequest,
  'body' | 'query' | 'params'
> & {
  body: EndpointParsedBody<E>;
  query: EndpointParsedQuery<E>;
  params: EndpointParsedParams<E>;
};

/**
 * A declared endpoint's handler: answers the declared 200 shape, or sends its own reply (files,
 * streams, other statuses) and returns that reply.
 */
export type EndpointHandler<E extends EndpointDeclaration> = (
  req: EndpointRequest<E>,
  reply: FastifyReply,
) => Promise<EndpointReply<E> | FastifyReply | undefined> | EndpointReply<E> | FastifyReply | undefined;

/**
 * What a route adds to its declaration, for the server alone: a body limit, an error handler for a
 * protocol with its own error shape, extra hooks, or OpenAPI text too long for the contract.
 */
export type RouteExtras = Partial<
  Pick<RouteOptions, 'bodyLimit' | 'errorHandler' | 'onRequest' | 'preHandler' | 'config'>
> & { schema?: Pick<FastifySchema, 'description'> & { consumes?: string[] } };

/**
 * Whether a declared call reads an empty request as `{}`: every JSON call. Device pushes, the
 * SMS-Activate handler (forms and its own tokens) and uploads (multipart) read their bodies in
 * their own formats, so theirs are left as they are.
 */
function readsEmptyBody(d: EndpointDeclaration, extras: RouteExtras): boolean {
  return d.access !== 'device' && d.keyIn !== 'param' && !extras.schema?.consumes;
}

/** An absent body is `{}` to the route's schema (Fastify would hand it `null`, which no object accepts). */
const absentBodyAsObject: preValidationHookHandler = async (req) => {
  if (req.body === undefined) req.body = {};
};

/**
 * The app's JSON parser: Fastify's own, except that on a route that reads an empty body as `{}` a
 * JSON content type with no bytes is no body (some clients set that header on every call). Register
 * before the modules: their scopes copy the parsers they start with.
 */
export function readEmptyBodies(app: App): void {
  const { onProtoPoisoning, onConstructorPoisoning, bodyLimit } = app.initialConfig;
  const json: FastifyBodyParser<string> = app.getDefaultJsonParser(
    onProtoPoisoning ?? 'error',
    onConstructorPoisoning ?? 'error',
  );
  // Replacing the default parser loses its body limit: the app's is given again.
  app.addContentTypeParser<string>(
    'application/json',
    { parseAs: 'string', bodyLimit },
    (req, body, done) => {
      if (body.length === 0 && req.routeOptions.config.emptyBody) return done(null, undefined);
      return json(req, body, done);
    },
  );
}

/**
 * Registers a route from its contract declaration (packages/contract/src/endpoints): method, path,
 * access (see `access`), schemas, tag and summary come from there; the module gives the handler.
 *
 *   route(app, ctx, endpoints.apikey.get, async (req) => ({ code: 1, apiKey: … }));
 */
export function route<E extends EndpointDeclaration>(
  app: App,
  ctx: AppContext,
  declaration: E,
  handler: EndpointHandler<E>,
  extras: RouteExtras = {},
): void {
  const d: EndpointDeclaration = declaration;
  const guard =
    d.access === 'apikey'
      ? access(ctx, 'apikey', d.keyIn, d.scope)
      : access(ctx, d.access === 'device' ? 'public' : d.access);
  const schema: Record<string, unknown> = {};
  if (d.hide) schema.hide = true;
  schema.tags = [d.tag];
  if (d.summary) schema.summary = d.summary;
  if (d.description) schema.description = d.description;
  if (d.params) schema.params = d.params;
  if (d.query) schema.querystring = d.query;
  if (d.body) schema.body = d.body;
  if (d.headers) schema.headers = d.headers;
  const responses = endpointResponses(d);
  if (Object.keys(responses).length) schema.response = responses;
  const { schema: extraSchema, onRequest, preHandler, config, ...rest } = extras;
  const merged: Record<string, unknown> = { ...schema, ...extraSchema };
  if (d.access === 'apikey' && d.scope) {
    // Programs read in the API document which key scope a call needs.
    const needs = `Needs an API key with the \`${d.scope}\` scope.`;
    merged.description = merged.description ? `${String(merged.description)}\n\n${needs}` : needs;
  }
  if (d.reauth) {
    const needs = `Needs a fresh re-authentication: the \`X-Reauth\` header from \`POST /api/Auth/reauth\` (403 \`reauth_required\` without it).`;
    merged.description = merged.description ? `${String(merged.description)}\n\n${needs}` : needs;
  }
  const emptyBody = readsEmptyBody(d, extras);
  const preValidation = [
    ...(emptyBody && d.body ? [absentBodyAsObject] : []),
    ...('preValidation' in guard && guard.preValidation ? guard.preValidation : []),
  ];
  app.route({
    method: endpointMethods(d),
    url: d.path,
    ...rest,
    config: {
      ...guard.config,
      emptyBody,
      ...(d.reauth ? { reauth: true } : {}),
      ...(config as object | undefined),
    },
    onRequest: [
      ...(guard.onRequest ?? []),
      ...(d.reauth ? [reauthCheck(ctx)] : []),
      ...([onRequest ?? []].flat() as onRequestHookHandler[]),
    ],
    ...(preValidation.length ? { preValidation } : {}),
    ...(preHandler ? { preHandler } : {}),
    schema: merged as FastifySchema,
    handler: handler as unknown as RouteOptions['handler'],
  });
}
