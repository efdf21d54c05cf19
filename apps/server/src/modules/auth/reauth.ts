import { createHash } from 'node:crypto';
import { REAUTH_SECONDS } from '@simdock/contract';
import { jwtVerify, SignJWT } from 'jose';
import type { AppContext, AuthUser } from '../../context.ts';
import { badInput } from '../../errors.ts';
import { activeUserById, findUserById, verifyPassword } from '../users/index.ts';
import { limitPasswordChange } from './limits.ts';
import { secondFactorEnabled } from './second-factor.queries.ts';
import { verifyUserCode } from './second-factor.service.ts';

// Re-authentication ("step-up"): a session token alone does not reach the calls that would turn a
// stolen session into a lasting foothold (the second factor, API keys, webhooks). They need a proof
// that the password (and a code, when the factor is on) was given again within REAUTH_SECONDS. The
// proof is a short signed token bound to the user and the account's token version: a password
// change or reset voids it with every session.

const PURPOSE = 'reauth';

function reauthKey(secret: string): Uint8Array {
  // Its own key: a session token can never pass for a proof, nor a proof for a session.
  return createHash('sha256').update(`reauth:${secret}`).digest();
}

export async function signReauth(
  ctx: AppContext,
  user: { id: string; tokenVersion: number; withCode: boolean },
): Promise<string> {
  const now = Math.floor(ctx.clock.now().getTime() / 1000);
  return new SignJWT({ ver: user.tokenVersion, purpose: PURPOSE, otp: user.withCode })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(user.id)
    .setIssuedAt(now)
    .setExpirationTime(now + REAUTH_SECONDS)
    .sign(reauthKey(ctx.config.APP_SECRET));
}

/** Whether `proof` is a live re-authentication of this signed-in user (the registry's check). */
export async function verifyReauth(
  ctx: AppContext,
  user: AuthUser,
  proof: string | undefined,
): Promise<false | { withCode: boolean }> {
  if (!proof || proof.length > 2000) return false;
  try {
    const { payload } = await jwtVerify(proof, reauthKey(ctx.config.APP_SECRET), {
      algorithms: ['HS256'],
      currentDate: ctx.clock.now(),
    });
    if (payload.purpose !== PURPOSE || payload.sub !== user.id) return false;
    const row = await activeUserById(ctx, user.id);
    if (row === undefined || payload.ver !== row.token_version) return false;
    return { withCode: payload.otp === true };
  } catch {
    return false;
  }
}

/**
 * POST /api/Auth/reauth: the password again (wrong ones count toward the password-change limit),
 * and a code when the factor is on (wrong ones count toward the second-factor limit).
 */
export async function reauthenticate(
  ctx: AppContext,
  user: AuthUser,
  input: { password: string; code?: string | undefined; ip: string },
): Promise<{ reauth: string; expiresIn: number }> {
  const row = await limitPasswordChange(ctx, user, async () => {
    const found = await findUserById(ctx.db, user.id);
    if (!found || !(await verifyPassword(found.password_hash, input.password))) {
      throw badInput('The password is not correct.', 'password');
    }
    return found;
  });
  const withCode = await secondFactorEnabled(ctx.db, user.id);
  if (withCode) {
    if (!input.code?.trim()) throw badInput('Enter the code from your authenticator app.', 'code');
    await verifyUserCode(ctx, user, input.code, { ip: input.ip, recovery: true });
  }
  return {
    reauth: await signReauth(ctx, { id: user.id, tokenVersion: row.token_version, withCode }),
    expiresIn: REAUTH_SECONDS,
  };
}
