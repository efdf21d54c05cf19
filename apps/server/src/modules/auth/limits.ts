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
import { findUserByUsername } from '../users/index.ts';
import {
  type Counted,
  clearKeys,
  deviceTokenBelongs,
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
  /** The attempt succeeded: take it back from the counts; returns the browser's device token. */
  succeeded(userId: string): Promise<string>;
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
  const address = clientGroup(input.ip);
  const pairKey = `pair:${input.username}|${address}`;
  const ipKey = `ip:${address}`;
  const accountKey = `acct:${input.username}`;
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
    async succeeded(userId) {
      await clearKeys(ctx.db, [pairKey]);
      await release(ctx.db, trusted ? [ipKey] : [ipKey, accountKey]);
      const token = trusted && input.deviceToken ? input.deviceToken : newDeviceToken();
      await saveDeviceToken(ctx.db, userId, hashToken(token), now, DEVICE_TOKENS_PER_USER);
      return token;
    },
  };
}

// ---- password change ------------------------------------------------------------------------------

/**
 * Guards a password change like a sign-in: at most LOGIN_MAX_FAILURES_PER_USER_IP wrong old
 * passwords per account per LOGIN_WINDOW_MINUTES, then 429 without checking (the first refusal of a
 * window is audited as `user.passwordChangeLimited`). `change` throws a bad_input on `oldPass` for
 * a wrong old password; any other outcome gives the attempt back, a success clears the count.
 */
export async function limitPasswordChange<T>(
  ctx: AppContext,
  user: AuthUser,
  change: () => Promise<T>,
): Promise<T> {
  const now = ctx.clock.now();
  const windowMs = ctx.config.LOGIN_WINDOW_MINUTES * 60_000;
  const key = `chpass:${user.id}`;
  const max = ctx.config.LOGIN_MAX_FAILURES_PER_USER_IP;
  const { counts, retryAfter } = await take(ctx.db, [{ key, max }], now, windowMs);
  if (retryAfter !== undefined) {
    if (counts.get(key)?.failures === max + 1) {
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
      `Too many wrong old passwords. Please try again in ${Math.ceil(retryAfter / 60)} minutes.`,
      retryAfter,
    );
  }
  try {
    const result = await change();
    await clearKeys(ctx.db, [key]);
    return result;
  } catch (err) {
    const wrongOld =
      typeof err === 'object' &&
      err !== null &&
      (err as DomainError).code === 'bad_input' &&
      (err as DomainError).field === 'oldPass';
    if (!wrongOld) await release(ctx.db, [key]);
    throw err;
  }
}

// ---- registration ---------------------------------------------------------------------------------

const HOUR_MS = 3_600_000;

/**
 * Takes one registration from the per-address (REGISTRATIONS_PER_ADDRESS_PER_HOUR) and global
 * (REGISTRATIONS_PER_HOUR) hourly budgets, or refuses with 429. Returns the undo for a
 * registration that then did not create an account (name or email taken).
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
