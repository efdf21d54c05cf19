import { createHash } from 'node:crypto';
import { type Role, roleClaim } from '@simdock/contract';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { BoundedMap } from '../../bounded-map.ts';
import type { AppContext, AuthUser } from '../../context.ts';
import { unauthorized } from '../../errors.ts';
import { bearerToken } from '../../http/bearer.ts';
import { activeUserById, signedInUser } from '../users/index.ts';
import { mustEnrol } from './second-factor.enrolment.ts';

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

/** What a verified token says; kept so that a token seen before is not verified again. */
interface Claims {
  sub: string | undefined;
  ver: unknown;
  exp: number | undefined;
}

/**
 * Tokens whose signature was verified, per configuration (the key derives from APP_SECRET). A
 * signature check is a pure function of the token and the key, so a token seen again skips the
 * HMAC (WebCrypto: a key import and a thread-pool round trip, about a sixth of a signed-in
 * request's CPU); its expiry is still checked on every request, as jose does (`exp <= now`), and
 * the user is still read. Bounded: the oldest entry goes when it is full. Module-level (not in
 * ctx.runtime) because it is a pure memo: what it holds follows from the token and the
 * configuration's secret alone, never from a server's database.
 */
const verified = new WeakMap<object, BoundedMap<string, Claims>>();

async function verifyToken(ctx: AppContext, token: string): Promise<Claims> {
  let cache = verified.get(ctx.config);
  if (!cache) {
    cache = new BoundedMap(10_000);
    verified.set(ctx.config, cache);
  }
  const known = cache.get(token);
  if (known) {
    const now = Math.floor(ctx.clock.now().getTime() / 1000);
    if (known.exp !== undefined && known.exp <= now) {
      cache.delete(token);
      throw new joseErrors.JWTExpired('"exp" claim timestamp check failed', {}, 'exp', 'check_failed');
    }
    return known;
  }
  const { payload } = await jwtVerify(token, jwtKey(ctx.config.APP_SECRET), {
    algorithms: ['HS256'],
    currentDate: ctx.clock.now(),
  });
  const claims: Claims = { sub: payload.sub, ver: payload.ver ?? 0, exp: payload.exp };
  // Our tokens carry no nbf; one that does is verified every time.
  if (payload.nbf === undefined) cache.set(token, claims);
  return claims;
}

/**
 * Verifies a bearer token (signature, expiry), that its user still exists and is Active, and that
 * it was signed after the user's last password change (token version).
 */
export async function authenticate(ctx: AppContext, authorization: string | undefined): Promise<AuthUser> {
  const header = authorization ?? '';
  const token = bearerToken(header) ?? '';
  if (!token) throw unauthorized('Sign in to continue.');
  let sub: string | undefined;
  let ver: unknown;
  try {
    ({ sub, ver } = await verifyToken(ctx, token));
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired)
      throw unauthorized('Your session has expired. Please sign in again.');
    throw unauthorized('Your session is not valid. Please sign in again.');
  }
  const user = sub ? await activeUserById(ctx, sub) : undefined;
  if (!user) throw unauthorized('Your account is not available. Please sign in again.');
  if (ver !== user.token_version) throw unauthorized('Your session has ended. Please sign in again.');
  const signedIn = signedInUser(user);
  if (await mustEnrol(ctx, user.id, user.roles)) signedIn.secondFactorPending = true;
  return signedIn;
}
