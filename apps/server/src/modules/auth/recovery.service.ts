import { randomBytes } from 'node:crypto';
import {
  FORGOT_NEUTRAL_MESSAGE,
  type ForgotResponse,
  normalizeLogin,
  passwordError,
  RESET_LINK_INVALID,
  RESET_LINK_MINUTES,
  ruleMessages,
} from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { sha256 } from '../../crypto.ts';
import { badInput } from '../../errors.ts';
import { mailMode, sendMail } from '../../mail/index.ts';
import { runtimeKey } from '../../runtime.ts';
import { revokeAllApiKeys } from '../apikey/index.ts';
import { recordAudit } from '../audit/index.ts';
import {
  findUserById,
  findUserByLogin,
  hashPassword,
  mailOwner,
  updatePasswordHash,
} from '../users/index.ts';
import { assertPasswordNotCommon } from './common-passwords.ts';
import { hourlyAddressLimit } from './limits.ts';
import { countRequest, replaceResetToken, resetTokenLive, useResetToken } from './recovery.queries.ts';
import { deleteChallengesOf } from './second-factor.queries.ts';

// Password recovery by email. The request answers at once with the same words for every login;
// looking the account up and mailing happen after the answer, so neither the words nor the time
// tell whether an account exists.

/** Forgot-password requests one client address may make per hour (429 past it). */
export const FORGOT_PER_IP_PER_HOUR = 20;
/** Links one account may be sent per hour; past it requests are answered alike and send nothing. */
export const FORGOT_PER_ACCOUNT_PER_HOUR = 5;

const HOUR_MS = 3600_000;

/** Only a hash of a link's token is stored: a copy of the database opens no account. */
export const hashResetToken = sha256;

/** `${PUBLIC_URL}/reset-password?token=…` */
export function resetLink(publicUrl: string, token: string): string {
  return `${publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
}

/** The mail's words (English: the server does not know the reader's language). */
export function resetMail(username: string, link: string): { subject: string; text: string; html: string } {
  const subject = 'Reset your SimDock password';
  const text = [
    `Hello ${username},`,
    '',
    'Someone (hopefully you) asked to reset the password of your SimDock account.',
    `Open this link within ${RESET_LINK_MINUTES} minutes to choose a new password (it works once):`,
    '',
    link,
    '',
    'If you did not ask for this, ignore this mail: your password stays as it is.',
  ].join('\n');
  const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const html =
    `<p>Hello ${esc(username)},</p>` +
    '<p>Someone (hopefully you) asked to reset the password of your SimDock account.</p>' +
    `<p><a href="${esc(link)}">Choose a new password</a> within ${RESET_LINK_MINUTES} minutes (the link works once).</p>` +
    '<p>If you did not ask for this, ignore this mail: your password stays as it is.</p>';
  return { subject, text, html };
}

/** Background work still running, per server: tests (and a graceful stop) can wait for it. */
const pendingKey = runtimeKey<Set<Promise<void>>>('auth.recovery.pending');

/** Resolves once every forgot-password request answered so far has finished its background work. */
export async function recoveryIdle(ctx: AppContext): Promise<void> {
  const pending = ctx.runtime.get(pendingKey, () => new Set());
  while (pending.size) await Promise.all([...pending]);
}

/**
 * POST /api/Auth/forgot. Counts the client address first (a hard limit: it says nothing about any
 * account), then answers the neutral message; the account's part runs in the background.
 */
export async function requestReset(
  ctx: AppContext,
  input: { login: string; ip: string },
): Promise<ForgotResponse> {
  const now = ctx.clock.now();
  await hourlyAddressLimit(ctx, 'forgot-ip', input.ip, FORGOT_PER_IP_PER_HOUR, 'password reset requests');
  const mode = mailMode(ctx.config);
  const mailEnabled = mode !== 'off';
  const login = normalizeLogin(input.login);
  if (mailEnabled && login) {
    const pending = ctx.runtime.get(pendingKey, () => new Set());
    const work: Promise<void> = mailResetLink(ctx, login, now)
      .catch((err: unknown) => ctx.log.error({ err }, 'password reset mail failed'))
      .finally(() => pending.delete(work));
    pending.add(work);
  }
  return {
    code: 1,
    msg: FORGOT_NEUTRAL_MESSAGE,
    mailEnabled,
    mailMode: mode,
    supportContact: ctx.config.SUPPORT_CONTACT,
  };
}

/** The background part: an active account with an email, within its hourly limit, gets a new link. */
async function mailResetLink(ctx: AppContext, login: string, now: Date): Promise<void> {
  const user = await findUserByLogin(ctx.db, login);
  if (user?.status !== 'Active' || !user.email) return;
  const userKey = `forgot-user:${user.id}`;
  if (
    (await countRequest(ctx.db, userKey, now, new Date(now.getTime() - HOUR_MS))) >
    FORGOT_PER_ACCOUNT_PER_HOUR
  ) {
    ctx.log.warn({ userId: user.id }, 'password reset mail not sent: hourly limit of the account reached');
    return;
  }
  const token = randomBytes(32).toString('base64url');
  await replaceResetToken(ctx.db, {
    userId: user.id,
    tokenHash: hashResetToken(token),
    createdAt: now,
    expiresAt: new Date(now.getTime() + RESET_LINK_MINUTES * 60_000),
  });
  const mail = resetMail(user.username, resetLink(ctx.config.PUBLIC_URL, token));
  await sendMail(ctx, { to: user.email, ...mail });
}

/**
 * POST /api/Auth/resetCheck: whether a link still works, without using it (the reset page asks on
 * load). Counted per client address like a reset but in its own budget (a page load must not use up
 * the tries of the reset itself); a dead link is a 400 on `token` with the reset's own message.
 */
export async function checkResetLink(ctx: AppContext, input: { token: string; ip: string }): Promise<void> {
  await hourlyAddressLimit(
    ctx,
    'reset-check-ip',
    input.ip,
    ctx.config.RESETS_PER_ADDRESS_PER_HOUR,
    'password reset link checks',
  );
  if (!(await resetTokenLive(ctx.db, hashResetToken(input.token), ctx.clock.now())))
    throw badInput(RESET_LINK_INVALID, 'token');
}

/**
 * POST /api/Auth/reset: counted per client address first (RESETS_PER_ADDRESS_PER_HOUR, 429), then
 * the link is looked at before any work on the password (an unknown link costs no hashing), then
 * the password rule; then in one transaction it takes the link (unused, unexpired), sets the
 * password and its token version (every session and every pending sign-in challenge ends), deletes
 * every API key (keys a thief made keep no foothold; the user makes new ones) and records the audit
 * row. The owner is mailed. An unknown, used, superseded or expired link gets one clear message.
 */
export async function resetPassword(
  ctx: AppContext,
  input: { token: string; password: string; ip: string },
): Promise<void> {
  await hourlyAddressLimit(
    ctx,
    'reset-ip',
    input.ip,
    ctx.config.RESETS_PER_ADDRESS_PER_HOUR,
    'password resets',
  );
  const tokenHash = hashResetToken(input.token);
  if (!(await resetTokenLive(ctx.db, tokenHash, ctx.clock.now())))
    throw badInput(RESET_LINK_INVALID, 'token');
  const problem = passwordError(input.password);
  if (problem) throw badInput(ruleMessages[problem], 'password');
  // The same rule as a change and a registration.
  assertPasswordNotCommon(input.password, 'password');
  const hash = await hashPassword(input.password);
  const userId = await ctx.db.tx(async (q) => {
    const now = ctx.clock.now();
    const link = await useResetToken(q, tokenHash, now);
    if (!link) return undefined;
    const user = await findUserById(q, link.userId);
    if (user?.status !== 'Active') return undefined;
    await updatePasswordHash(q, user.id, hash);
    await deleteChallengesOf(q, user.id);
    const keys = await revokeAllApiKeys(q, user, now);
    await recordAudit(q, {
      actor: { id: user.id, username: user.username },
      kind: 'user.passwordReset',
      targetId: user.id,
      targetLabel: user.username,
      after: { apiKeysDeleted: keys },
      at: now,
    });
    return user.id;
  });
  if (!userId) throw badInput(RESET_LINK_INVALID, 'token');
  await mailOwner(ctx, userId, 'passwordReset');
}
