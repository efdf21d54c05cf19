import { ADMIN_ROLE } from '@simdock/contract';
import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import type { AppContext, AuthUser } from '../context.ts';
import { forbidden, unauthorized } from '../errors.ts';
import type { App } from './types.ts';

/** Who may call a route. Device pushes are `public`: their secret is in the path. */
export type Access = 'public' | 'user' | 'admin';

declare module 'fastify' {
  interface FastifyRequest {
    user?: AuthUser;
  }
  interface FastifyContextConfig {
    access?: Access;
  }
}

/**
 * The one way to declare who may call a route: spread into the route options,
 * `app.post(url, { ...access(ctx, 'admin'), schema }, handler)`. The check runs in `onRequest`,
 * before the body is parsed or validated, so a caller without the right gets 401/403 whatever it
 * sends, never a hint about the payload.
 */
export function access(
  ctx: AppContext,
  level: Access,
): { config: { access: Access }; onRequest: onRequestHookHandler[] } {
  if (level === 'public') return { config: { access: level }, onRequest: [] };
  const check: onRequestHookHandler = async (req) => {
    req.user = await ctx.registry.authenticate(ctx, req.headers.authorization);
    if (level === 'admin' && !req.user.roles.includes(ADMIN_ROLE)) {
      throw forbidden('This action needs the administrator role.');
    }
  };
  return { config: { access: level }, onRequest: [check] };
}

/** The signed-in user of a `user` or `admin` route. */
export function currentUser(req: FastifyRequest): AuthUser {
  if (!req.user) throw unauthorized();
  return req.user;
}

export interface DeclaredRoute {
  method: string;
  url: string;
  access: Access;
}

/**
 * Every API route must declare its access (startup fails otherwise); signed-in routes are marked
 * with the bearer scheme in the OpenAPI document. Returns the list of declared routes, filled as
 * routes are added (the authorization test walks it).
 */
export function enforceDeclaredAccess(app: App): DeclaredRoute[] {
  const routes: DeclaredRoute[] = [];
  app.addHook('onRoute', (opts) => {
    if (!/^\/(api|stubs|admin)\//i.test(opts.url)) return;
    const level = (opts.config as { access?: Access } | undefined)?.access;
    if (!level) throw new Error(`Route ${String(opts.method)} ${opts.url} does not declare its access`);
    if (level !== 'public' && opts.schema) opts.schema = { ...opts.schema, security: [{ bearer: [] }] };
    for (const method of [opts.method].flat()) {
      if (method !== 'HEAD') routes.push({ method: String(method), url: opts.url, access: level });
    }
  });
  return routes;
}
