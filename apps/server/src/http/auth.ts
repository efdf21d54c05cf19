import { createHash } from 'node:crypto';
import { ADMIN_ROLE, type Role, roleClaim, rolesFromClaim } from '@simdock/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { AppContext } from '../context.ts';
import { findActiveUserById } from '../modules/users/users.queries.ts';
import { forbidden, unauthorized } from './errors.ts';

export interface AuthUser {
  id: string;
  username: string;
  roles: Role[];
}

declare module 'fastify' {
  interface FastifyRequest {
    user?: AuthUser;
  }
}

function jwtKey(secret: string): Uint8Array {
  // A derived key keeps the JWT key distinct from other uses of the app secret.
  return createHash('sha256').update(`jwt:${secret}`).digest();
}

export async function signToken(ctx: AppContext, user: AuthUser): Promise<string> {
  const now = Math.floor(ctx.clock.now().getTime() / 1000);
  return new SignJWT({ username: user.username, role: roleClaim(user.roles) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(user.id)
    .setIssuedAt(now)
    .setExpirationTime(now + Math.round(ctx.config.TOKEN_TTL_HOURS * 3600))
    .sign(jwtKey(ctx.config.APP_SECRET));
}

/** Verifies the bearer token (signature, expiry) and that its user still exists and is Active. */
export async function authenticate(ctx: AppContext, req: FastifyRequest): Promise<AuthUser> {
  const header = req.headers.authorization ?? '';
  const token = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
  if (!token) throw unauthorized('Sign in to continue.');
  let sub: string | undefined;
  try {
    const { payload } = await jwtVerify(token, jwtKey(ctx.config.APP_SECRET), {
      algorithms: ['HS256'],
      currentDate: ctx.clock.now(),
    });
    sub = payload.sub;
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired)
      throw unauthorized('Your session has expired. Please sign in again.');
    throw unauthorized('Your session is not valid. Please sign in again.');
  }
  const user = sub ? await findActiveUserById(ctx.db, sub) : undefined;
  if (!user) throw unauthorized('Your account is not available. Please sign in again.');
  return { id: user.id, username: user.username, roles: rolesFromClaim(user.roles) };
}

/** preHandler hooks for routes: any signed-in user, or one holding a role. */
export function guards(ctx: AppContext) {
  const requireUser = async (req: FastifyRequest, _reply: FastifyReply) => {
    req.user = await authenticate(ctx, req);
  };
  const requireRole = (role: Role) => async (req: FastifyRequest, reply: FastifyReply) => {
    await requireUser(req, reply);
    if (!req.user!.roles.includes(role)) throw forbidden('This action needs the administrator role.');
  };
  return { requireUser, requireAdmin: requireRole(ADMIN_ROLE) };
}

/** The signed-in user of a guarded route. */
export function currentUser(req: FastifyRequest): AuthUser {
  if (!req.user) throw unauthorized();
  return req.user;
}
