import { randomBytes } from 'node:crypto';
import {
  ADMIN_ROLE,
  DEFAULT_ROLE,
  normalizeLogin,
  rolesFromClaim,
  validateRegister,
} from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { assertNoFieldErrors, conflict, DomainError, tooManyRequests, unauthorized } from '../../errors.ts';
import { adminExists, findUserByUsername, hashPassword, insertUser, verifyPassword } from '../users/index.ts';
import { clearFailures, currentFailures, recordFailure } from './auth.queries.ts';
import { signToken } from './tokens.ts';

export async function register(
  ctx: AppContext,
  input: { username: string; email: string; password: string },
): Promise<void> {
  const username = normalizeLogin(input.username);
  const email = normalizeLogin(input.email);
  assertNoFieldErrors(validateRegister({ username, email, password: input.password }));
  const result = await insertUser(ctx.db, {
    username,
    email,
    passwordHash: await hashPassword(input.password),
    roles: [DEFAULT_ROLE],
  });
  if (result.taken === 'username')
    throw conflict('This username is already taken.', 'username', 'username_taken');
  if (result.taken === 'email')
    throw conflict('An account with this email already exists.', 'email', 'email_taken');
}

const LOGIN_FAILED = 'Invalid username or password.';

/** Signs a user in. Failures are counted per username and per IP and never say which field was wrong. */
export async function login(
  ctx: AppContext,
  input: { username: string; password: string; ip: string },
): Promise<string> {
  const username = normalizeLogin(input.username);
  const now = ctx.clock.now();
  const windowMs = ctx.config.LOGIN_WINDOW_MINUTES * 60_000;
  const windowStart = new Date(now.getTime() - windowMs);
  const userKey = `user:${username}`;
  const ipKey = `ip:${input.ip}`;

  const [userFailures, ipFailures] = await Promise.all([
    currentFailures(ctx.db, userKey, windowStart),
    currentFailures(ctx.db, ipKey, windowStart),
  ]);
  if (
    userFailures >= ctx.config.LOGIN_MAX_FAILURES_PER_USER ||
    ipFailures >= ctx.config.LOGIN_MAX_FAILURES_PER_IP
  ) {
    throw tooManyRequests(
      `Too many failed sign-in attempts. Please try again in ${ctx.config.LOGIN_WINDOW_MINUTES} minutes.`,
    );
  }

  const user = username && input.password ? await findUserByUsername(ctx.db, username) : undefined;
  const ok = user ? await verifyPassword(user.password_hash, input.password) : false;
  if (!user || !ok) {
    await Promise.all([
      recordFailure(ctx.db, userKey, now, windowStart),
      recordFailure(ctx.db, ipKey, now, windowStart),
    ]);
    throw unauthorized(LOGIN_FAILED);
  }
  if (user.status !== 'Active')
    throw new DomainError('account_inactive', 'This account is inactive. Please contact support.');
  await clearFailures(ctx.db, userKey);
  return signToken(ctx, {
    id: user.id,
    username: user.username,
    roles: rolesFromClaim(user.roles),
    tokenVersion: user.token_version,
  });
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
    // A user called "admin" exists without the role: promote nothing silently; tell the operator.
    ctx.log.warn('No Admin9 user exists and the username "admin" is taken; create an admin by hand.');
    return { created: false };
  }
  return { created: true, ...(generated ? { password: generated } : {}) };
}
