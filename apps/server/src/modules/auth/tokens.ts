import { createHash } from 'node:crypto';
import { type Role, roleClaim, rolesFromClaim } from '@simdock/contract';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { AppContext, AuthUser } from '../../context.ts';
import { unauthorized } from '../../errors.ts';
import { findActiveUserById } from '../users/index.ts';

function jwtKey(secret: string): Uint8Array {
  // A derived key keeps the JWT key distinct from other uses of the app secret.
  return createHash('sha256').update(`jwt:${secret}`).digest();
}

export async function signToken(
  ctx: AppContext,
  user: { id: string; username: string; roles: Role[]; tokenVersion: number },
): Promise<string> {
  const now = Math.floor(ctx.clock.now().getTime() / 1000);
  return new SignJWT({ username: user.username, role: roleClaim(user.roles), ver: user.tokenVersion })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(user.id)
    .setIssuedAt(now)
    .setExpirationTime(now + Math.round(ctx.config.TOKEN_TTL_HOURS * 3600))
    .sign(jwtKey(ctx.config.APP_SECRET));
}

/**
 * Verifies a bearer token (signature, expiry), that its user still exists and is Active, and that
 * it was signed after the user's last password change (token version).
 */
export async function authenticate(ctx: AppContext, authorization: string | undefined): Promise<AuthUser> {
  const header = authorization ?? '';
  const token = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
  if (!token) throw unauthorized('Sign in to continue.');
  let sub: string | undefined;
  let ver: unknown;
  try {
    const { payload } = await jwtVerify(token, jwtKey(ctx.config.APP_SECRET), {
      algorithms: ['HS256'],
      currentDate: ctx.clock.now(),
    });
    sub = payload.sub;
    ver = payload.ver ?? 0;
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired)
      throw unauthorized('Your session has expired. Please sign in again.');
    throw unauthorized('Your session is not valid. Please sign in again.');
  }
  const user = sub && /^[0-9a-f-]{36}$/i.test(sub) ? await findActiveUserById(ctx.db, sub) : undefined;
  if (!user) throw unauthorized('Your account is not available. Please sign in again.');
  if (ver !== user.token_version) throw unauthorized('Your session has ended. Please sign in again.');
  return { id: user.id, username: user.username, roles: rolesFromClaim(user.roles) };
}
