import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  ADMIN_ROLE,
  DEFAULT_ROLE,
  type LoginAnswer,
  normalizeLogin,
  rolesFromClaim,
  validateRegister,
} from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { assertNoFieldErrors, conflict, DomainError, unauthorized } from '../../errors.ts';
import {
  adminExists,
  findUserByUsername,
  hashPassword,
  insertUser,
  verifyPassword,
  verifyUnknownUser,
} from '../users/index.ts';
import { assertPasswordNotCommon } from './common-passwords.ts';
import { reserveRegistration, signInGate } from './limits.ts';
import { mustEnrol } from './second-factor.enrolment.ts';
import { challengeFor } from './second-factor.service.ts';
import { signToken } from './tokens.ts';

export async function register(
  ctx: AppContext,
  input: { username: string; email: string; password: string; ip: string },
): Promise<void> {
  const username = normalizeLogin(input.username);
  const email = normalizeLogin(input.email);
  assertNoFieldErrors(validateRegister({ username, email, password: input.password }));
  assertPasswordNotCommon(input.password, 'password');
  // Counted first, and kept when the name is taken: a refusal costs budget like an account does.
  const undo = await reserveRegistration(ctx, input.ip);
  const result = await insertUser(ctx.db, {
    username,
    email,
    passwordHash: await hashPassword(input.password),
    roles: [DEFAULT_ROLE],
  }).catch(async (err: unknown) => {
    await undo();
    throw err;
  });
  if (result.taken === 'username')
    throw conflict('This username is already taken.', 'username', 'username_taken');
  if (result.taken === 'email')
    throw conflict('An account with this email already exists.', 'email', 'email_taken');
}

const LOGIN_FAILED = 'Invalid username or password.';

/**
 * How late a failed sign-in is answered once a username has had `failures` failures in the window
 * (from any address): nothing up to LOGIN_SLOWDOWN_AFTER, then 250 ms doubling per further
 * failure, at most LOGIN_SLOWDOWN_MAX_MS. It slows guessing without locking the owner out.
 */
export function slowdownMs(
  failures: number,
  config: Pick<AppContext['config'], 'LOGIN_SLOWDOWN_AFTER' | 'LOGIN_SLOWDOWN_MAX_MS'>,
): number {
  const over = failures - config.LOGIN_SLOWDOWN_AFTER;
  if (over <= 0) return 0;
  return Math.min(config.LOGIN_SLOWDOWN_MAX_MS, 250 * 2 ** Math.min(over - 1, 20));
}

/**
 * Signs a user in. Every attempt is counted first (atomically), then checked: hard limits per
 * username and client address, per address across usernames and per account across addresses
 * (a browser with the account's device token is exempt from that one), plus a slow-down per
 * account. A refused attempt is not checked and gives its counts back; a success takes its attempt
 * back. Unknown users cost the same argon2 work; the answer never says which field was wrong.
 */
export async function login(
  ctx: AppContext,
  input: { username: string; password: string; ip: string; deviceToken?: string | undefined },
): Promise<LoginAnswer> {
  const username = normalizeLogin(input.username);
  // Counted before the check; over a limit it is refused here, unchecked (see limits.ts).
  const gate = await signInGate(ctx, { username, ip: input.ip, deviceToken: input.deviceToken });
  const user = username ? await findUserByUsername(ctx.db, username) : undefined;
  const ok = user
    ? await verifyPassword(user.password_hash, input.password)
    : await verifyUnknownUser(input.password);
  ctx.metrics.signInPasswordChecks.inc({ account: user ? 'known' : 'unknown' });
  if (!user || !ok) {
    const delay = slowdownMs(gate.accountFailures, ctx.config);
    if (delay > 0) await sleep(delay);
    throw unauthorized(LOGIN_FAILED);
  }
  if (user.status !== 'Active')
    throw new DomainError('account_inactive', 'This account is inactive. Please contact support.');
  // The password was right: this browser gets (or keeps) its device token.
  const deviceToken = await gate.deviceToken(user.id);
  // With the factor on, the attempt stays counted until the code is right (answerChallenge).
  const challenge = await challengeFor(ctx, user);
  if (challenge) return { ...challenge, deviceToken };
  await gate.succeeded();
  const token = await signToken(ctx, {
    id: user.id,
    username: user.username,
    roles: rolesFromClaim(user.roles),
    tokenVersion: user.token_version,
  });
  return (await mustEnrol(ctx, user.id, user.roles))
    ? { token, deviceToken, secondFactorSetup: true }
    : { token, deviceToken };
}

/** First start: make sure an Admin9 account exists. Returns the generated password, if one was made. */
export async function ensureAdmin(ctx: AppContext): Promise<{ created: boolean; password?: string }> {
  if (await adminExists(ctx.db)) return { created: false };
  const generated = ctx.config.ADMIN_PASSWORD ? undefined : randomBytes(12).toString('base64url');
  const password = ctx.config.ADMIN_PASSWORD ?? generated!;
  const result = await insertUser(ctx.db, {
    username: 'admin',
    email: 'admin@simdock.local',
    passwordHash: await hashPassword(password),
    roles: [ADMIN_ROLE],
  });
  if (!result.row) {
    // Another server process starting at the same moment created it first: nothing to do.
    if (await adminExists(ctx.db)) return { created: false };
    // A user called "admin" exists without the role: promote nothing silently; tell the operator.
    ctx.log.warn('No Admin9 user exists and the username "admin" is taken; create an admin by hand.');
    return { created: false };
  }
  return { created: true, ...(generated ? { password: generated } : {}) };
}
