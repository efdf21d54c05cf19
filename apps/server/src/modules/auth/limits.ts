// Sign-in, password-change and registration limits, counted in the database (auth_throttle) so
// every server process shares them. Each guarded attempt takes a unit first (one atomic statement)
// and only then does its work; an attempt refused by a limit gives its units back, so only checked
// attempts ever count (a burst against one account cannot lock the address out for other accounts).

import { randomBytes } from 'node:crypto';
import { normalizeIpRange, parseIp } from '@simdock/contract';
import type { AppContext, AuthUser } from '../../context.ts';
import { sha256 } from '../../crypto.ts';
import type { Queryable } from '../../db/db.ts';
import { type DomainError, tooManyRequests } from '../../errors.ts';
import { recordAudit } from '../audit/index.ts';
import { findUserByUsername, mailOwner } from '../users/index.ts';
import {
  type Counted,
  clearKeys,
  deviceTokenBelongs,
  peek,
  release,
  reserve,
  saveDeviceToken,
} from './limits.queries.ts';

/**
 * The address a limit counts a client under: IPv4 as it is, IPv6 by its /64 (one customer's
 * network: a client can pick any address inside it), an IPv4-mapped IPv6 address as its IPv4.
 */
export function clientGroup(ip: string): string {
  const a = parseIp(ip);
  if (!a) return ip;
  if (a.version === 4) return a.bytes.join('.');
  return normalizeIpRange(`${ip.trim()}/64`) ?? ip;
}

/** Whole seconds until a window that started at `windowStart` ends (at least 1). */
export function secondsLeft(windowStart: Date, windowMs: number, now: Date): number {
  return Math.max(1, Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000));
}

/** A 429 with the Retry-After the error handler sends. */
export function limited(msg: string, retryAfterSeconds: number): DomainError {
  const err = tooManyRequests(msg);
  err.retryAfterSeconds = retryAfterSeconds;
  return err;
}

interface Limit {
  key: string;
  max: number;
}

/**
 * Takes a unit from every limit; when any is over its maximum, gives them all back and returns how
 * long until the first one that is over has room again. `max` 0 means no limit (not counted).
 */
async function take(
  q: Queryable,
  limits: Limit[],
  now: Date,
  windowMs: number,
): Promise<{ counts: Map<string, Counted>; retryAfter?: number }> {
  const counted = limits.filter((l) => l.max > 0);
  const counts = await reserve(
    q,
    counted.map((l) => l.key),
    now,
    new Date(now.getTime() - windowMs),
  );
  const over = counted.filter((l) => (counts.get(l.key)?.failures ?? 0) > l.max);
  if (over.length === 0) return { counts };
  await release(
    q,
    counted.map((l) => l.key),
  );
  const retryAfter = Math.max(...over.map((l) => secondsLeft(counts.get(l.key)!.windowStart, windowMs, now)));
  return { counts, retryAfter };
}

// ---- device tokens -------------------------------------------------------------------------------

/** Device tokens kept per user (most recently used first); older ones stop exempting their browser. */
export const DEVICE_TOKENS_PER_USER = 20;

const hashToken = sha256;

/** A new device token: 32 random bytes, base64url. */
export const newDeviceToken = () => randomBytes(32).toString('base64url');

/** Whether `token` is a device token this account's owner got from an earlier sign-in. */
export async function deviceTokenValid(
  q: Queryable,
  token: string | undefined,
  username: string,
): Promise<boolean> {
  if (!token || token.length > 128) return false;
  // The account through its module (auth does not read the users table).
  const user = await findUserByUsername(q, username);
  return user !== undefined && deviceTokenBelongs(q, hashToken(token), user.id);
}

// ---- sign-in --------------------------------------------------------------------------------------

export interface SignInGate {
  /** Failures of this account in the window, this attempt included (0 when it was exempt). */
  accountFailures: number;
  /** The password was right: the browser's device token (kept, or a new one saved). */
  deviceToken(userId: string): Promise<string>;
  /**
   * The sign-in succeeded: take the attempt back from the counts. With a second factor this waits
   * for the right code (`forgiveSignIn`): a right password alone clears nothing.
   */
  succeeded(): Promise<void>;
}

/** The sign-in limits' keys of a username from an address. */
function signInKeys(username: string, ip: string) {
  const address = clientGroup(ip);
  return { pairKey: `pair:${username}|${address}`, ipKey: `ip:${address}`, accountKey: `acct:${username}` };
}

/**
 * Counts a sign-in attempt before its password is checked, or refuses it (429) at once: per
 * username and address (LOGIN_MAX_FAILURES_PER_USER_IP), per address across usernames
 * (LOGIN_MAX_FAILURES_PER_IP) and per account across addresses (LOGIN_MAX_FAILURES_PER_ACCOUNT).
 * A browser holding a device token of this account is exempt from the per-account limit only.
 * Unknown usernames are counted like known ones: a counter that moved only for real accounts
 * would tell which usernames exist.
 */
export async function signInGate(
  ctx: AppContext,
  input: { username: string; ip: string; deviceToken?: string | undefined },
): Promise<SignInGate> {
  const { config } = ctx;
  const now = ctx.clock.now();
  const windowMs = config.LOGIN_WINDOW_MINUTES * 60_000;
  const { pairKey, ipKey, accountKey } = signInKeys(input.username, input.ip);
  const trusted = await deviceTokenValid(ctx.db, input.deviceToken, input.username);
  const limits: Limit[] = [
    { key: pairKey, max: config.LOGIN_MAX_FAILURES_PER_USER_IP },
    { key: ipKey, max: config.LOGIN_MAX_FAILURES_PER_IP },
    ...(trusted ? [] : [{ key: accountKey, max: config.LOGIN_MAX_FAILURES_PER_ACCOUNT }]),
  ];
  const { counts, retryAfter } = await take(ctx.db, limits, now, windowMs);
  if (retryAfter !== undefined) {
    throw limited(
      `Too many failed sign-in attempts. Please try again in ${Math.ceil(retryAfter / 60)} minutes.`,
      retryAfter,
    );
  }
  return {
    accountFailures: counts.get(accountKey)?.failures ?? 0,
    async deviceToken(userId) {
      const token = trusted && input.deviceToken ? input.deviceToken : newDeviceToken();
      await saveDeviceToken(ctx.db, userId, hashToken(token), now, DEVICE_TOKENS_PER_USER);
      return token;
    },
    async succeeded() {
      await clearKeys(ctx.db, [pairKey]);
      await release(ctx.db, trusted ? [ipKey] : [ipKey, accountKey]);
    },
  };
}

/** The second sign-in step succeeded: the password's attempt is taken back now (see `succeeded`). */
export async function forgiveSignIn(ctx: AppContext, username: string, ip: string): Promise<void> {
  const { pairKey, ipKey, accountKey } = signInKeys(username, ip);
  await clearKeys(ctx.db, [pairKey]);
  await release(ctx.db, [ipKey, accountKey]);
}

// ---- once per window ------------------------------------------------------------------------------

/**
 * Whether this is the first time `key` happens in its window (counted in the same table): what a
 * caller could repeat (a refused attempt) is audited and mailed once a window, counted after.
 */
export async function firstInWindow(ctx: AppContext, key: string, windowMs: number): Promise<boolean> {
  const now = ctx.clock.now();
  const counts = await reserve(ctx.db, [key], now, new Date(now.getTime() - windowMs));
  return counts.get(key)?.failures === 1;
}

// ---- second factor --------------------------------------------------------------------------------

export interface CodeGate {
  /** The code was right: its attempt is no failure. */
  passed(): Promise<void>;
  /** The code was wrong: it stays counted; reaching the limit locks (and tells the owner). */
  failed(): Promise<void>;
}

function secondFactorLimits(ctx: AppContext, userId: string, ip: string): Limit[] {
  return [
    { key: `2fa:${userId}`, max: ctx.config.SECOND_FACTOR_MAX_FAILURES },
    { key: `2fa-ip:${clientGroup(ip)}`, max: ctx.config.SECOND_FACTOR_MAX_FAILURES_PER_IP },
  ];
}

const secondFactorWindowMs = (ctx: AppContext) => ctx.config.SECOND_FACTOR_WINDOW_MINUTES * 60_000;

const secondFactorLimited = (retryAfter: number) =>
  limited(
    `Too many wrong codes. Two-factor codes are refused for ${Math.ceil(retryAfter / 60)} minutes.`,
    retryAfter,
  );

/**
 * The account has reached its wrong-code limit: audited (`user.secondFactorLimited`) and mailed to
 * the owner once a window, however often the locked calls are repeated.
 */
async function secondFactorLocked(ctx: AppContext, user: { id: string; username: string }): Promise<void> {
  if (!(await firstInWindow(ctx, `2fa-locked:${user.id}`, secondFactorWindowMs(ctx)))) return;
  await recordAudit(ctx.db, {
    actor: { id: user.id, username: user.username },
    kind: 'user.secondFactorLimited',
    targetId: user.id,
    targetLabel: user.username,
    after: { failures: ctx.config.SECOND_FACTOR_MAX_FAILURES },
    at: ctx.clock.now(),
  });
  await mailOwner(ctx, user.id, 'secondFactorLimited');
}

/**
 * Counts a second-factor code before it is checked (per account across challenges and calls:
 * SECOND_FACTOR_MAX_FAILURES; per client address: SECOND_FACTOR_MAX_FAILURES_PER_IP, in windows of
 * SECOND_FACTOR_WINDOW_MINUTES), or refuses it (429) unchecked.
 */
export async function secondFactorGate(
  ctx: AppContext,
  user: { id: string; username: string },
  ip: string,
): Promise<CodeGate> {
  const limits = secondFactorLimits(ctx, user.id, ip);
  const { counts, retryAfter } = await take(ctx.db, limits, ctx.clock.now(), secondFactorWindowMs(ctx));
  if (retryAfter !== undefined) {
    if ((counts.get(limits[0]!.key)?.failures ?? 0) > limits[0]!.max) await secondFactorLocked(ctx, user);
    throw secondFactorLimited(retryAfter);
  }
  return {
    passed: () =>
      release(
        ctx.db,
        limits.map((l) => l.key),
      ),
    async failed() {
      if ((counts.get(limits[0]!.key)?.failures ?? 0) >= limits[0]!.max) await secondFactorLocked(ctx, user);
    },
  };
}

/**
 * Refuses (429) a new sign-in challenge for an account whose wrong-code limit is reached: a right
 * password does not buy fresh attempts.
 */
export async function assertSecondFactorOpen(ctx: AppContext, user: { id: string; username: string }) {
  const now = ctx.clock.now();
  const windowMs = secondFactorWindowMs(ctx);
  const key = `2fa:${user.id}`;
  const count = await peek(ctx.db, key, new Date(now.getTime() - windowMs));
  if (count && count.failures >= ctx.config.SECOND_FACTOR_MAX_FAILURES) {
    await secondFactorLocked(ctx, user);
    throw secondFactorLimited(secondsLeft(count.windowStart, windowMs, now));
  }
}

// ---- password change ------------------------------------------------------------------------------

/**
 * Guards a check of the signed-in user's password (a password change, a re-authentication) like a
 * sign-in: at most LOGIN_MAX_FAILURES_PER_USER_IP wrong passwords per account per
 * LOGIN_WINDOW_MINUTES, then 429 without checking. The first refusal of a window is audited as
 * `user.passwordChangeLimited`; the rest are only counted (a caller cannot flood the audit log).
 * `check` throws a bad_input on `oldPass` or `password` for a wrong password; any other outcome
 * gives the attempt back, a success clears the count.
 */
export async function limitPasswordChange<T>(
  ctx: AppContext,
  user: AuthUser,
  check: () => Promise<T>,
): Promise<T> {
  const now = ctx.clock.now();
  const windowMs = ctx.config.LOGIN_WINDOW_MINUTES * 60_000;
  const key = `chpass:${user.id}`;
  const max = ctx.config.LOGIN_MAX_FAILURES_PER_USER_IP;
  const { retryAfter } = await take(ctx.db, [{ key, max }], now, windowMs);
  if (retryAfter !== undefined) {
    if (await firstInWindow(ctx, `chpass-limited:${user.id}`, windowMs)) {
      await recordAudit(ctx.db, {
        actor: { id: user.id, username: user.username },
        kind: 'user.passwordChangeLimited',
        targetId: user.id,
        targetLabel: user.username,
        after: { failures: max },
        at: now,
      });
    }
    throw limited(
      `Too many wrong passwords. Please try again in ${Math.ceil(retryAfter / 60)} minutes.`,
      retryAfter,
    );
  }
  try {
    const result = await check();
    await clearKeys(ctx.db, [key]);
    return result;
  } catch (err) {
    const wrongPassword =
      typeof err === 'object' &&
      err !== null &&
      (err as DomainError).code === 'bad_input' &&
      ['oldPass', 'password'].includes((err as DomainError).field ?? '');
    if (!wrongPassword) await release(ctx.db, [key]);
    throw err;
  }
}

// ---- registration ---------------------------------------------------------------------------------

const HOUR_MS = 3_600_000;

/**
 * Takes one registration from the per-address (REGISTRATIONS_PER_ADDRESS_PER_HOUR) and global
 * (REGISTRATIONS_PER_HOUR) hourly budgets, or refuses with 429. A registration refused because the
 * name or email is taken keeps its unit: otherwise anyone could probe usernames without limit.
 */
export async function reserveRegistration(ctx: AppContext, ip: string): Promise<() => Promise<void>> {
  const limits: Limit[] = [
    { key: `reg:${clientGroup(ip)}`, max: ctx.config.REGISTRATIONS_PER_ADDRESS_PER_HOUR },
    { key: 'reg:*', max: ctx.config.REGISTRATIONS_PER_HOUR },
  ];
  const { retryAfter } = await take(ctx.db, limits, ctx.clock.now(), HOUR_MS);
  if (retryAfter !== undefined) {
    throw limited(
      `Too many accounts were registered recently. Please try again in ${Math.ceil(retryAfter / 60)} minutes.`,
      retryAfter,
    );
  }
  const counted = limits.filter((l) => l.max > 0).map((l) => l.key);
  return () => release(ctx.db, counted);
}

/**
 * Takes one try from an hourly per-address budget (`prefix` names it: forgot, reset), or refuses
 * with 429 and a Retry-After that matches the message.
 */
export async function hourlyAddressLimit(
  ctx: AppContext,
  prefix: string,
  ip: string,
  max: number,
  what: string,
): Promise<void> {
  const { retryAfter } = await take(
    ctx.db,
    [{ key: `${prefix}:${clientGroup(ip)}`, max }],
    ctx.clock.now(),
    HOUR_MS,
  );
  if (retryAfter !== undefined) {
    const minutes = Math.ceil(retryAfter / 60);
    throw limited(
      `Too many ${what}. Please try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
      retryAfter,
    );
  }
}
